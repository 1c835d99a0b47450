import {
  BalanceCurrencyPayload,
  BankAccountFields,
  CreatePayoutPayload,
  ListPayoutsPayload,
  UpdateBankAccountBody,
  requiredBankCodeType,
} from './payouts';
import { validatePayload } from './validation/validate-payload';

const usAccount = {
  currency: 'USD',
  account_number: '000123456789',
  bank_name: 'Sandbox Bank',
  swift_code: 'CHASUS33',
  bank_country_code: 'US',
  bank_address: '1 Main Street, New York',
  bank_code_type: 'aba',
  bank_code_value: '021000021',
};

function problemsOf<T extends object>(dto: new () => T, payload: object): string[] {
  const result = validatePayload(dto, payload);
  return result.ok ? [] : result.problems;
}

describe('settlement bank account rules (spec 4.3 and 8)', () => {
  it('accepts a US dollar account with its ABA routing number', () => {
    expect(problemsOf(BankAccountFields, usAccount)).toEqual([]);
  });

  it.each([
    ['USD', 'US', 'aba'],
    ['CAD', 'CA', 'bank_code'],
    ['HKD', 'HK', 'bank_code'],
    ['GBP', 'GB', 'sort_code'],
    ['AUD', 'AU', 'bsb_code'],
    ['INR', 'IN', 'ifsc'],
    ['CNH', 'CN', 'cnaps_number'],
  ])('requires a bank code type for %s in %s (%s)', (currency, country, type) => {
    expect(requiredBankCodeType(currency, country)).toBe(type);
    const { bank_code_type: _type, bank_code_value: _value, ...rest } = usAccount;
    const problems = problemsOf(BankAccountFields, { ...rest, currency, bank_country_code: country, bank_branch_code: '00011' });
    expect(problems).toEqual([expect.stringMatching(/^bank_code_type: is required for this currency and bank country/)]);
  });

  it('requires no bank code for a USD account outside the US or a CNH account outside CN', () => {
    expect(requiredBankCodeType('USD', 'SG')).toBeUndefined();
    expect(requiredBankCodeType('CNH', 'HK')).toBeUndefined();
    const { bank_code_type: _type, bank_code_value: _value, ...rest } = usAccount;
    expect(problemsOf(BankAccountFields, { ...rest, bank_country_code: 'SG' })).toEqual([]);
  });

  it('refuses a bank code type other than the one the currency calls for', () => {
    expect(problemsOf(BankAccountFields, { ...usAccount, bank_code_type: 'sort_code', bank_code_value: '123456' })).toEqual([
      'bank_code_type: must be aba for USD accounts in US',
    ]);
  });

  it.each([
    ['aba', '02100002', 'exactly 9 digits'],
    ['aba', '02100002A', 'exactly 9 digits'],
    ['bank_code', '0012', 'exactly 3 digits'],
    ['sort_code', '12-34-56', 'exactly 6 digits'],
    ['bsb_code', '12345', 'exactly 6 digits'],
    ['ifsc', 'HDFC1000123', 'the digit 0'],
    ['ifsc', 'hdfc0000123', 'the digit 0'],
    ['cnaps_number', '10210000001', 'exactly 12 digits'],
  ])('refuses %s value %s in the wrong format', (type, value, rule) => {
    const currency = { aba: 'USD', bank_code: 'HKD', sort_code: 'GBP', bsb_code: 'AUD', ifsc: 'INR', cnaps_number: 'CNH' }[type];
    const country = { aba: 'US', bank_code: 'HK', sort_code: 'GB', bsb_code: 'AU', ifsc: 'IN', cnaps_number: 'CN' }[type];
    const problems = problemsOf(BankAccountFields, { ...usAccount, currency, bank_country_code: country, bank_code_type: type, bank_code_value: value });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(new RegExp(`^bank_code_value: must be .*${rule}.* for bank_code_type ${type}$`));
  });

  it('accepts each bank code type in its exact format', () => {
    const valid = [
      ['CAD', 'CA', 'bank_code', '001'],
      ['GBP', 'GB', 'sort_code', '401276'],
      ['AUD', 'AU', 'bsb_code', '062000'],
      ['INR', 'IN', 'ifsc', 'HDFC0000123'],
      ['CNH', 'CN', 'cnaps_number', '102100099996'],
    ];
    for (const [currency, country, type, value] of valid) {
      const body = { ...usAccount, currency, bank_country_code: country, bank_code_type: type, bank_code_value: value, bank_branch_code: '00011' };
      expect(problemsOf(BankAccountFields, body)).toEqual([]);
    }
  });

  it('requires bank_branch_code for CAD only', () => {
    const cad = { ...usAccount, currency: 'CAD', bank_country_code: 'CA', bank_code_type: 'bank_code', bank_code_value: '001' };
    expect(problemsOf(BankAccountFields, cad)).toEqual(['bank_branch_code: is required for CAD accounts']);
    expect(problemsOf(BankAccountFields, { ...cad, bank_branch_code: '00011' })).toEqual([]);
  });

  it('requires bank_code_type when a bank_code_value is given', () => {
    const { bank_code_type: _type, ...rest } = usAccount;
    expect(problemsOf(BankAccountFields, { ...rest, bank_country_code: 'SG' })).toEqual([
      expect.stringMatching(/^bank_code_type: is required/),
    ]);
  });

  it.each([
    [{ account_number: '1234' }, 'account_number: must be longer than or equal to 5 characters'],
    [{ account_number: '1'.repeat(61) }, 'account_number: must be shorter than or equal to 60 characters'],
    [{ account_number: 'GB29 NWBK 6016' }, 'account_number: must contain only letters and digits'],
    [{ swift_code: 'CHASUS3' }, 'swift_code: must be longer than or equal to 8 characters'],
    [{ swift_code: 'CHASUS33XXXX' }, 'swift_code: must be shorter than or equal to 11 characters'],
    [{ swift_code: 'CHASUS33X' }, 'swift_code: must be a SWIFT/BIC code'],
    [{ bank_country_code: 'USA' }, 'bank_country_code: must be an ISO 3166-1 alpha-2 country code'],
    [{ currency: 'usd' }, 'currency: must be a three-letter currency code'],
    [{ currency: 'XUSD' }, 'currency: must be a three-letter currency code'],
  ])('names the field that breaks a rule: %j', (override, problem) => {
    const problems = problemsOf(BankAccountFields, { ...usAccount, ...override });
    expect(problems[0]).toContain(problem);
  });

  it('names every missing required field and refuses unknown ones', () => {
    const problems = problemsOf(BankAccountFields, { currency: 'EUR', nickname: 'x' });
    expect(problems.sort()).toEqual([
      'account_number: is required',
      'bank_address: is required',
      'bank_country_code: is required',
      'bank_name: is required',
      'nickname: is not an accepted field',
      'swift_code: is required',
    ]);
  });

  it('checks only the formats in an update body, which has no currency', () => {
    const { currency: _currency, bank_code_type: _type, bank_code_value: _value, ...update } = usAccount;
    expect(problemsOf(UpdateBankAccountBody, update)).toEqual([]);
    expect(problemsOf(UpdateBankAccountBody, { ...update, currency: 'USD' })).toContain('currency: is not an accepted field');
  });
});

describe('payout rules (spec 4.4)', () => {
  const payout = { payout_currency: 'USD', payout_amount: '10.50', statement_descriptor: 'ACME PAYOUT' };

  it('accepts a payout to the bank account and an internal transfer by long or short id', () => {
    expect(problemsOf(CreatePayoutPayload, payout)).toEqual([]);
    expect(problemsOf(CreatePayoutPayload, { ...payout, payout_account_id: '5a0d0b0c-0000-4000-8000-000000000001' })).toEqual([]);
    expect(problemsOf(CreatePayoutPayload, { ...payout, payout_account_id: 'P000000001', internal_note: 'weekly' })).toEqual([]);
  });

  it.each([
    [{ payout_amount: '0' }, 'payout_amount: must be greater than 0'],
    [{ payout_amount: '10.505' }, 'payout_amount: has too many decimal places: at most 2 decimal places for USD'],
    [{ payout_amount: '10', payout_currency: 'JPY' }, undefined],
    [{ payout_amount: '10.5', payout_currency: 'JPY' }, 'payout_amount: has too many decimal places'],
    [{ payout_amount: 10.5 }, 'payout_amount: must be a decimal string'],
    [{ payout_amount: '-1' }, 'payout_amount: must be a decimal string'],
    [{ payout_amount: '1e3' }, 'payout_amount: must be a decimal string'],
    [{ payout_currency: 'XYZ' }, 'payout_currency: is not a supported currency'],
    [{ payout_currency: 'XUSD' }, 'payout_currency: must be a three-letter currency code'],
    [{ statement_descriptor: 'x'.repeat(16) }, 'statement_descriptor: must be shorter than or equal to 15 characters'],
    [{ statement_descriptor: '' }, 'statement_descriptor: must be longer than or equal to 1 characters'],
    [{ payout_account_id: 'acct_1' }, 'payout_account_id: must be an account id (uuid) or a short reference id'],
    [{ bank_account_id: 'x' }, 'bank_account_id: is not an accepted field'],
  ])('refuses %j naming the field', (override, problem) => {
    const problems = problemsOf(CreatePayoutPayload, { ...payout, ...override });
    if (problem === undefined) expect(problems).toEqual([]);
    else expect(problems.join('; ')).toContain(problem);
  });

  it('reports an invalid currency once, not again on the amount', () => {
    expect(problemsOf(CreatePayoutPayload, { ...payout, payout_currency: 'usd', payout_amount: '1.999' })).toEqual([
      expect.stringMatching(/^payout_currency: /),
    ]);
  });

  it('pages payout lists within 10 to 100 and filters by status and time', () => {
    expect(problemsOf(ListPayoutsPayload, { page_size: 10, page_number: 1, payout_status: 'COMPLETED', start_time: '2026-01-01T00:00:00Z' })).toEqual([]);
    expect(problemsOf(ListPayoutsPayload, { page_size: 9 })).toEqual(['page_size: must not be less than 10']);
    expect(problemsOf(ListPayoutsPayload, { payout_status: 'SUCCEEDED' })[0]).toMatch(/^payout_status: must be one of INITIATED/);
    expect(problemsOf(ListPayoutsPayload, { start_time: 'yesterday' })).toEqual(['start_time: must be an ISO 8601 timestamp']);
  });

  it('answers balances only for supported currency codes', () => {
    expect(problemsOf(BalanceCurrencyPayload, { currency: 'SGD' })).toEqual([]);
    expect(problemsOf(BalanceCurrencyPayload, { currency: 'SG' })).toEqual(['currency: must be a three-letter currency code']);
  });
});
