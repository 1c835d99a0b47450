import { defineStateMachine } from '@paygrid/state-machine';
import { AccountStatus, VerificationStatus } from '@paygrid/contracts';

/**
 * The two lifecycles of an account (spec section 3 names the states, not the transitions; these are ours).
 * Every write of `status` or `verification_status` goes through `applyTransition` with one of these
 * machines, so it is a conditional update and two concurrent writers cannot both win.
 *
 * status: a new sub-account is PROCESSING while it is reviewed; approval makes it ACTIVE, rejection
 * INACTIVE. ACTIVE and INACTIVE may swap (an operator suspends or reinstates); CLOSED is final.
 */
export const ACCOUNT_STATUSES = ['PROCESSING', 'ACTIVE', 'INACTIVE', 'CLOSED'] as const satisfies readonly AccountStatus[];

export const accountStatusMachine = defineStateMachine({
  name: 'account',
  states: ACCOUNT_STATUSES,
  transitions: {
    APPROVE: { from: ['PROCESSING'], to: 'ACTIVE', verb: 'approve' },
    REJECT: { from: ['PROCESSING'], to: 'INACTIVE', verb: 'reject' },
    DEACTIVATE: { from: ['ACTIVE'], to: 'INACTIVE', verb: 'deactivate' },
    REACTIVATE: { from: ['INACTIVE'], to: 'ACTIVE', verb: 'reactivate' },
    CLOSE: { from: ['PROCESSING', 'ACTIVE', 'INACTIVE'], to: 'CLOSED', verb: 'close' },
  },
  terminal: ['CLOSED'],
});

/**
 * verification_status: PENDING while the documents are reviewed; APPROVED or REJECT (final) decide it;
 * RETURN asks the merchant for more documents and goes back to PENDING when they arrive; an APPROVED
 * verification EXPIRES when its documents do and is then reviewed again.
 */
export const VERIFICATION_STATUSES = [
  'PENDING',
  'APPROVED',
  'REJECT',
  'RETURN',
  'EXPIRED',
] as const satisfies readonly VerificationStatus[];

export const verificationStatusMachine = defineStateMachine({
  name: 'account verification',
  states: VERIFICATION_STATUSES,
  transitions: {
    APPROVE: { from: ['PENDING'], to: 'APPROVED', verb: 'approve' },
    REJECT: { from: ['PENDING'], to: 'REJECT', verb: 'reject' },
    RETURN: { from: ['PENDING'], to: 'RETURN', verb: 'return' },
    RESUBMIT: { from: ['RETURN', 'EXPIRED'], to: 'PENDING', verb: 'resubmit' },
    EXPIRE: { from: ['APPROVED'], to: 'EXPIRED', verb: 'expire' },
  },
  terminal: ['REJECT'],
});

export type AccountStatusEvent = (typeof accountStatusMachine.events)[number];
export type VerificationEvent = (typeof verificationStatusMachine.events)[number];
