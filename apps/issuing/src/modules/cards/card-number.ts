import { randomInt } from 'node:crypto';
import { luhnCheckDigit, maskCardNumber } from '@paygrid/contracts';

/**
 * Card numbers issuing mints: the product's 6-digit BIN, nine random digits and the Luhn check digit (16 digits),
 * a random 3-digit CVV, and an expiry at the end of the month three years on. A card is valid through the end of
 * its expiry month (and, for a one-time card, until its expiry_at).
 */
export const CARD_VALIDITY_YEARS = 3;

export function newPan(bin: string): string {
  const body = `${bin}${Array.from({ length: 9 }, () => randomInt(10)).join('')}`;
  return `${body}${luhnCheckDigit(body)}`;
}

export function newCvv(): string {
  return String(randomInt(1000)).padStart(3, '0');
}

export function expiryFrom(now: Date): { month: number; year: number } {
  return { month: now.getUTCMonth() + 1, year: now.getUTCFullYear() + CARD_VALIDITY_YEARS };
}

/** `MM/YY` (wire-compat §11.8). */
export function formatExpiry(month: number, year: number): string {
  return `${String(month).padStart(2, '0')}/${String(year % 100).padStart(2, '0')}`;
}

export function isExpired(card: { expiryMonth: number; expiryYear: number; expiryAt: Date | null }, now: Date = new Date()): boolean {
  if (card.expiryAt && card.expiryAt.getTime() <= now.getTime()) return true;
  const endOfMonth = Date.UTC(card.expiryYear, card.expiryMonth, 1);
  return now.getTime() >= endOfMonth;
}

export { maskCardNumber };
