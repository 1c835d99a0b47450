import { AUTHORIZATION_CHANNELS, AuthorizationChannel, SpendingControlInput } from '@paygrid/contracts';
import { parseMajorNumber } from '@paygrid/money';
import { isExpired } from '../cards/card-number';
import { Card } from '../cards/card.types';
import { SpendWindows, WindowSpend } from '../transactions/card-transaction.repository';

/**
 * The authorization rules (docs/issuing.md "Card transactions"), pure so they are tested without a database.
 * Each answers why an authorization is declined, or null; the order is the order a network message meets them:
 * the card (status, expiry, currency), its risk controls (channel), its spending controls (MCC, per transaction,
 * per interval), its limit, then the money (the ledger) and the account's decision endpoint.
 */
const MCC = /^\d{4}$/;

export interface AuthorizationAttempt {
  amountMinor: bigint;
  currency: string;
  mcc: string;
  channel: AuthorizationChannel;
}

export function isValidMcc(mcc: string): boolean {
  return MCC.test(mcc);
}

export function channelOf(raw: string | undefined): AuthorizationChannel | undefined {
  const channel = raw ?? 'ONLINE';
  return (AUTHORIZATION_CHANNELS as readonly string[]).includes(channel) ? (channel as AuthorizationChannel) : undefined;
}

/** Declines that need nothing but the card (no spend history, no money). */
export function declineByCard(card: Card, attempt: AuthorizationAttempt, now = new Date()): string | null {
  if (card.status !== 'ACTIVE') return `card is ${card.status}`;
  if (isExpired(card, now)) return 'card expired';
  if (attempt.currency !== card.currency) return `transaction currency ${attempt.currency} differs from the card currency ${card.currency}`;
  const risk = card.riskControls ?? {};
  if (attempt.channel === 'ONLINE' && risk.allow_online === false) return 'online transactions are not allowed on this card';
  if (attempt.channel === 'CONTACTLESS' && risk.allow_contactless === false) return 'contactless transactions are not allowed on this card';
  if (attempt.channel === 'ATM' && risk.allow_atm === false) return 'ATM transactions are not allowed on this card';
  const allowed = allowedCategories(card.spendingControls);
  if (allowed && !allowed.has(attempt.mcc)) return `merchant category ${attempt.mcc} is not allowed by the card's spending controls`;
  for (const control of card.spendingControls) {
    if (control.interval === 'PER_TRANSACTION' && control.amount !== undefined && appliesTo(control, attempt.mcc)) {
      if (attempt.amountMinor > parseMajorNumber(control.amount)) return 'amount exceeds the per-transaction spending limit';
    }
  }
  return null;
}

/** Spending controls that limit a sum over time and apply to this MCC; each is checked against its own spend. */
export function intervalControls(card: Card, mcc: string): SpendingControlInput[] {
  return card.spendingControls.filter((control) => control.interval !== 'PER_TRANSACTION' && control.amount !== undefined && appliesTo(control, mcc));
}

/** Decline when this authorization would take a window's spend above its control, or the card above its limit. */
export function declineBySpend(
  card: Card,
  attempt: AuthorizationAttempt,
  spendOf: (control: SpendingControlInput | null) => WindowSpend,
): string | null {
  for (const control of intervalControls(card, attempt.mcc)) {
    const spend = spendOf(control);
    const spent = { DAILY: spend.day, WEEKLY: spend.week, MONTHLY: spend.month, YEARLY: spend.year, ALL_TIME: spend.allTime }[
      control.interval as 'DAILY' | 'WEEKLY' | 'MONTHLY' | 'YEARLY' | 'ALL_TIME'
    ];
    if (spent + attempt.amountMinor > parseMajorNumber(control.amount as number)) return `amount exceeds the ${control.interval} spending limit`;
  }
  if (card.cardLimitMinor > 0n && spendOf(null).allTime + attempt.amountMinor > card.cardLimitMinor) return 'amount exceeds the card limit';
  return null;
}

/** Whether the spend history is needed at all (most cards have no interval control and no limit). */
export function needsSpend(card: Card, mcc: string): boolean {
  return card.cardLimitMinor > 0n || intervalControls(card, mcc).length > 0;
}

/** Windows in UTC: the day, the ISO week (from Monday), the month and the year the authorization falls in. */
export function spendWindows(now: Date): SpendWindows {
  const day = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
  const sinceMonday = (day.getUTCDay() + 6) % 7;
  return {
    day,
    week: new Date(day.getTime() - sinceMonday * 86_400_000),
    month: new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1)),
    year: new Date(Date.UTC(now.getUTCFullYear(), 0, 1)),
  };
}

/** The MCCs any control names: when some do, only those are allowed on the card. */
function allowedCategories(controls: SpendingControlInput[]): Set<string> | null {
  const named = controls.flatMap((control) => control.categories ?? []);
  return named.length > 0 ? new Set(named) : null;
}

function appliesTo(control: SpendingControlInput, mcc: string): boolean {
  return !control.categories || control.categories.length === 0 || control.categories.includes(mcc);
}
