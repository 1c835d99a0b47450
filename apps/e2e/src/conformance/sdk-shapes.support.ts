import { ApiResponse } from '../support/api-client';

/**
 * The "SDK shapes" check (issue 13): a response as the official SDK reads it, field by field, against the
 * wire-compat tables. One small language for every route:
 *
 *   'string'            present, a string          'string?'      absent, or a string
 *   'object|null'       present, an object or null 'array'        present, an array
 *   oneOf('A', 'B')     present, one of the values oneOf(...).optional()
 *   { ...shape }        present, an object of that shape (nested)
 *   listOf({ ... })     present, an array whose every item has that shape
 *
 * Fields the SDK's type marks optional but that we always answer are written as required, so a field that
 * disappears fails here. Extra fields are allowed (the SDK ignores them; wire-compat allows additions).
 */
export type Kind = 'string' | 'number' | 'boolean' | 'object' | 'array' | 'null';
type KindSpec = string;
interface EnumSpec {
  oneOf: readonly (string | number)[];
  isOptional: boolean;
  optional(): EnumSpec;
}
interface ListSpec {
  listOf: Shape;
  isOptional: boolean;
}
export type Spec = KindSpec | EnumSpec | ListSpec | Shape;
export interface Shape {
  [field: string]: Spec;
}

export function oneOf(...values: (string | number)[]): EnumSpec {
  return { oneOf: values, isOptional: false, optional: () => ({ ...oneOf(...values), isOptional: true }) };
}

export function listOf(shape: Shape, options: { optional?: boolean } = {}): ListSpec {
  return { listOf: shape, isOptional: options.optional ?? false };
}

/** `{total_pages, total_items, data}` (wire-compat §8) with items of `item`. */
export function pageOf(item: Shape): Shape {
  return { total_pages: 'number', total_items: 'number', data: listOf(item) };
}

function kindOf(value: unknown): Kind {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value as Kind;
}

const isEnum = (spec: Spec): spec is EnumSpec => typeof spec === 'object' && 'oneOf' in spec && Array.isArray(spec.oneOf);
const isList = (spec: Spec): spec is ListSpec => typeof spec === 'object' && 'listOf' in spec && typeof spec.listOf === 'object';

/** Every way `value` differs from `shape`, each naming the field path; empty when it conforms. */
export function shapeProblems(value: unknown, shape: Shape, path = ''): string[] {
  if (kindOf(value) !== 'object') return [`${path || '(body)'}: expected an object, got ${kindOf(value)}`];
  const record = value as Record<string, unknown>;
  return Object.entries(shape).flatMap(([field, spec]) => fieldProblems(record, field, spec, path ? `${path}.${field}` : field));
}

function fieldProblems(record: Record<string, unknown>, field: string, spec: Spec, path: string): string[] {
  const present = Object.hasOwn(record, field);
  const value = record[field];
  if (typeof spec === 'string') {
    const optional = spec.endsWith('?');
    if (!present) return optional ? [] : [`${path}: missing`];
    const kinds = spec.replace(/\?$/, '').split('|');
    return kinds.includes(kindOf(value)) ? [] : [`${path}: expected ${kinds.join(' or ')}, got ${kindOf(value)}`];
  }
  if (isEnum(spec)) {
    if (!present) return spec.isOptional ? [] : [`${path}: missing`];
    return spec.oneOf.includes(value as string | number) ? [] : [`${path}: ${JSON.stringify(value)} is not one of ${spec.oneOf.join(', ')}`];
  }
  if (isList(spec)) {
    if (!present) return spec.isOptional ? [] : [`${path}: missing`];
    if (!Array.isArray(value)) return [`${path}: expected array, got ${kindOf(value)}`];
    return value.flatMap((item, index) => shapeProblems(item, spec.listOf, `${path}[${index}]`));
  }
  if (!present) return [`${path}: missing`];
  return shapeProblems(value, spec, path);
}

/** What a test asserts: HTTP 200 and no difference, so a failure prints the route and every problem. */
export function conformance(route: string, response: ApiResponse<unknown>, shape: Shape | ListSpec): { route: string; status: number; problems: string[] } {
  const problems = isList(shape as Spec)
    ? fieldProblems({ body: response.body }, 'body', shape as ListSpec, '(body)')
    : shapeProblems(response.body, shape as Shape);
  return { route, status: response.status, problems: response.status === 200 ? problems : [response.text] };
}

/** The expected value of `conformance(...)`. */
export const conforms = (route: string) => ({ route, status: 200, problems: [] });
