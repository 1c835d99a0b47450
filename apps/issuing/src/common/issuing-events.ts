import { EventTopics, IssuingEventName, IssuingFundsEventName, IssuingTransactionEventName } from '@paygrid/contracts';
import { appendToOutbox, Executor } from '@paygrid/platform';

/**
 * Issuing events (spec 6, category ISSUING) go through the outbox in the transaction of the change they
 * announce (architecture rule 3), keyed by the resource id. `data` is the resource as the API shows it:
 * masked card numbers only, never a CVV, PIN or document.
 */
export interface IssuingEventOwner {
  accountId: string;
  masterAccountId: string;
}

export async function recordIssuingEvent<D>(
  executor: Executor,
  owner: IssuingEventOwner,
  eventName: IssuingEventName | IssuingFundsEventName | IssuingTransactionEventName,
  sourceId: string,
  data: D,
): Promise<void> {
  await appendToOutbox(executor, {
    topic: EventTopics.issuing,
    event_name: eventName,
    event_type: 'ISSUING',
    source_id: sourceId,
    account_id: owner.accountId,
    master_account_id: owner.masterAccountId,
    data,
  });
}
