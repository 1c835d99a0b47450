import { randomBytes } from 'node:crypto';
import { decodeAes256Key } from '@paygrid/envelope-crypto';
import { DEVELOPMENT_CARD_TRANSPORT_KEY, openCardSecrets, sealCardSecrets } from './transport-seal';

describe('card transport sealing', () => {
  const key = randomBytes(32);

  it('opens with the same key what it sealed, and the sealed text shows neither number nor CVC', () => {
    const sealed = sealCardSecrets({ card_number: '4242424242424242', cvc: '987' }, key);
    expect(sealed).not.toContain('4242424242424242');
    expect(sealed).not.toContain('987');
    expect(openCardSecrets(sealed, key)).toEqual({ card_number: '4242424242424242', cvc: '987' });
  });

  it('refuses another key, an altered text and a foreign format', () => {
    const sealed = sealCardSecrets({ card_number: '4242424242424242', cvc: '987' }, key);
    expect(() => openCardSecrets(sealed, randomBytes(32))).toThrow('could not be opened');
    const parts = sealed.split('.');
    // The ciphertext's first character: its six bits are all data (the last ones may be padding, and "AA" may
    // already be there), so a different character always alters the sealed bytes.
    parts[3] = `${parts[3].startsWith('A') ? 'B' : 'A'}${parts[3].slice(1)}`;
    expect(() => openCardSecrets(parts.join('.'), key)).toThrow('could not be opened');
    expect(() => openCardSecrets('4242424242424242', key)).toThrow('unknown format');
  });

  it('opens what the sealing before libs/envelope-crypto wrote (mixed versions during a rolling deploy)', () => {
    // Sealed by the earlier, standalone implementation under the development transport key.
    const sealedBefore =
      'v1.zhD7dLjdYwMjZwqF.mfgLXOBDK-_IW540WCj45Q.XtoJh_zSDalnG9Kn64f4aquV_Ez7V-oDQrzNznt18_YR4TJhzqAUyz4QA-OQTQ';
    expect(openCardSecrets(sealedBefore, decodeAes256Key(DEVELOPMENT_CARD_TRANSPORT_KEY))).toEqual({
      card_number: '4242424242424242',
      cvc: '123',
    });
  });

  it('reads a base64 32-byte key and refuses anything else', () => {
    expect(decodeAes256Key(DEVELOPMENT_CARD_TRANSPORT_KEY)).toHaveLength(32);
    expect(() => decodeAes256Key('c2hvcnQ=')).toThrow('must be 32 bytes');
  });
});
