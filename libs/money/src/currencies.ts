/**
 * Why: the number of minor-unit digits decides how a wire amount maps to the integer we store, so there must be
 * exactly one table of it. Guarantees: every supported code has an exponent of 0, 2 or 3 (ISO 4217 minor units);
 * codes are matched exactly (upper case, no trimming), so "usd" is unsupported rather than silently accepted.
 *
 * Left out on purpose: ISO fund and unit-of-account codes (BOV, CHE, CHW, CLF, COU, MXV, USN, UYI, UYW, XDR),
 * metals (XAU, XAG, XPD, XPT) and withdrawn codes (HRK, CUC, SLL, ZWL), which a payments platform never settles.
 * Two non-ISO codes are in: CNH (offshore yuan, quoted like CNY) and XUSD (the issuing spec's USD-like card
 * currency), both with exponent 2.
 */

export type CurrencyExponent = 0 | 2 | 3;

// prettier-ignore
const ZERO_DECIMAL = [
  'BIF', 'CLP', 'DJF', 'GNF', 'ISK', 'JPY', 'KMF', 'KRW', 'PYG', 'RWF', 'UGX', 'VND', 'VUV', 'XAF', 'XOF', 'XPF',
] as const;

// prettier-ignore
const THREE_DECIMAL = ['BHD', 'IQD', 'JOD', 'KWD', 'LYD', 'OMR', 'TND'] as const;

// prettier-ignore
const TWO_DECIMAL = [
  'AED', 'AFN', 'ALL', 'AMD', 'ANG', 'AOA', 'ARS', 'AUD', 'AWG', 'AZN', 'BAM', 'BBD', 'BDT', 'BGN', 'BMD', 'BND',
  'BOB', 'BRL', 'BSD', 'BTN', 'BWP', 'BYN', 'BZD', 'CAD', 'CDF', 'CHF', 'CNH', 'CNY', 'COP', 'CRC', 'CUP', 'CVE',
  'CZK', 'DKK', 'DOP', 'DZD', 'EGP', 'ERN', 'ETB', 'EUR', 'FJD', 'FKP', 'GBP', 'GEL', 'GHS', 'GIP', 'GMD', 'GTQ',
  'GYD', 'HKD', 'HNL', 'HTG', 'HUF', 'IDR', 'ILS', 'INR', 'IRR', 'JMD', 'KES', 'KGS', 'KHR', 'KPW', 'KYD', 'KZT',
  'LAK', 'LBP', 'LKR', 'LRD', 'LSL', 'MAD', 'MDL', 'MGA', 'MKD', 'MMK', 'MNT', 'MOP', 'MRU', 'MUR', 'MVR', 'MWK',
  'MXN', 'MYR', 'MZN', 'NAD', 'NGN', 'NIO', 'NOK', 'NPR', 'NZD', 'PAB', 'PEN', 'PGK', 'PHP', 'PKR', 'PLN', 'QAR',
  'RON', 'RSD', 'RUB', 'SAR', 'SBD', 'SCR', 'SDG', 'SEK', 'SGD', 'SHP', 'SLE', 'SOS', 'SRD', 'SSP', 'STN', 'SVC',
  'SYP', 'SZL', 'THB', 'TJS', 'TMT', 'TOP', 'TRY', 'TTD', 'TWD', 'TZS', 'UAH', 'USD', 'UYU', 'UZS', 'VED', 'VES',
  'WST', 'XCD', 'XCG', 'XUSD', 'YER', 'ZAR', 'ZMW', 'ZWG',
] as const;

export type CurrencyCode =
  (typeof ZERO_DECIMAL)[number] | (typeof TWO_DECIMAL)[number] | (typeof THREE_DECIMAL)[number];

function table(): Readonly<Record<CurrencyCode, CurrencyExponent>> {
  const entries: [CurrencyCode, CurrencyExponent][] = [
    ...ZERO_DECIMAL.map((code): [CurrencyCode, CurrencyExponent] => [code, 0]),
    ...TWO_DECIMAL.map((code): [CurrencyCode, CurrencyExponent] => [code, 2]),
    ...THREE_DECIMAL.map((code): [CurrencyCode, CurrencyExponent] => [code, 3]),
  ];
  return Object.freeze(Object.fromEntries(entries) as Record<CurrencyCode, CurrencyExponent>);
}

/** Minor-unit exponent per supported currency (JPY 0, USD 2, KWD 3). */
export const CURRENCY_EXPONENTS: Readonly<Record<CurrencyCode, CurrencyExponent>> = table();

export const SUPPORTED_CURRENCIES: readonly CurrencyCode[] = Object.freeze(
  (Object.keys(CURRENCY_EXPONENTS) as CurrencyCode[]).sort(),
);

export function isSupportedCurrency(code: unknown): code is CurrencyCode {
  // Object.hasOwn, not `in`: "constructor" or "__proto__" must not pass as currencies.
  return typeof code === 'string' && Object.hasOwn(CURRENCY_EXPONENTS, code);
}
