import 'reflect-metadata';
import { plainToInstance } from 'class-transformer';
import { validateSync, ValidationError } from 'class-validator';
import { Actor, CommandEnvelope } from '@paygrid/contracts';
import { Errors } from '@paygrid/platform';

/**
 * The edge of every command handler: the payload is checked against its DTO (unknown fields refused,
 * decisions §4) and a mismatch is answered as envelope A `invalid_request_error` naming the field and
 * the rule, never as a crash. Messages never quote values.
 *
 * Who may see what: a command with an actor (from the gateway) is scoped to the acting account; one
 * without (from the operators' CLI) may see every account.
 */
export function parsePayload<T extends object>(dto: new () => T, command: CommandEnvelope): T {
  const payload = command.payload;
  if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) {
    throw Errors.invalidRequest('payload must be an object');
  }
  const instance = plainToInstance(dto, payload);
  const errors = validateSync(instance, {
    whitelist: true,
    forbidNonWhitelisted: true,
    validationError: { target: false, value: false },
  });
  const problem = firstProblem(errors);
  if (problem) throw Errors.invalidRequest(problem);
  return instance;
}

function firstProblem(errors: ValidationError[], parent = ''): string | undefined {
  for (const error of errors) {
    const path = parent ? `${parent}.${error.property}` : error.property;
    const [message] = Object.values(error.constraints ?? {});
    if (message !== undefined) {
      return message.startsWith(`${error.property} `)
        ? `${path}: ${message.slice(error.property.length + 1)}`
        : `${path}: ${message}`;
    }
    const nested = firstProblem(error.children ?? [], path);
    if (nested) return nested;
  }
  return undefined;
}

/** The account a merchant command acts as, or null for an operator (all accounts). */
export function accountScopeOf(command: CommandEnvelope): string | null {
  return command.actor === null ? null : requireActor(command).account_id;
}

/** Commands that only make sense for a merchant (creating an endpoint, rotating its secret). */
export function requireActor(command: CommandEnvelope): Actor {
  const actor = command.actor;
  if (
    actor === null ||
    typeof actor !== 'object' ||
    typeof actor.account_id !== 'string' ||
    actor.account_id === ''
  ) {
    throw Errors.invalidRequest(`${command.type} needs an acting account (actor)`);
  }
  return actor;
}
