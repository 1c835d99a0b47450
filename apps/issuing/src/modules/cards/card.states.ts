import { defineStateMachine } from '@paygrid/state-machine';

/**
 * The card (decisions §7): PENDING until issued (virtual) or activated (physical), or FAILED; ACTIVE ⇄ FROZEN;
 * ACTIVE or FROZEN (and BLOCKED) may be cancelled; LOST and STOLEN are reports that end the card. CANCELLED,
 * LOST, STOLEN and FAILED are terminal: a cancelled card never comes back. Refusals answer the spec's
 * "Card status is invalid".
 */
export const cardMachine = defineStateMachine({
  name: 'Card',
  states: ['PENDING', 'ACTIVE', 'FROZEN', 'BLOCKED', 'CANCELLED', 'LOST', 'STOLEN', 'FAILED'],
  transitions: {
    ISSUE: { from: ['PENDING'], to: 'ACTIVE' },
    ACTIVATE: { from: ['PENDING'], to: 'ACTIVE' },
    FAIL: { from: ['PENDING'], to: 'FAILED' },
    FREEZE: { from: ['ACTIVE'], to: 'FROZEN' },
    UNFREEZE: { from: ['FROZEN'], to: 'ACTIVE' },
    BLOCK: { from: ['ACTIVE', 'FROZEN'], to: 'BLOCKED' },
    CANCEL: { from: ['ACTIVE', 'FROZEN', 'BLOCKED'], to: 'CANCELLED' },
    REPORT_LOST: { from: ['ACTIVE', 'FROZEN', 'BLOCKED'], to: 'LOST' },
    REPORT_STOLEN: { from: ['ACTIVE', 'FROZEN', 'BLOCKED'], to: 'STOLEN' },
  },
  terminal: ['CANCELLED', 'LOST', 'STOLEN', 'FAILED'],
});
export type CardEvent = (typeof cardMachine.events)[number];

/** Which event an update-status request asks for, given the target status (ACTIVE from FROZEN is UNFREEZE). */
export const STATUS_TARGET_EVENTS = {
  ACTIVE: 'UNFREEZE',
  FROZEN: 'FREEZE',
  CANCELLED: 'CANCEL',
  LOST: 'REPORT_LOST',
  STOLEN: 'REPORT_STOLEN',
} as const satisfies Record<string, CardEvent>;

/** Cards that count against quotas and keep their number live. */
export const LIVE_CARD_STATUSES = ['PENDING', 'ACTIVE', 'FROZEN', 'BLOCKED'] as const;
/** Statuses whose sensitive details may be shown (the card exists and can still be used or unfrozen). */
export const SENSITIVE_DETAIL_STATUSES = ['ACTIVE', 'FROZEN'] as const;
