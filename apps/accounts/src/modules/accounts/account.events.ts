import { AccountEvents, EventTopics } from '@paygrid/contracts';
import { appendToOutbox, Executor } from '@paygrid/platform';
import { Account, masterIdOf } from './account.types';
import { presentAccount } from './account.presenter';

/**
 * Account lifecycle events (category ONBOARDING), written to the outbox in the caller's transaction,
 * each carrying the account as the API returns it.
 */
export type AccountEventName = Exclude<(typeof AccountEvents)[keyof typeof AccountEvents], `account.credential.${string}`>;

export async function recordAccountEvent(executor: Executor, eventName: AccountEventName, account: Account): Promise<void> {
  await appendToOutbox(executor, {
    topic: EventTopics.accounts,
    event_name: eventName,
    event_type: 'ONBOARDING',
    source_id: account.accountId,
    account_id: account.accountId,
    master_account_id: masterIdOf(account),
    data: presentAccount(account),
  });
}
