import {
  CardAmountBody,
  CreateCardholderPayload,
  CreateCardPayload,
  passesLuhn,
  sandboxPoolCard,
  SANDBOX_POOL_BIN,
  UpdateCardBody,
  UpdateCardStatusBody,
  validatePayload,
} from './index';

const cardholder = {
  email: 'ada@example.com',
  first_name: 'Ada',
  last_name: 'Lovelace',
  country_code: 'SG',
  phone_number: '+6581234567',
};

describe('issuing payload rules', () => {
  it.each([10, 10.5, 0.01, 99999.99])('accepts the amount %p', (amount) => {
    expect(validatePayload(CardAmountBody, { amount })).toMatchObject({ ok: true });
  });

  it.each([
    [0, 'amount: must be greater than 0'],
    [-1, 'amount: must not be negative'],
    [1.005, 'amount: at most 2 decimal places'],
    ['10', 'amount: must be a number in major units, e.g. 10.5'],
  ])('refuses the amount %p', (amount, problem) => {
    expect(validatePayload(CardAmountBody, { amount })).toEqual({ ok: false, problems: [problem] });
  });

  it('accepts a zero card_limit but not three decimals', () => {
    expect(validatePayload(UpdateCardBody, { card_limit: 0 })).toMatchObject({ ok: true });
    expect(validatePayload(UpdateCardBody, { card_limit: 0.001 })).toMatchObject({ ok: false });
  });

  it('takes metadata only as a flat map of strings', () => {
    expect(validatePayload(UpdateCardBody, { metadata: { team: 'ops' } })).toMatchObject({ ok: true });
    for (const metadata of [{ nested: { a: 'b' } }, { count: 1 }, ['a'], { big: 'x'.repeat(600) }]) {
      expect(validatePayload(UpdateCardBody, { metadata })).toMatchObject({ ok: false });
    }
  });

  it('validates a card create body and refuses unknown fields', () => {
    const body = { card_currency: 'USD', card_product_id: '3f0c1a8e-2b4d-4c6e-8f10-123456789abc', cardholder_id: '3f0c1a8e-2b4d-4c6e-8f10-123456789abd' };
    expect(validatePayload(CreateCardPayload, body)).toMatchObject({ ok: true });
    expect(validatePayload(CreateCardPayload, { ...body, card_currency: 'EUR' })).toMatchObject({ ok: false });
    expect(validatePayload(CreateCardPayload, { ...body, surprise: 1 })).toEqual({
      ok: false,
      problems: ['surprise: is not an accepted field'],
    });
    expect(
      validatePayload(CreateCardPayload, { ...body, spending_controls: [{ interval: 'DAILY', amount: 100, categories: ['5411'] }] }),
    ).toMatchObject({ ok: true });
    expect(validatePayload(CreateCardPayload, { ...body, spending_controls: [{ interval: 'HOURLY' }] })).toMatchObject({ ok: false });
  });

  it('requires the cardholder basics and checks nested addresses', () => {
    expect(validatePayload(CreateCardholderPayload, cardholder)).toMatchObject({ ok: true });
    const { email: _email, ...withoutEmail } = cardholder;
    expect(validatePayload(CreateCardholderPayload, withoutEmail)).toEqual({ ok: false, problems: ['email: is required'] });
    expect(
      validatePayload(CreateCardholderPayload, { ...cardholder, residential_address: { country: 'XX', city: 'Singapore', line1: '1 Road' } }),
    ).toMatchObject({ ok: false });
  });
});

describe('sandbox pool cards', () => {
  it('are valid 16-digit numbers on the pool BIN, distinct per slot and sequence', () => {
    const numbers = new Set<string>();
    for (const slot of [1, 2, 3]) {
      for (let sequence = 0; sequence < 10; sequence += 1) {
        const card = sandboxPoolCard(slot, sequence);
        expect(card.card_number).toHaveLength(16);
        expect(card.card_number.startsWith(SANDBOX_POOL_BIN)).toBe(true);
        expect(passesLuhn(card.card_number)).toBe(true);
        expect(card.activation_code).toBe(card.card_number.slice(6, 12));
        numbers.add(card.card_number);
      }
    }
    expect(numbers.size).toBe(30);
  });
});

describe('text Postgres cannot store', () => {
  it('is refused in cardholder fields, metadata and update reasons', () => {
    const base = { email: 'ada@example.com', first_name: 'Ada', last_name: 'Lovelace', country_code: 'SG', phone_number: '+6581234567' };
    expect(validatePayload(CreateCardholderPayload, { ...base, delivery_address: { line1: 'a\u0000b' } })).toMatchObject({ ok: false });
    expect(validatePayload(UpdateCardBody, { metadata: { note: 'a\u0000' } })).toMatchObject({ ok: false });
    expect(validatePayload(UpdateCardStatusBody, { card_status: 'FROZEN', update_reason: '\u0000' })).toMatchObject({ ok: false });
  });
});
