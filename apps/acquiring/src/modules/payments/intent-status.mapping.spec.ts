import { ATTEMPT_STATUSES, AttemptStatus, IntentStatus } from '@paygrid/contracts';
import { deriveIntentStatus, intentStatusOfAttempt } from './intent-status.mapping';
import { attemptMachine } from './payment-attempt.states';
import { intentEventFor } from './payment-intent.states';

describe('the intent status mapping', () => {
  const expected: Record<AttemptStatus, IntentStatus> = {
    INITIATED: 'PENDING',
    AUTHENTICATION_REDIRECTED: 'REQUIRES_CUSTOMER_ACTION',
    PENDING_AUTHORIZATION: 'PENDING',
    AUTHORIZED: 'REQUIRES_CAPTURE',
    CAPTURE_REQUESTED: 'SUCCEEDED',
    SETTLED: 'SUCCEEDED',
    CANCELLED: 'CANCELLED',
    EXPIRED: 'REQUIRES_PAYMENT_METHOD',
    FAILED: 'REQUIRES_PAYMENT_METHOD',
  };

  it.each(ATTEMPT_STATUSES.map((status) => [status, expected[status]]))('maps an attempt in %s to an intent in %s', (status, intent) => {
    expect(intentStatusOfAttempt(status, '')).toBe(intent);
  });

  it('fails the intent for good after a fraud block, but not after an ordinary decline', () => {
    expect(intentStatusOfAttempt('FAILED', 'fraudulent')).toBe('FAILED');
    expect(intentStatusOfAttempt('FAILED', 'card_declined')).toBe('REQUIRES_PAYMENT_METHOD');
  });

  it('says REQUIRES_PAYMENT_METHOD without an attempt and CANCELLED once the intent is cancelled', () => {
    expect(deriveIntentStatus({ cancelledAt: null }, null)).toBe('REQUIRES_PAYMENT_METHOD');
    expect(deriveIntentStatus({ cancelledAt: new Date() }, { status: 'FAILED', failureCode: 'card_declined' })).toBe('CANCELLED');
  });

  it('never derives a status change the intent state table forbids, for any attempt transition', () => {
    for (const event of attemptMachine.events) {
      for (const from of attemptMachine.allowedFrom(event)) {
        const to = attemptMachine.targetOf(event);
        for (const failureCode of ['', 'fraudulent']) {
          const before = intentStatusOfAttempt(from, '');
          const after = intentStatusOfAttempt(to, to === 'FAILED' ? failureCode : '');
          if (before === after) continue;
          expect({ event, from, to, move: intentEventFor(before, after) }).toEqual(expect.objectContaining({ move: expect.any(String) }));
        }
      }
    }
  });
});
