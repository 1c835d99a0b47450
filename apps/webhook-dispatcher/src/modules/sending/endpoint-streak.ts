import { Endpoint } from '../endpoints/endpoint.types';
import { AttemptDecision } from './retry-policy';

/**
 * Whether recording an attempt must write the endpoint row (and so take a transaction of its own), judged
 * on the endpoint as the claim read it a moment ago:
 * - a success ends a failure streak: a write only if there is one;
 * - the first failure of a streak starts it; 410 Gone disables; a streak as long as `disableAfterMs`
 *   disables: writes;
 * - any other failure, the endpoint already failing and still enabled, changes nothing on the endpoint.
 *
 * That last case is what a dead endpoint produces, thousands of times, so it is recorded like a success:
 * grouped with the other attempts of the moment into one statement, no transaction, no endpoint read. A
 * streak ended by a success elsewhere since the claim is started again by the next failure after it.
 */
export function attemptTouchesEndpoint(
  decision: AttemptDecision,
  endpoint: Pick<Endpoint, 'status' | 'failingSince'>,
  now: Date,
  disableAfterMs: number,
): boolean {
  if (decision.kind === 'succeeded') return endpoint.failingSince !== null;
  if (decision.kind === 'gone' || endpoint.failingSince === null || endpoint.status !== 'ENABLED')
    return true;
  return now.getTime() - endpoint.failingSince.getTime() >= disableAfterMs;
}
