import { defineStateMachine } from '@paygrid/state-machine';

/**
 * A cardholder's KYC (wire-compat §11.3): PENDING while the review runs, then SUCCESS or FAILED; a change to KYC
 * fields (or supplied missing ones) sends it back to review. KYC fields are locked while PENDING.
 */
export const cardholderKycMachine = defineStateMachine({
  name: 'Cardholder',
  states: ['PENDING', 'SUCCESS', 'FAILED', 'INCOMPLETE'],
  transitions: {
    PASS_REVIEW: { from: ['PENDING'], to: 'SUCCESS' },
    FAIL_REVIEW: { from: ['PENDING'], to: 'FAILED' },
    RESUBMIT: { from: ['SUCCESS', 'FAILED', 'INCOMPLETE'], to: 'PENDING' },
  },
});
