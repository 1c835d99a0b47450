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

/**
 * Whether a new delivery to this endpoint waits instead of being tried (the endpoint's circuit is open):
 * while an endpoint fails, the deliveries already scheduled against it are its probes, and a new one would
 * only add attempts that fail too, each a send, a record and a retry for the dispatcher, Postgres and Redis
 * (a dead endpoint of a busy merchant cost every other merchant a quarter of the create throughput). A
 * held delivery keeps its full schedule for when the endpoint answers again; docs/webhooks.md §5.
 */
export function holdsNewDeliveries(endpoint: Pick<Endpoint, 'failingSince'>): boolean {
  return endpoint.failingSince !== null;
}
