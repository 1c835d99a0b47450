import { INTENT_STATUSES, IntentStatus } from '@paygrid/contracts';
import { defineStateMachine } from '@paygrid/state-machine';

/**
 * Which PaymentIntent status changes are legal (decisions §7). Merchant operations (confirm, update,
 * capture, cancel) are guarded here, and so is every status the mapping derives from an attempt: a
 * derived status that no transition allows is a bug and fails loudly instead of being written.
 */
export const intentMachine = defineStateMachine({
  name: 'PaymentIntent',
  states: INTENT_STATUSES,
  transitions: {
    UPDATE: { from: ['REQUIRES_PAYMENT_METHOD'], to: 'REQUIRES_PAYMENT_METHOD', verb: 'update' },
    CONFIRM: { from: ['REQUIRES_PAYMENT_METHOD'], to: 'PENDING', verb: 'confirm' },
    REQUIRE_ACTION: { from: ['PENDING'], to: 'REQUIRES_CUSTOMER_ACTION', verb: 'require action on' },
    AWAIT_CAPTURE: { from: ['PENDING', 'REQUIRES_CUSTOMER_ACTION'], to: 'REQUIRES_CAPTURE', verb: 'authorise' },
    SUCCEED: { from: ['PENDING', 'REQUIRES_CUSTOMER_ACTION'], to: 'SUCCEEDED', verb: 'complete' },
    RETRY: { from: ['PENDING', 'REQUIRES_CUSTOMER_ACTION'], to: 'REQUIRES_PAYMENT_METHOD', verb: 'decline' },
    FAIL: { from: ['PENDING', 'REQUIRES_CUSTOMER_ACTION'], to: 'FAILED', verb: 'fail' },
    CAPTURE: { from: ['REQUIRES_CAPTURE'], to: 'SUCCEEDED', verb: 'capture' },
    CANCEL: {
      from: ['REQUIRES_PAYMENT_METHOD', 'REQUIRES_CUSTOMER_ACTION', 'REQUIRES_CAPTURE'],
      to: 'CANCELLED',
      verb: 'cancel',
    },
  },
  terminal: ['SUCCEEDED', 'CANCELLED', 'FAILED'],
});

export type IntentEvent = (typeof intentMachine.events)[number];

/** The transition that moves `from` to `to`, preferring `preferred` (the operation under way). */
export function intentEventFor(from: IntentStatus, to: IntentStatus, preferred?: IntentEvent): IntentEvent | undefined {
  if (preferred && intentMachine.canTransition(from, preferred) && intentMachine.targetOf(preferred) === to) return preferred;
  return intentMachine.events.find((event) => intentMachine.targetOf(event) === to && intentMachine.canTransition(from, event));
}
