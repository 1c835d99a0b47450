import { TransitionRefusedError } from '@paygrid/state-machine';
import { attemptMachine } from './payment-attempt.states';
import { intentEventFor, intentMachine } from './payment-intent.states';

describe('the PaymentIntent state table', () => {
  it('allows cancel only while the intent waits for a payment method, the customer or a capture', () => {
    expect([...intentMachine.allowedFrom('CANCEL')].sort()).toEqual(['REQUIRES_CAPTURE', 'REQUIRES_CUSTOMER_ACTION', 'REQUIRES_PAYMENT_METHOD']);
  });

  it.each(['SUCCEEDED', 'CANCELLED', 'FAILED', 'PENDING'])('refuses to cancel an intent in %s, naming the status', (status) => {
    expect(() => intentMachine.assertTransition(status, 'CANCEL')).toThrow(TransitionRefusedError);
    expect(() => intentMachine.assertTransition(status, 'CANCEL')).toThrow(`cannot cancel PaymentIntent: status is ${status}`);
  });

  it('captures only from REQUIRES_CAPTURE, and confirms or updates only from REQUIRES_PAYMENT_METHOD', () => {
    expect(intentMachine.allowedFrom('CAPTURE')).toEqual(['REQUIRES_CAPTURE']);
    expect(intentMachine.allowedFrom('CONFIRM')).toEqual(['REQUIRES_PAYMENT_METHOD']);
    expect(intentMachine.allowedFrom('UPDATE')).toEqual(['REQUIRES_PAYMENT_METHOD']);
    expect(() => intentMachine.assertTransition('SUCCEEDED', 'CAPTURE')).toThrow('cannot capture PaymentIntent: status is SUCCEEDED');
  });

  it('keeps SUCCEEDED, CANCELLED and FAILED terminal', () => {
    for (const status of ['SUCCEEDED', 'CANCELLED', 'FAILED']) expect(intentMachine.eventsFrom(status)).toEqual([]);
  });

  it('finds the transition between two statuses, preferring the operation under way', () => {
    expect(intentEventFor('REQUIRES_CAPTURE', 'SUCCEEDED', 'CAPTURE')).toBe('CAPTURE');
    expect(intentEventFor('PENDING', 'SUCCEEDED')).toBe('SUCCEED');
    expect(intentEventFor('SUCCEEDED', 'PENDING')).toBeUndefined();
  });
});

describe('the PaymentAttempt state table', () => {
  it('lets a sale go straight from INITIATED to CAPTURE_REQUESTED and an authorisation stop at AUTHORIZED', () => {
    expect(attemptMachine.canTransition('INITIATED', 'CAPTURE')).toBe(true);
    expect(attemptMachine.canTransition('INITIATED', 'AUTHORIZE')).toBe(true);
    expect(attemptMachine.canTransition('AUTHORIZED', 'CAPTURE')).toBe(true);
  });

  it('voids only an authorisation or a pending challenge', () => {
    expect([...attemptMachine.allowedFrom('VOID')].sort()).toEqual(['AUTHENTICATION_REDIRECTED', 'AUTHORIZED']);
    expect(() => attemptMachine.assertTransition('CAPTURE_REQUESTED', 'VOID')).toThrow('cannot cancel PaymentAttempt: status is CAPTURE_REQUESTED');
  });

  it('settles only what was captured, and never leaves SETTLED, CANCELLED, EXPIRED or FAILED', () => {
    expect(attemptMachine.allowedFrom('SETTLE')).toEqual(['CAPTURE_REQUESTED']);
    for (const status of ['SETTLED', 'CANCELLED', 'EXPIRED', 'FAILED']) expect(attemptMachine.eventsFrom(status)).toEqual([]);
  });
});
