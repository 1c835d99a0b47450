import { defineStateMachine } from '@paygrid/state-machine';

/**
 * A card order (decisions §7): PENDING → PROCESSING → SUCCESS | FAILED. Orders that complete synchronously (a
 * status update) are recorded already final; everything else is driven by the `card_order` job.
 */
export const cardOrderMachine = defineStateMachine({
  name: 'CardOrder',
  states: ['PENDING', 'PROCESSING', 'SUCCESS', 'FAILED'],
  transitions: {
    START: { from: ['PENDING'], to: 'PROCESSING' },
    SUCCEED: { from: ['PROCESSING'], to: 'SUCCESS' },
    FAIL: { from: ['PROCESSING'], to: 'FAILED' },
  },
  terminal: ['SUCCESS', 'FAILED'],
});
