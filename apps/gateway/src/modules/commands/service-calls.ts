import { Inject, Injectable } from '@nestjs/common';
import { CommandDefinition, PayloadOf, ResultOf } from '@paygrid/contracts';
import { CommandBus, CORRELATION_HEADER } from '@paygrid/platform';
import { AuthenticatedRequest, authOf } from '../../common/authenticated-request';
import { idempotencyClaimOf } from '../idempotency/idempotency.gate';
import { COMMAND_BUS } from './command-bus.provider';

/**
 * How routes reach the services: `execute(request, definition, payload)` sends a declared command as
 * the acting account and resolves with its declared result. A mutating command carries the command id
 * of the request's idempotency claim (IdempotencyGate), so a retry after a crash or a timeout
 * re-sends the same id and the service answers what it already did.
 */
@Injectable()
export class ServiceCalls {
  constructor(@Inject(COMMAND_BUS) private readonly bus: CommandBus) {}

  execute<C extends CommandDefinition>(request: AuthenticatedRequest, definition: C, payload: PayloadOf<C>): Promise<ResultOf<C>> {
    if (!definition.needsActor && !request.auth) {
      // A public route (the hosted pages): no actor, and no idempotency claim to take a command id from.
      return this.bus.execute(definition, payload, { actor: null, commandId: null, correlationId: correlationOf(request) });
    }
    return this.bus.execute(definition, payload, {
      actor: authOf(request).actor,
      commandId: definition.mutates ? this.commandIdOf(request, definition.type) : null,
      correlationId: correlationOf(request),
    });
  }

  private commandIdOf(request: AuthenticatedRequest, type: string): string {
    const claim = idempotencyClaimOf(request);
    // The gate claims for every command route; a mutation anywhere else is a routing mistake.
    if (!claim) throw new Error(`${type} sent without an idempotency claim (a mutating command on a GET or read-only POST?)`);
    claim.executed = true;
    return claim.commandId;
  }
}

export function correlationOf(request: AuthenticatedRequest): string | undefined {
  const value = request.headers[CORRELATION_HEADER];
  return typeof value === 'string' ? value : undefined;
}
