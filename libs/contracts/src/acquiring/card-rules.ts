/**
 * Card number rules (decisions §6: a wrong length or a failed Luhn check is a 400 before processing),
 * shared so the gateway refuses a bad number before it is sealed and acquiring re-checks after opening.
 * The number itself never crosses the bus in clear (libs/card-crypto seals it).
 */
export type CardBrand =
  'VISA' | 'MASTERCARD' | 'AMEX' | 'DISCOVER' | 'JCB' | 'UNIONPAY' | 'DINERS' | 'UNKNOWN';

interface BrandRule {
  brand: CardBrand;
  prefix: RegExp;
  lengths: readonly number[];
  cvcLength: number;
}

const BRAND_RULES: readonly BrandRule[] = [
  { brand: 'AMEX', prefix: /^3[47]/, lengths: [15], cvcLength: 4 },
  { brand: 'DINERS', prefix: /^3(0[0-5]|[68])/, lengths: [14, 16], cvcLength: 3 },
  { brand: 'JCB', prefix: /^35(2[89]|[3-8])/, lengths: [16, 17, 18, 19], cvcLength: 3 },
  { brand: 'VISA', prefix: /^4/, lengths: [13, 16, 19], cvcLength: 3 },
  { brand: 'MASTERCARD', prefix: /^(5[1-5]|2(2[2-9]|[3-6]|7[01]|720))/, lengths: [16], cvcLength: 3 },
  { brand: 'DISCOVER', prefix: /^(6011|65|64[4-9])/, lengths: [16, 19], cvcLength: 3 },
  { brand: 'UNIONPAY', prefix: /^62/, lengths: [16, 17, 18, 19], cvcLength: 3 },
];
const UNKNOWN_BRAND: BrandRule = {
  brand: 'UNKNOWN',
  prefix: /^/,
  lengths: [13, 14, 15, 16, 17, 18, 19],
  cvcLength: 3,
};

export type CardNumberProblem = 'not_digits' | 'invalid_length' | 'failed_luhn';

export const CARD_NUMBER_PROBLEMS: Record<CardNumberProblem, string> = {
  not_digits: 'must contain only digits',
  invalid_length: 'has the wrong length for its card brand',
  failed_luhn: 'is not a valid card number (check digit)',
};

/** Spaces and dashes are what shoppers type between groups; anything else is not a card number. */
export function normaliseCardNumber(input: string): string {
  return input.replace(/[ -]/g, '');
}

function brandRuleOf(digits: string): BrandRule {
  return BRAND_RULES.find((rule) => rule.prefix.test(digits)) ?? UNKNOWN_BRAND;
}

export function cardBrandOf(digits: string): CardBrand {
  return brandRuleOf(digits).brand;
}

export function passesLuhn(digits: string): boolean {
  let sum = 0;
  for (let index = 0; index < digits.length; index += 1) {
    let digit = digits.charCodeAt(digits.length - 1 - index) - 48;
    if (index % 2 === 1) digit = digit * 2 > 9 ? digit * 2 - 9 : digit * 2;
    sum += digit;
  }
  return sum % 10 === 0;
}

export function cardNumberProblem(digits: string): CardNumberProblem | undefined {
  if (!/^\d+$/.test(digits)) return 'not_digits';
  if (!brandRuleOf(digits).lengths.includes(digits.length)) return 'invalid_length';
  if (!passesLuhn(digits)) return 'failed_luhn';
  return undefined;
}

export function cvcProblem(digits: string, cvc: string): string | undefined {
  const expected = brandRuleOf(digits).cvcLength;
  return new RegExp(`^\\d{${expected}}$`).test(cvc) ? undefined : `must be ${expected} digits for this card`;
}

/** The only way a card number is ever shown: first 6 + ****** + last 4. */
export function maskCardNumber(digits: string): string {
  return `${digits.slice(0, 6)}******${digits.slice(-4)}`;
}
