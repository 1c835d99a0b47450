import { validatePayload } from '../validation/validate-payload';
import { amountProblem } from '../validation/field-rules';
import {
  CreateIntentPayload,
  CreatePaymentIntentBody,
  HostedThreeDsPayload,
  UpdatePaymentIntentBody,
} from './acquiring.payloads';

/**
 * The acquiring rules as the gateway (HTTP bodies) and the service (command payloads) both apply them:
 * one class each, so these tests hold for both sides.
 */
const intent = (overrides: Record<string, unknown> = {}) => ({
  amount: '10.50',
  currency: 'USD',
  merchant_order_id: 'order-1',
  description: 'Test order',
  return_url: 'https://shop.example/return',
  ...overrides,
});
const sealedCard = (extra: Record<string, unknown> = {}) => ({
  card: { expiry_month: '12', expiry_year: '2030', sealed: 'v1.aaaa.bbbb.cccc', ...extra },
});

function problemsOf<T extends object>(payloadClass: new () => T, payload: unknown): string[] {
  const validated = validatePayload(payloadClass, payload);
  return validated.ok ? [] : validated.problems;
}

describe('cross-field rules of spec 4.1', () => {
  it('wants a state for US and CA billing addresses only', () => {
    const withCountry = (country_code: string, state?: string) =>
      intent({ payment_method: sealedCard({ billing: { address: { country_code, state } } }) });
    expect(problemsOf(CreateIntentPayload, withCountry('US'))).toEqual([
      'payment_method.card.billing.address.state: is required when country_code is US',
    ]);
    expect(problemsOf(CreateIntentPayload, withCountry('CA', 'ON'))).toEqual([]);
    expect(problemsOf(CreateIntentPayload, withCountry('GB'))).toEqual([]);
  });

  it('wants ip_address and browser_info with enforce_3ds', () => {
    const enforce = intent({ payment_method: sealedCard({ three_ds_action: 'enforce_3ds' }) });
    expect(problemsOf(CreateIntentPayload, enforce)).toEqual([
      'ip_address: is required when payment_method.card.three_ds_action is enforce_3ds',
      'browser_info: is required when payment_method.card.three_ds_action is enforce_3ds',
    ]);
    expect(
      problemsOf(CreateIntentPayload, { ...enforce, ip_address: '203.0.113.1', browser_info: {} }),
    ).toEqual([]);
  });

  it('measures metadata in UTF-8 bytes of its JSON, at most 512', () => {
    expect(problemsOf(CreateIntentPayload, intent({ metadata: { note: 'a'.repeat(490) } }))).toEqual([]);
    expect(problemsOf(CreateIntentPayload, intent({ metadata: { note: 'é'.repeat(251) } }))).toEqual([
      'metadata: must be at most 512 bytes as JSON',
    ]);
  });
});

describe('amounts', () => {
  it.each([
    ['10.001', 'USD', 'amount: at most 2 decimal places for USD'],
    ['1.5', 'JPY', 'amount: no decimal places allowed for JPY'],
    ['0', 'USD', 'amount: must be greater than 0'],
    ['0.00', 'USD', 'amount: must be greater than 0'],
    ['-1', 'USD', 'amount: must not have a sign'],
    ['1e3', 'USD', 'amount: must not use exponent notation'],
  ])('refuses %s %s with a message naming the field', (amount, currency, message) => {
    expect(problemsOf(CreateIntentPayload, intent({ amount, currency }))).toEqual([message]);
    expect(problemsOf(CreatePaymentIntentBody, intent({ amount, currency }))).toEqual([message]);
  });

  it('applies the currency exponent and the > 0 rule', () => {
    expect(problemsOf(CreatePaymentIntentBody, intent({ amount: '10.50', currency: 'USD' }))).toEqual([]);
    expect(problemsOf(CreatePaymentIntentBody, intent({ amount: '1000', currency: 'JPY' }))).toEqual([]);
    expect(problemsOf(CreatePaymentIntentBody, intent({ amount: '1.234', currency: 'KWD' }))).toEqual([]);
    expect(problemsOf(CreatePaymentIntentBody, intent({ amount: '1', currency: 'ZZZ' }))).toEqual([
      'currency: is not a supported currency',
    ]);
  });

  it('takes three-letter ISO 4217 currencies only: XUSD is an issuing card currency (spec 2.1, 2.8)', () => {
    expect(problemsOf(CreatePaymentIntentBody, intent({ currency: 'XUSD' }))).toEqual([
      'currency: must be a three-letter currency code',
    ]);
    expect(problemsOf(UpdatePaymentIntentBody, { currency: 'XUSD', amount: '1.001' })).toEqual([
      'currency: must be a three-letter currency code',
    ]);
  });

  it('reads a new amount of an update in the new currency, or only its form when the currency is the stored one', () => {
    expect(problemsOf(UpdatePaymentIntentBody, { amount: '10.5', currency: 'JPY' })).toEqual([
      'amount: no decimal places allowed for JPY',
    ]);
    expect(problemsOf(UpdatePaymentIntentBody, { amount: '10.5' })).toEqual([]);
    expect(problemsOf(UpdatePaymentIntentBody, { amount: 'ten' })).toEqual([
      'amount: must be a decimal string such as "10.50"',
    ]);
  });

  it('tells a service that learns the currency later the same reasons', () => {
    expect(amountProblem('10.001', 'USD')).toBe('at most 2 decimal places for USD');
    expect(amountProblem('40.00', 'USD')).toBeUndefined();
  });

  it('collects every problem of a payload, quoting no value', () => {
    const problems = problemsOf(CreateIntentPayload, {
      amount: '4242424242424242.123',
      currency: 'XYZ',
      description: 7,
      return_url: 'https://shop.example/return',
    });
    // The service's dispatcher answers these, joined, as one invalid_request_error (libs/platform).
    expect(problems.join('; ')).toBe(
      'currency: is not a supported currency; description: must be a string; merchant_order_id: is required',
    );
    expect(problems.join('; ')).not.toContain('4242');
  });
});

describe('hosted pages', () => {
  it('takes only approve or fail as the challenge outcome', () => {
    expect(problemsOf(HostedThreeDsPayload, { client_secret: 'pi_1_secret_x', outcome: 'maybe' })).toEqual([
      'outcome: must be approve or fail',
    ]);
  });
});
