import { REFUND_STATUSES } from '@paygrid/contracts';
import { defineStateMachine } from '@paygrid/state-machine';

/** Refund transitions (decisions §7): INITIATED → PROCESSING → SUCCEEDED | FAILED. */
export const refundMachine = defineStateMachine({
  name: 'Refund',
  states: REFUND_STATUSES,
  transitions: {
    SUBMIT: { from: ['INITIATED'], to: 'PROCESSING', verb: 'submit' },
    SUCCEED: { from: ['PROCESSING'], to: 'SUCCEEDED', verb: 'complete' },
    FAIL: { from: ['PROCESSING'], to: 'FAILED', verb: 'fail' },
  },
  terminal: ['SUCCEEDED', 'FAILED'],
});

export type RefundEvent = (typeof refundMachine.events)[number];
