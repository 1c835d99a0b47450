import { EventTopics } from '@paygrid/contracts';
import { NewEvent } from './outbox-writer';

/** An event for the outbox's own tests: keyed by `sourceId`, named `name`, owned by `accountId`. */
export function outboxTestEvent(sourceId: string, name: string, accountId: string): NewEvent<{ n: string }> {
  return {
    topic: EventTopics.payouts,
    event_name: name,
    event_type: 'OPERATIONS',
    source_id: sourceId,
    account_id: accountId,
    master_account_id: accountId,
    data: { n: name },
  };
}
