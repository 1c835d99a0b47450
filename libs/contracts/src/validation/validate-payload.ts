import 'reflect-metadata';
import { plainToInstance } from 'class-transformer';
import { validateSync, ValidationError } from 'class-validator';
import { NoPayload } from '../command-definition';
import { CROSS_FIELD_RULES, crossFieldProblemsOf } from './cross-field-rules';

/**
 * Validates a command payload against a DTO class and turns class-validator's error tree into
 * sentences that name the field path and the rule ("company_info.email_address must be an email",
 * "ownership_details.representatives[0].nationality must be a valid ISO31661 Alpha2 code").
 *
 * Unknown fields are refused, never silently dropped (decisions §4). Messages never quote the
 * offending value, so a secret sent in the wrong field cannot leak into a reply or a log.
 * Framework-free on purpose (class-validator and class-transformer only), so the DTOs and this helper
 * can move to libs/contracts and be shared with the gateway.
 */
export type Validated<T> = { ok: true; value: T } | { ok: false; problems: string[] };

/** Enough to point at every broken field of a realistic request without an unbounded message. */
export const MAX_REPORTED_PROBLEMS = 10;

export function validatePayload<T extends object>(dto: new () => T, payload: unknown): Validated<T> {
  if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) {
    return { ok: false, problems: ['payload: must be an object'] };
  }
  if (dto === (NoPayload as unknown)) {
    // class-validator refuses a class without rules as an "unknown value"; an empty payload is the rule.
    const extra = Object.keys(payload).map((key) => `${key}: is not an accepted field`);
    return extra.length === 0 ? { ok: true, value: new dto() } : { ok: false, problems: extra.slice(0, MAX_REPORTED_PROBLEMS) };
  }
  const instance = plainToInstance(dto, payload);
  const errors = validateSync(instance, {
    whitelist: true,
    forbidNonWhitelisted: true,
    forbidUnknownValues: true,
    // Values are read only to tell a missing field from a wrong one; no message quotes them.
    validationError: { target: false, value: true },
  });
  if (errors.length === 0) return { ok: true, value: instance };
  return { ok: false, problems: describeErrors(errors).slice(0, MAX_REPORTED_PROBLEMS) };
}

/**
 * One sentence per failing field (its first broken rule), depth first, in declaration order. A field
 * that is missing is reported as required; one that is itself wrong (say, an array where an object
 * belongs) hides its children's noise. Cross-field rules (cross-field-rules.ts) speak for themselves.
 */
export function describeErrors(errors: ValidationError[], parentPath = ''): string[] {
  const problems: string[] = [];
  for (const error of errors) {
    const path = joinPath(parentPath, error.property);
    const { [CROSS_FIELD_RULES]: crossField, ...constraints } = error.constraints ?? {};
    const first = Object.values(constraints)[0];
    if (first !== undefined && error.value === undefined && constraints.isDefined === undefined) {
      problems.push(`${path}: is required`);
    } else if (first !== undefined) problems.push(withPath(first, error.property, path));
    else if (error.children && error.children.length > 0) problems.push(...describeErrors(error.children, path));
    if (crossField !== undefined) problems.push(...crossFieldProblemsOf(crossField));
  }
  return problems;
}

function joinPath(parent: string, property: string): string {
  if (/^\d+$/.test(property)) return `${parent}[${property}]`;
  return parent === '' ? property : `${parent}.${property}`;
}

/**
 * class-validator names only the property ("email_address must be ...", "property foo should not
 * exist"); the message becomes "<full path>: <rule>", e.g. "company_info.email_address: must be an
 * email", the same wording the gateway uses for every request.
 */
function withPath(message: string, property: string, path: string): string {
  if (message.startsWith(`${property} `)) return `${path}: ${message.slice(property.length + 1)}`;
  if (message === `property ${property} should not exist`) return `${path}: is not an accepted field`;
  return `${path}: ${message}`;
}
