import { Actor, CommandEnvelope, validatePayload } from '@paygrid/contracts';
import { Errors } from '@paygrid/platform';


/**
 * The edge of every command handler: a payload that does not match its DTO is answered as envelope A
 * `invalid_request_error` naming each broken field, never as a crash.
 */
export function parsePayload<T extends object>(dto: new () => T, command: CommandEnvelope): T {
  const result = validatePayload(dto, command.payload);
  if (!result.ok) throw Errors.invalidRequest(result.problems.join('; '));
  return result.value;
}

/** Commands on behalf of a merchant carry the gateway's actor; refuse one that does not. */
export function requireActor(command: CommandEnvelope): Actor {
  const actor = command.actor;
  if (actor === null || typeof actor !== 'object' || typeof actor.account_id !== 'string') {
    throw Errors.invalidRequest(`${command.type} needs an acting account (actor)`);
  }
  return actor;
}
