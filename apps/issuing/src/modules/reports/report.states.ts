import { defineStateMachine } from '@paygrid/state-machine';

/** A report: PENDING until the `issuing_report` job wrote its file (SUCCEEDED) or gave up on it (FAILED). */
export const reportMachine = defineStateMachine({
  name: 'IssuingReport',
  states: ['PENDING', 'SUCCEEDED', 'FAILED'],
  transitions: {
    SUCCEED: { from: ['PENDING'], to: 'SUCCEEDED' },
    FAIL: { from: ['PENDING'], to: 'FAILED' },
  },
  terminal: ['SUCCEEDED', 'FAILED'],
});
