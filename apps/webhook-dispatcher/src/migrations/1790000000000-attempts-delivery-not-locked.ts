import { LockFreeReference, lockFreeReferenceMigration } from '@paygrid/platform';

const ATTEMPT_DELIVERY: LockFreeReference = {
  child: 'webhook_attempts',
  constraint: 'webhook_attempts_delivery_id_fkey',
  column: 'delivery_id',
  parent: 'webhook_deliveries',
  parentColumn: 'delivery_id',
  message: 'webhook deliveries are never deleted (their attempts refer to them)',
};

/**
 * An attempt no longer checks its delivery through a foreign key. Every attempt is inserted by the statement
 * that moves its delivery (`recordAttemptsStatement`: the insert reads the rows its UPDATE returned), so the
 * delivery exists and is locked by that very statement; the key's check then probed the delivery's primary key
 * again and wrote a second lock on the row it had just updated (a WAL record per attempt). The group commit of
 * 4,000 first attempts in batches of eight took 224–276 ms with the key (six rounds) and 190–226 ms without it
 * (eleven), executor time alone (docs/performance.md §30); a card create writes about nine attempts.
 *
 * What the key guaranteed still holds: attempts are written only from their delivery's update, and a delivery
 * is never deleted (this migration makes that a rule, as 1780000000000 did for endpoints).
 */
export const AttemptsDeliveryNotLocked1790000000000 = lockFreeReferenceMigration(
  'AttemptsDeliveryNotLocked1790000000000',
  ATTEMPT_DELIVERY,
);
