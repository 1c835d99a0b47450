/**
 * Card data is radioactive (architecture rule 7): whatever reaches a log line passes through here.
 *
 * Two nets: values under sensitive keys are replaced whole, and any digit run that looks like a card
 * number (13–19 digits, optionally grouped by spaces or dashes, passing Luhn) is masked wherever it
 * appears in free text, such as an error message quoting a request.
 */
const SENSITIVE_KEY =
  /^(card_?number|pan|cvc|cvv|cvc2|cvv2|pin|api_?key|x-api-key|auth_?token|x-auth-token|authorization|password|secret|webhook_secret|signing_secret|client_secret|token|jwt|cookie|set-cookie)$/i;

const CARD_LIKE = /\b\d(?:[ -]?\d){12,18}\b/g;

export const REDACTED = '[REDACTED]';

export function luhnValid(digits: string): boolean {
  let sum = 0;
  let double = false;
  for (let index = digits.length - 1; index >= 0; index -= 1) {
    let digit = digits.charCodeAt(index) - 48;
    if (double) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
    double = !double;
  }
  return sum % 10 === 0;
}

export function scrubText(text: string): string {
  return text.replace(CARD_LIKE, (match) => {
    const digits = match.replace(/[ -]/g, '');
    return luhnValid(digits) ? `${digits.slice(0, 6)}******${digits.slice(-4)}` : match;
  });
}

export function isSensitiveKey(key: string): boolean {
  return SENSITIVE_KEY.test(key);
}

/** Deep copy with sensitive keys replaced and card-like text masked; cycles and depth are bounded. */
export function scrubValue(value: unknown, depth = 0, seen = new WeakSet<object>()): unknown {
  if (typeof value === 'string') return scrubText(value);
  if (typeof value !== 'object' || value === null) return value;
  if (depth > 8 || seen.has(value)) return '[Truncated]';
  seen.add(value);
  if (value instanceof Error) {
    return { type: value.name, message: scrubText(value.message), stack: value.stack && scrubText(value.stack) };
  }
  if (Array.isArray(value)) return value.map((item) => scrubValue(item, depth + 1, seen));
  const copy: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    copy[key] = isSensitiveKey(key) ? REDACTED : scrubValue(item, depth + 1, seen);
  }
  return copy;
}
