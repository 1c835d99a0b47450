/**
 * The small vocabulary both reference documents share: a JSON schema as plain data, the pointer every
 * named schema lives under (`#/components/schemas/<name>` in OpenAPI and AsyncAPI alike), and the
 * walk that finds which named schemas a set of schemas needs.
 */
export type JsonSchema = { [keyword: string]: unknown };

export const SCHEMA_POINTER = '#/components/schemas/';

export function schemaRef(name: string): JsonSchema {
  return { $ref: `${SCHEMA_POINTER}${name}` };
}

/** Names of the named schemas `roots` refer to, directly or through each other. */
export function reachableSchemaNames(roots: unknown[], schemas: Record<string, JsonSchema>): Set<string> {
  const found = new Set<string>();
  const pending = [...roots];
  while (pending.length > 0) {
    const node = pending.pop();
    if (Array.isArray(node)) {
      pending.push(...node);
    } else if (typeof node === 'object' && node !== null) {
      for (const [key, value] of Object.entries(node)) {
        if (key === '$ref' && typeof value === 'string' && value.startsWith(SCHEMA_POINTER)) {
          const name = value.slice(SCHEMA_POINTER.length);
          if (found.has(name)) continue;
          found.add(name);
          pending.push(schemas[name]);
        } else {
          pending.push(value);
        }
      }
    }
  }
  return found;
}

/** The named schemas `roots` need, sorted by name; throws on a reference to a schema that does not exist. */
export function pickSchemas(roots: unknown[], schemas: Record<string, JsonSchema>): Record<string, JsonSchema> {
  const names = [...reachableSchemaNames(roots, schemas)].sort();
  const missing = names.filter((name) => schemas[name] === undefined);
  if (missing.length > 0) throw new Error(`schemas referred to but not defined: ${missing.join(', ')}`);
  return Object.fromEntries(names.map((name) => [name, schemas[name]]));
}
