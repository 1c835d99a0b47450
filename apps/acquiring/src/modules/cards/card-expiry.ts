/**
 * Card expiry rules. The number rules (brand, length, Luhn, CVC length, masking) are shared with the
 * gateway in libs/contracts; a card is valid through the end of its expiry month.
 */

/** `expiry_year` as 4 digits ("2030") or 2 ("30"). */
export function fullExpiryYear(year: string): number {
  const value = Number(year);
  return year.length === 2 ? 2000 + value : value;
}

export function isExpired(month: string, year: string, now: Date = new Date()): boolean {
  const fullYear = fullExpiryYear(year);
  const monthIndex = Number(month);
  const currentYear = now.getUTCFullYear();
  const currentMonth = now.getUTCMonth() + 1;
  return fullYear < currentYear || (fullYear === currentYear && monthIndex < currentMonth);
}
