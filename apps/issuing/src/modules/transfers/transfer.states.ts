import { defineStateMachine } from '@paygrid/state-machine';

/**
 * An issuing transfer (wire-compat §11.10): PENDING when accepted (the money reserved on the source), then the
 * `issuing_transfer` job completes it (COMPLETED: on the destination) or fails it (FAILED: back on the source).
 */
export const transferMachine = defineStateMachine({
  name: 'IssuingTransfer',
  states: ['PENDING', 'COMPLETED', 'FAILED'],
  transitions: {
    COMPLETE: { from: ['PENDING'], to: 'COMPLETED' },
    FAIL: { from: ['PENDING'], to: 'FAILED' },
  },
  terminal: ['COMPLETED', 'FAILED'],
});
