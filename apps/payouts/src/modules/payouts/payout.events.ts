import { EventTopics, PAYOUT_EVENT_OF_STATUS } from '@paygrid/contracts';
import { appendToOutbox, Executor } from '@paygrid/platform';
import { presentPayout } from './payout.presenter';
import { Payout } from './payout.types';

/**
 * Every payout status announces itself once (spec 6 names, category PAYOUT): the event is appended to
 * the outbox in the transaction that wrote the status, so it exists if and only if the change committed.
 */
export async function announcePayout(executor: Executor, payout: Payout): Promise<void> {
  await appendToOutbox(executor, {
    topic: EventTopics.payouts,
    event_name: PAYOUT_EVENT_OF_STATUS[payout.status],
    event_type: 'PAYOUT',
    source_id: payout.id,
    account_id: payout.accountId,
    master_account_id: payout.masterAccountId,
    data: presentPayout(payout),
  });
}
