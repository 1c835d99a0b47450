import { defineStateMachine } from '@paygrid/state-machine';

/**
 * The lifecycle of one delivery (one event to one endpoint). `pending` means "an attempt is due at
 * next_attempt_at" or, with no next_attempt_at, "held until its failing endpoint answers again"; each failed attempt either RESCHEDULEs it (still pending, a later next_attempt_at)
 * or FAILs it when the schedule is spent, the endpoint answered 410 or was disabled. A merchant or
 * on-call RETRYs a failed (or succeeded) delivery: one more, manual attempt. CANCEL: its endpoint was
 * deleted. Every write is a conditional update (delivery.repository.ts).
 */
export const DELIVERY_STATUSES = ['pending', 'succeeded', 'failed', 'cancelled'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

export const deliveryMachine = defineStateMachine({
  name: 'webhook delivery',
  states: DELIVERY_STATUSES,
  transitions: {
    RESCHEDULE: { from: ['pending'], to: 'pending', verb: 'reschedule' },
    SUCCEED: { from: ['pending'], to: 'succeeded', verb: 'complete' },
    FAIL: { from: ['pending'], to: 'failed', verb: 'fail' },
    CANCEL: { from: ['pending'], to: 'cancelled', verb: 'cancel' },
    RETRY: { from: ['failed', 'succeeded'], to: 'pending', verb: 'retry' },
  },
  terminal: ['cancelled'],
});

export type DeliveryEvent = (typeof deliveryMachine.events)[number];
