import { randomBytes, randomUUID } from 'node:crypto';
import { DomainEvent, EVENT_ENVELOPE_VERSION, EventCategory } from '@paygrid/contracts';

/** A domain event as a service's outbox would publish it (a succeeded payment unless told otherwise). */
export function aDomainEvent(overrides: Partial<DomainEvent> & { account_id: string }): DomainEvent {
  return {
    event_id: randomUUID(),
    event_name: 'acquiring.payment_intent.succeeded',
    event_type: 'ACQUIRING' as EventCategory,
    version: EVENT_ENVELOPE_VERSION,
    source_id: `pi_${randomBytes(6).toString('hex')}`,
    master_account_id: overrides.account_id,
    create_time: new Date().toISOString(),
    data: { payment_intent_id: 'pi_test', amount: '10.00', currency: 'USD', intent_status: 'SUCCEEDED' },
    ...overrides,
  };
}
