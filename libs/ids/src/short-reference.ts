/**
 * Why: accounts carry a `short_reference_id` that people read aloud and type into support forms, where a
 * 36-character id is useless. Format: one upper-case letter then digits, `P220926` by default (letter 'P',
 * six digits, 7 characters); 6 to 9 digits may be asked for. Digits are uniform from node:crypto and may start
 * with 0.
 *
 * Not unique by construction: six digits give 10^6 values, so collisions are expected after about a thousand.
 * Store it under a unique constraint and mint again on a conflict; use more digits where volumes are higher.
 */
import { randomInt } from 'node:crypto';

export interface ShortReferenceOptions {
  letter?: string;
  digits?: number;
}

const LETTER = /^[A-Z]$/;
const MIN_DIGITS = 6;
const MAX_DIGITS = 9;

export function shortReferenceId(options: ShortReferenceOptions = {}): string {
  const { letter = 'P', digits = MIN_DIGITS } = options;
  assertOptions(letter, digits);
  return letter + String(randomInt(0, 10 ** digits)).padStart(digits, '0');
}

/** True for a letter followed by 6-9 digits; with options, only that letter and digit count. */
export function isShortReferenceId(value: unknown, options: ShortReferenceOptions = {}): value is string {
  if (options.letter !== undefined || options.digits !== undefined) {
    assertOptions(options.letter ?? 'P', options.digits ?? MIN_DIGITS);
  }
  if (typeof value !== 'string') return false;
  const letter = options.letter ?? '[A-Z]';
  const digits = options.digits === undefined ? `{${MIN_DIGITS},${MAX_DIGITS}}` : `{${options.digits}}`;
  return new RegExp(`^${letter}[0-9]${digits}$`).test(value);
}

function assertOptions(letter: string, digits: number): void {
  if (!LETTER.test(letter)) throw new RangeError(`letter must be one of A-Z, got ${JSON.stringify(letter)}`);
  if (!Number.isInteger(digits) || digits < MIN_DIGITS || digits > MAX_DIGITS) {
    throw new RangeError(`digits must be an integer from ${MIN_DIGITS} to ${MAX_DIGITS}, got ${digits}`);
  }
}
