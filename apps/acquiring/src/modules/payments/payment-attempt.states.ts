import { ATTEMPT_STATUSES } from '@paygrid/contracts';
import { defineStateMachine } from '@paygrid/state-machine';

/**
 * PaymentAttempt transitions (decisions §7, wire-compat §9.7). A sale (auto_capture) goes straight from
 * INITIATED to CAPTURE_REQUESTED; a manual-capture authorisation stops at AUTHORIZED. CAPTURE_REQUESTED
 * means "submitted for clearing", which the settlement run turns into SETTLED.
 */
export const attemptMachine = defineStateMachine({
  name: 'PaymentAttempt',
  states: ATTEMPT_STATUSES,
  transitions: {
    REDIRECT_FOR_AUTHENTICATION: { from: ['INITIATED'], to: 'AUTHENTICATION_REDIRECTED', verb: 'redirect' },
    AWAIT_PROCESSOR: { from: ['INITIATED'], to: 'PENDING_AUTHORIZATION', verb: 'defer' },
    AUTHORIZE: {
      from: ['INITIATED', 'AUTHENTICATION_REDIRECTED', 'PENDING_AUTHORIZATION'],
      to: 'AUTHORIZED',
      verb: 'authorise',
    },
    CAPTURE: {
      from: ['INITIATED', 'AUTHENTICATION_REDIRECTED', 'PENDING_AUTHORIZATION', 'AUTHORIZED'],
      to: 'CAPTURE_REQUESTED',
      verb: 'capture',
    },
    SETTLE: { from: ['CAPTURE_REQUESTED'], to: 'SETTLED', verb: 'settle' },
    VOID: { from: ['AUTHENTICATION_REDIRECTED', 'AUTHORIZED'], to: 'CANCELLED', verb: 'cancel' },
    FAIL: { from: ['INITIATED', 'AUTHENTICATION_REDIRECTED', 'PENDING_AUTHORIZATION'], to: 'FAILED', verb: 'fail' },
    EXPIRE: { from: ['AUTHENTICATION_REDIRECTED'], to: 'EXPIRED', verb: 'expire' },
  },
  terminal: ['SETTLED', 'CANCELLED', 'EXPIRED', 'FAILED'],
});

export type AttemptEvent = (typeof attemptMachine.events)[number];
