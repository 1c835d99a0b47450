import { defineStateMachine } from '@paygrid/state-machine';

/**
 * The lifecycle of a webhook endpoint. The dispatcher DISABLEs an endpoint that answered 410 Gone or has
 * failed for WEBHOOK_DISABLE_AFTER_MS; the merchant or on-call ENABLEs it again. DELETED is final and
 * looks exactly like a missing endpoint from outside. Every status write is a conditional update.
 */
export const ENDPOINT_STATUSES = ['ENABLED', 'DISABLED', 'DELETED'] as const;
export type EndpointStatus = (typeof ENDPOINT_STATUSES)[number];

export const endpointMachine = defineStateMachine({
  name: 'webhook endpoint',
  states: ENDPOINT_STATUSES,
  transitions: {
    DISABLE: { from: ['ENABLED'], to: 'DISABLED', verb: 'disable' },
    ENABLE: { from: ['DISABLED'], to: 'ENABLED', verb: 'enable' },
    DELETE: { from: ['ENABLED', 'DISABLED'], to: 'DELETED', verb: 'delete' },
  },
  terminal: ['DELETED'],
});

export type EndpointEvent = (typeof endpointMachine.events)[number];
