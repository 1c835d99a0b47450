import { LockFreeReference, lockFreeReferenceMigration } from '@paygrid/platform';

const DELIVERY_ENDPOINT: LockFreeReference = {
  child: 'webhook_deliveries',
  constraint: 'webhook_deliveries_endpoint_id_fkey',
  column: 'endpoint_id',
  parent: 'webhook_endpoints',
  parentColumn: 'endpoint_id',
  message: 'webhook endpoints are never deleted (their deliveries refer to them): set status DELETED',
};

/**
 * A delivery no longer takes a lock on its endpoint's row. The foreign key webhook_deliveries.endpoint_id
 * → webhook_endpoints made every delivery insert lock the endpoint row FOR KEY SHARE; with the intake's
 * partitions and the recorder inserting concurrently, each endpoint became a hot row, and each new
 * concurrent locker made Postgres write a new MultiXact (every earlier locker copied into it) and
 * rewrite the row's xmax. Measured on c16 creates with two endpoints: ~1 MultiXact per create, and the
 * deliveries insert 1.8 → 1.0 ms per call with the key gone (docs/performance.md §11).
 *
 * What the key guaranteed still holds, by other means: deliveries are inserted only for endpoints the
 * intake read in the same transaction, and an endpoint row is never deleted (DELETE is a status, see
 * endpoint.states.ts): this migration makes that a rule, refusing DELETE on webhook_endpoints with a
 * trigger, which costs nothing on the delivery path.
 */
export const DeliveriesEndpointNotLocked1780000000000 = lockFreeReferenceMigration(
  'DeliveriesEndpointNotLocked1780000000000',
  DELIVERY_ENDPOINT,
);
