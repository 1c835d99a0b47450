import { EventTopics } from '@paygrid/contracts';

/**
 * The event topics payouts consumes. Overridable only so that integration tests can feed a booted app
 * from private topics: every stack on a shared broker publishes to the real ones.
 */
export interface ConsumedTopics {
  acquiringEvents: string;
  accountEvents: string;
}

export const CONSUMED_TOPICS = Symbol('CONSUMED_TOPICS');

export const DEFAULT_CONSUMED_TOPICS: ConsumedTopics = {
  acquiringEvents: EventTopics.acquiring,
  accountEvents: EventTopics.accounts,
};
