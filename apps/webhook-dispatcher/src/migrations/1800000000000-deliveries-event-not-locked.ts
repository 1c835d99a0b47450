import { LockFreeReference, lockFreeReferenceMigration } from '@paygrid/platform';

const DELIVERY_EVENT: LockFreeReference = {
  child: 'webhook_deliveries',
  constraint: 'webhook_deliveries_event_id_fkey',
  column: 'event_id',
  parent: 'webhook_events',
  parentColumn: 'event_id',
  message: 'webhook events are never deleted (their deliveries refer to them)',
};

/**
 * A delivery no longer checks its event through a foreign key. The intake inserts deliveries only for the events
 * its own transaction has just claimed and stored (event-intake.service.ts `storeAll`), so each check probed the
 * events' primary key for a row the transaction wrote a statement earlier, and locked it (a WAL record per event).
 * Executor time of the deliveries' insert, 6,000 deliveries (two endpoints, fifteen events a statement) on a copy
 * of the bench's webhooks database: 145–175 ms with the key (six rounds), 105–113 ms without (six); a card create
 * inserts about nine deliveries (docs/performance.md §30).
 *
 * What the key guaranteed still holds: deliveries are inserted only for events stored in the same transaction,
 * and an event row is never deleted (this migration makes that a rule, as 1780000000000 did for endpoints).
 */
export const DeliveriesEventNotLocked1800000000000 = lockFreeReferenceMigration(
  'DeliveriesEventNotLocked1800000000000',
  DELIVERY_EVENT,
);
