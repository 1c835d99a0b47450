import { ApiError } from '@paygrid/platform';
import { decodeAes256Key, DEVELOPMENT_CARD_TRANSPORT_KEY, openCardSecrets } from '@paygrid/card-crypto';
import { CardInput } from '@paygrid/contracts';
import { CardSealer } from './card-sealer';
import { GatewayConfig } from '../../config';
import { escapeHtml } from './hosted-pages.html';

const card = (overrides: Partial<CardInput> = {}): CardInput =>
  Object.assign(new CardInput(), { card_number: '4242 4242 4242 4242', expiry_month: '12', expiry_year: '2030', cvc: '987', ...overrides });

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

  it('seals the card of a body and leaves the rest of it as it was', () => {
    const body = { description: 'order', payment_method: { card: card() } };
    const sealed = sealer.sealed(body);
    expect(sealed.description).toBe('order');
    expect(JSON.stringify(sealed)).not.toContain('4242');
    expect(sealer.sealed({ description: 'no card', payment_method: undefined })).toEqual({ description: 'no card' });
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

describe('hosted page escaping', () => {
  it('escapes every character that could open markup or an attribute', () => {
    expect(escapeHtml(`<script>"x" & 'y'</script>`)).toBe('&#60;script&#62;&#34;x&#34; &#38; &#39;y&#39;&#60;/script&#62;');
  });
});
