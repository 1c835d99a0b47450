import { ApiError } from '@paygrid/platform';
import { decodeAes256Key, DEVELOPMENT_CARD_TRANSPORT_KEY, openCardSecrets } from '@paygrid/contracts';
import { CardSealer } from './card-sealer';
import { GatewayConfig } from '../../config';
import { CardDto } from './dto/acquiring.dto';
import { checkAmount } from './acquiring-payloads';
import { escapeHtml } from './hosted-pages.html';

const card = (overrides: Partial<CardDto> = {}): CardDto =>
  Object.assign(new CardDto(), { card_number: '4242 4242 4242 4242', expiry_month: '12', expiry_year: '2030', cvc: '987', ...overrides });

function refusal(work: () => unknown): ApiError {
  try {
    work();
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('the gateway card sealer', () => {
  const sealer = new CardSealer({
    NODE_ENV: 'test',
    CARD_TRANSPORT_KEY: decodeAes256Key(DEVELOPMENT_CARD_TRANSPORT_KEY),
  } as GatewayConfig);

  it('sends the card with number and CVC sealed: the command text holds neither', () => {
    const sealed = sealer.seal(card({ card_name: 'Ada' }));
    const text = JSON.stringify(sealed);
    expect(text).not.toContain('4242424242424242');
    expect(text).not.toContain('4242 4242');
    expect(text).not.toContain('987');
    expect(sealed).toMatchObject({ card_name: 'Ada', expiry_month: '12', expiry_year: '2030' });
    expect(openCardSecrets(sealed.sealed, decodeAes256Key(DEVELOPMENT_CARD_TRANSPORT_KEY))).toEqual({
      card_number: '4242424242424242',
      cvc: '987',
    });
  });

  it('refuses a number failing Luhn and a CVC of the wrong length as card errors, without echoing them', () => {
    const luhn = refusal(() => sealer.seal(card({ card_number: '4242424242424241' })));
    expect(luhn.body).toEqual({
      type: 'card_error',
      code: 'invalid_number',
      message: 'payment_method.card.card_number: is not a valid card number (check digit)',
    });
    expect(refusal(() => sealer.seal(card({ card_number: '378282246310005', cvc: '123' }))).body).toMatchObject({ code: 'invalid_cvc' });
  });
});

describe('gateway amount checks', () => {
  it('applies the currency exponent and the > 0 rule', () => {
    expect(() => checkAmount('amount', '10.50', 'USD')).not.toThrow();
    expect(refusal(() => checkAmount('amount', '10.5', 'JPY')).message).toBe('amount: no decimal places allowed for JPY');
    expect(refusal(() => checkAmount('amount', '0.00', 'USD')).message).toBe('amount: must be greater than 0');
    expect(refusal(() => checkAmount('amount', '1', 'ZZZ')).message).toBe('currency: is not a supported currency');
  });
});

describe('hosted page escaping', () => {
  it('escapes every character that could open markup or an attribute', () => {
    expect(escapeHtml(`<script>"x" & 'y'</script>`)).toBe('&#60;script&#62;&#34;x&#34; &#38; &#39;y&#39;&#60;/script&#62;');
  });
});
