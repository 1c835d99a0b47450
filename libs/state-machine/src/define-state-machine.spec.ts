import { defineStateMachine } from './define-state-machine';
import { InvalidStateMachineError, TransitionRefusedError } from './errors';

const paymentIntent = defineStateMachine({
  name: 'PaymentIntent',
  states: ['REQUIRES_PAYMENT_METHOD', 'REQUIRES_CAPTURE', 'PENDING', 'SUCCEEDED', 'CANCELLED'],
  transitions: {
    AUTHORISE: { from: ['REQUIRES_PAYMENT_METHOD'], to: 'REQUIRES_CAPTURE' },
    CAPTURE: { from: ['REQUIRES_CAPTURE'], to: 'PENDING' },
    SETTLE: { from: ['PENDING'], to: 'SUCCEEDED' },
    CANCEL: { from: ['REQUIRES_PAYMENT_METHOD', 'REQUIRES_CAPTURE'], to: 'CANCELLED' },
    MARK_PAID_OUT: { from: ['PENDING'], to: 'SUCCEEDED' },
    RETRY: { from: ['REQUIRES_CAPTURE'], to: 'REQUIRES_PAYMENT_METHOD', verb: 'retry payment of' },
  },
  terminal: ['SUCCEEDED', 'CANCELLED'],
});

function refusal(run: () => unknown): TransitionRefusedError {
  try {
    run();
  } catch (error) {
    if (error instanceof TransitionRefusedError) return error;
    throw error;
  }
  throw new Error('expected a TransitionRefusedError');
}

describe('a state machine table', () => {
  it('allows cancelling an intent that still requires a payment method', () => {
    expect(paymentIntent.canTransition('REQUIRES_PAYMENT_METHOD', 'CANCEL')).toBe(true);
    expect(paymentIntent.assertTransition('REQUIRES_PAYMENT_METHOD', 'CANCEL')).toBe('CANCELLED');
  });

  it('refuses to cancel a succeeded intent, naming the current status', () => {
    expect(paymentIntent.canTransition('SUCCEEDED', 'CANCEL')).toBe(false);
    const error = refusal(() => paymentIntent.assertTransition('SUCCEEDED', 'CANCEL', 'pi_1'));
    expect(error.message).toBe('cannot cancel PaymentIntent: status is SUCCEEDED');
    expect(error).toMatchObject({
      aggregate: 'PaymentIntent',
      event: 'CANCEL',
      currentStatus: 'SUCCEEDED',
      aggregateId: 'pi_1',
      allowedFrom: ['REQUIRES_PAYMENT_METHOD', 'REQUIRES_CAPTURE'],
    });
  });

  it('words multi-word events and takes an explicit verb', () => {
    expect(refusal(() => paymentIntent.assertTransition('CANCELLED', 'MARK_PAID_OUT')).message).toBe(
      'cannot mark paid out PaymentIntent: status is CANCELLED',
    );
    expect(refusal(() => paymentIntent.assertTransition('PENDING', 'RETRY')).message).toBe(
      'cannot retry payment of PaymentIntent: status is PENDING',
    );
  });

  it('refuses from a status it does not know, such as a corrupt row value', () => {
    expect(paymentIntent.canTransition('succeeded', 'CANCEL')).toBe(false);
    expect(refusal(() => paymentIntent.assertTransition('', 'CANCEL')).currentStatus).toBe('');
  });

  it('gives the target and the from-list for the conditional update', () => {
    expect(paymentIntent.targetOf('CAPTURE')).toBe('PENDING');
    expect(paymentIntent.allowedFrom('CANCEL')).toEqual(['REQUIRES_PAYMENT_METHOD', 'REQUIRES_CAPTURE']);
  });

  it('lists the events legal from a status', () => {
    expect(paymentIntent.eventsFrom('REQUIRES_CAPTURE')).toEqual(['CAPTURE', 'CANCEL', 'RETRY']);
    expect(paymentIntent.eventsFrom('SUCCEEDED')).toEqual([]);
  });

  it('knows its states and terminal states', () => {
    expect(paymentIntent.isState('PENDING')).toBe(true);
    expect(paymentIntent.isState('pending')).toBe(false);
    expect(paymentIntent.isState(7)).toBe(false);
    expect(paymentIntent.isTerminal('CANCELLED')).toBe(true);
    expect(paymentIntent.isTerminal('PENDING')).toBe(false);
    expect(paymentIntent.events).toEqual([
      'AUTHORISE',
      'CAPTURE',
      'SETTLE',
      'CANCEL',
      'MARK_PAID_OUT',
      'RETRY',
    ]);
  });

  it('throws on an event it does not have, which is a bug in the caller', () => {
    expect(() => paymentIntent.canTransition('PENDING', 'REFUND' as 'CANCEL')).toThrow(
      'PaymentIntent has no event "REFUND"',
    );
    expect(() => paymentIntent.targetOf('toString' as 'CANCEL')).toThrow(TypeError);
  });

  it('cannot be changed after definition', () => {
    expect(Object.isFrozen(paymentIntent)).toBe(true);
    expect(Object.isFrozen(paymentIntent.allowedFrom('CANCEL'))).toBe(true);
    expect(Object.isFrozen(paymentIntent.states)).toBe(true);
  });

  it('does not share arrays with the definition', () => {
    const from: ('A' | 'B')[] = ['A'];
    const machine = defineStateMachine({
      name: 'X',
      states: ['A', 'B'],
      transitions: { GO: { from, to: 'B' } },
    });
    from.push('B');
    expect(machine.allowedFrom('GO')).toEqual(['A']);
  });
});

describe('defining a state machine', () => {
  const define = (overrides: Record<string, unknown>) => () =>
    defineStateMachine({
      name: 'Payout',
      states: ['CREATED', 'PAID', 'FAILED'],
      transitions: { PAY: { from: ['CREATED'], to: 'PAID' }, FAIL: { from: ['CREATED'], to: 'FAILED' } },
      terminal: ['PAID', 'FAILED'],
      ...overrides,
    } as Parameters<typeof defineStateMachine>[0]);

  it('accepts a valid table', () => {
    expect(define({})).not.toThrow();
  });

  it.each([
    [
      'an unknown state in from',
      { transitions: { PAY: { from: ['NEW'], to: 'PAID' } } },
      'PAY.from names unknown state "NEW"',
    ],
    [
      'an unknown state in to',
      { transitions: { PAY: { from: ['CREATED'], to: 'DONE' } } },
      'PAY.to names unknown state "DONE"',
    ],
    ['an unknown terminal state', { terminal: ['DONE'] }, 'terminal names unknown state "DONE"'],
    [
      'a transition out of a terminal state',
      { transitions: { REOPEN: { from: ['PAID'], to: 'CREATED' } } },
      'REOPEN leaves terminal state PAID',
    ],
    [
      'an empty from-list',
      { transitions: { PAY: { from: [], to: 'PAID' } } },
      'PAY.from must list at least one state',
    ],
    [
      'a repeated from state',
      { transitions: { PAY: { from: ['CREATED', 'CREATED'], to: 'PAID' } } },
      'lists a state twice',
    ],
    ['repeated states', { states: ['CREATED', 'CREATED', 'PAID', 'FAILED'] }, 'states lists a state twice'],
    ['no states', { states: [] }, 'states must list at least one state'],
    ['an empty state name', { states: ['CREATED', '', 'PAID', 'FAILED'] }, 'state "" is not a name'],
    ['no transitions', { transitions: {} }, 'has no transitions'],
    ['an empty name', { name: ' ' }, 'name must be a non-empty string'],
    ['an empty verb', { transitions: { PAY: { from: ['CREATED'], to: 'PAID', verb: '' } } }, 'PAY.verb'],
  ])('refuses %s', (_label, overrides, message) => {
    expect(define(overrides)).toThrow(InvalidStateMachineError);
    expect(define(overrides)).toThrow(message);
  });

  it('catches typos at compile time too', () => {
    expect(() =>
      defineStateMachine({
        name: 'Payout',
        states: ['CREATED', 'PAID'],
        // @ts-expect-error 'PAYED' is not one of the states
        transitions: { PAY: { from: ['CREATED'], to: 'PAYED' } },
      }),
    ).toThrow(InvalidStateMachineError);
    const payout = defineStateMachine({
      name: 'Payout',
      states: ['CREATED', 'PAID'],
      transitions: { PAY: { from: ['CREATED'], to: 'PAID' } },
    });
    // @ts-expect-error 'REFUND' is not one of the events
    expect(() => payout.targetOf('REFUND')).toThrow(TypeError);
  });
});
