import { ApiError } from '@paygrid/platform';
import { PRODUCT_CATALOGUE } from '../catalogue/catalogue.defaults';
import { Product } from '../catalogue/product.types';
import { decideCreate, decideNoPinAmount, decideUpdate, sandboxFails, updateReasonTooLong } from './card.rules';
import { Card } from './card.types';

const product = (key: string): Product => {
  const definition = PRODUCT_CATALOGUE.find((item) => item.catalogueKey === key);
  if (!definition) throw new Error(key);
  return { ...definition, productId: 'p', accountId: 'a', createdAt: new Date(), updatedAt: new Date() };
};
const share = product('standard-share');
const single = product('premium-single');
const refusal = (value: unknown) => (value instanceof ApiError ? (value.body as { code: string | number; message: string }) : undefined);
const base = { card_currency: 'USD' as const, card_product_id: 'p', cardholder_id: 'h' };
const card = (overrides: Partial<Card> = {}): Card =>
  ({ modeType: 'SHARE', usageType: 'NORMAL', currency: 'USD', cardLimitMinor: 0n, spendingControls: [], ...overrides }) as Card;

describe('card create rules', () => {
  const now = new Date('2026-06-01T00:00:00Z');

  it('issues a virtual card with no limit by default', () => {
    expect(decideCreate(share, base, now)).toEqual({ formFactor: 'VIRTUAL', cardLimitMinor: 0n, autoCancelTrigger: null, expiryAt: null });
  });

  it('refuses what the product does not allow', () => {
    expect(refusal(decideCreate({ ...share, productStatus: 'DISABLED' }, base, now))?.code).toBe('product_not_found');
    expect(refusal(decideCreate(product('limited-share'), { ...base, card_currency: 'SGD' }, now))?.code).toBe('currency_not_allowed');
    expect(refusal(decideCreate(product('limited-share'), { ...base, card_type: 'PHYSICAL' }, now))?.code).toBe('operation_not_authorized');
    expect(refusal(decideCreate(single, { ...base, card_limit: 10, risk_controls: { allow_atm: true } }, now))?.code).toBe('risk_control_not_allowed');
  });

  it('needs card_limit on the BINs that require it, within the product maximum', () => {
    expect(refusal(decideCreate(single, base, now))?.code).toBe('limit_out_of_range');
    expect(refusal(decideCreate(single, { ...base, card_limit: 0 }, now))?.code).toBe('limit_out_of_range');
    expect(decideCreate(single, { ...base, card_limit: 0.01 }, now)).toMatchObject({ cardLimitMinor: 1n });
    expect(refusal(decideCreate(share, { ...base, card_limit: 1_000_000.01 }, now))?.code).toBe('limit_out_of_range');
  });

  it('applies the one-time card rules', () => {
    const oneTime = { ...base, usage_type: 'ONE_TIME' as const };
    expect(refusal(decideCreate(share, oneTime, now))?.code).toBe('auto_cancel_trigger cannot be empty');
    expect(refusal(decideCreate(share, { ...oneTime, auto_cancel_trigger: 'ON_SETTLE' }, now))?.code).toBe('invalid auto_cancel_trigger');
    expect(refusal(decideCreate(single, { ...oneTime, card_limit: 5, auto_cancel_trigger: 'ON_AUTH' }, now))?.code).toBe('expiry_at cannot be empty');
    for (const expiry of ['2026-07-01', '2026-05-01T00:00:00Z', '2027-07-01T00:00:00+08:00']) {
      expect(refusal(decideCreate(share, { ...oneTime, auto_cancel_trigger: 'ON_AUTH', expiry_at: expiry }, now))?.code).toBe('invalid expiry_at');
    }
    expect(decideCreate(share, { ...oneTime, auto_cancel_trigger: 'ON_CAPTURE', expiry_at: '2026-06-30T12:00:00+08:00' }, now)).toMatchObject({
      autoCancelTrigger: 'ON_CAPTURE',
      expiryAt: new Date('2026-06-30T04:00:00Z'),
    });
  });
});

describe('card update rules', () => {
  it('refuses one-time cards and limit changes on single cards', () => {
    expect(refusal(decideUpdate(card({ usageType: 'ONE_TIME' }), share, { card_limit: 10 }, 0n))?.message).toBe(
      'This operation cannot be performed on One-Time Card.',
    );
    expect(refusal(decideUpdate(card({ modeType: 'SINGLE' }), single, { card_limit: 10 }, 0n))?.message).toBe(
      'The single card not support changing card limits',
    );
  });

  it('keeps the limit positive, above what was used and above the per-transaction control', () => {
    expect(refusal(decideUpdate(card(), share, { card_limit: 0 }, 0n))?.message).toBe('Failed Update. Card Limit should be greater than 0');
    expect(refusal(decideUpdate(card(), share, { card_limit: 5 }, 600n))?.message).toBe('Update card limit is less than the amount of used card');
    expect(
      refusal(decideUpdate(card(), share, { card_limit: 50, spending_controls: [{ interval: 'PER_TRANSACTION', amount: 60 }] }, 0n))?.message,
    ).toBe('Failed Update. Card Limit should be greater than Per transaction');
    expect(decideUpdate(card(), share, { card_limit: 100 }, 0n)).toEqual({ cardLimitMinor: 10_000n });
  });

  it('checks no-PIN amounts against the product ceiling', () => {
    expect(refusal(decideNoPinAmount(share, 'USD', -1))?.message).toBe('Negative no pin payment amount.');
    expect(refusal(decideNoPinAmount(share, 'USD', 1.005))?.message).toBe('Invalid no pin payment amount precision.');
    expect(refusal(decideNoPinAmount(share, 'USD', 300.01))?.message).toBe('invalid no pin payment amount for the current currency.');
    expect(refusal(decideNoPinAmount(share, 'XUSD', 1))?.message).toBe('The no_pin_payment_amount restrict configuration cannot be found');
    expect(decideNoPinAmount(share, 'USD', 300)).toBe(30_000n);
  });
});

describe('small rules', () => {
  it('weighs CJK characters twice in update reasons', () => {
    expect(updateReasonTooLong('x'.repeat(100))).toBe(false);
    expect(updateReasonTooLong('x'.repeat(101))).toBe(true);
    expect(updateReasonTooLong('丢'.repeat(50))).toBe(false);
    expect(updateReasonTooLong('丢'.repeat(51))).toBe(true);
  });

  it('fails sandbox orders whose cents are 13', () => {
    expect(sandboxFails(1013n)).toBe(true);
    expect(sandboxFails(1012n)).toBe(false);
    expect(sandboxFails(13n)).toBe(true);
  });
});
