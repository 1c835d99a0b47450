import { LockFreeReference, lockFreeReferenceMigration } from '@paygrid/platform';

const SETTLEMENT_BATCH: LockFreeReference = {
  child: 'settlements',
  constraint: 'settlements_settlement_batch_id_fkey',
  column: 'settlement_batch_id',
  parent: 'settlement_batches',
  parentColumn: 'settlement_batch_id',
  message: 'settlement batches are never deleted (their settlements refer to them)',
};

/**
 * A settlement no longer takes a lock on its batch's row. The foreign key settlements.settlement_batch_id
 * → settlement_batches made every settlement insert lock the batch row FOR KEY SHARE, and every
 * settlement of an account, currency and day goes to one batch: concurrent settle jobs made it a hot row,
 * with a new MultiXact per concurrent locker (docs/performance.md §11).
 *
 * What the key guaranteed still holds: the settlement's insert takes its batch id from the batch it
 * finds or creates in the same statement (settlement.repository.ts), and a batch row is never deleted:
 * this migration makes that a rule, refusing DELETE on settlement_batches with a trigger.
 */
export const SettlementsBatchNotLocked1770000000000 = lockFreeReferenceMigration(
  'SettlementsBatchNotLocked1770000000000',
  SETTLEMENT_BATCH,
);
