import { PAYOUT_STATUSES } from '@paygrid/contracts';
import { defineStateMachine } from '@paygrid/state-machine';

/**
 * The payout state machine (decisions §7): INITIATED → PROCESSING → COMPLETED | FAILED → FAILED_REFUNDED.
 * Only the bank rail moves a payout; every move is a conditional update on this table.
 */
export const payoutStates = defineStateMachine({
  name: 'Payout',
  states: PAYOUT_STATUSES,
  transitions: {
    PROCESS: { from: ['INITIATED'], to: 'PROCESSING' },
    COMPLETE: { from: ['PROCESSING'], to: 'COMPLETED' },
    FAIL: { from: ['PROCESSING'], to: 'FAILED' },
    REFUND: { from: ['FAILED'], to: 'FAILED_REFUNDED' },
  },
  terminal: ['COMPLETED', 'FAILED_REFUNDED'],
});

export type PayoutTransition = (typeof payoutStates.events)[number];
