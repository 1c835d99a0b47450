import { Inject, Injectable } from '@nestjs/common';
import {
  decodeAes256Key,
  DEVELOPMENT_CARD_TRANSPORT_KEY,
  IssuingSecrets,
  openIssuingSecrets,
  sealIssuingSecrets,
} from '@paygrid/card-crypto';
import { SealedSecureDetails, SecureDetailsView } from '@paygrid/contracts';
import { APP_CONFIG, Errors } from '@paygrid/platform';
import { GatewayConfig } from '../../config';

/**
 * Issuing secrets cross the bus only sealed (architecture rule 7): the card number of an assign or a list
 * filter, a PIN, an activation code go to issuing sealed under CARD_TRANSPORT_KEY, and the sensitive details
 * come back sealed and are opened here, for the one response that shows them.
 */
@Injectable()
export class IssuingSecretsSealer {
  private readonly key: Buffer;

  constructor(@Inject(APP_CONFIG) config: GatewayConfig) {
    if (config.NODE_ENV === 'production' && config.CARD_TRANSPORT_KEY.equals(decodeAes256Key(DEVELOPMENT_CARD_TRANSPORT_KEY))) {
      throw new Error('CARD_TRANSPORT_KEY is the published development key; set a real one in production');
    }
    this.key = config.CARD_TRANSPORT_KEY;
  }

  seal(secrets: IssuingSecrets): string {
    return sealIssuingSecrets(secrets, this.key);
  }

  openSecureDetails(sealed: SealedSecureDetails): SecureDetailsView {
    try {
      const { card_number: cardNumber, cvv } = openIssuingSecrets(sealed.sealed, this.key);
      if (!cardNumber || !cvv) throw new Error('sealed details lack the card number or CVV');
      return { cvv, expire_date: sealed.expire_date, card_number: cardNumber };
    } catch {
      // A key mismatch between gateway and issuing: nothing the merchant can fix, and no detail to leak.
      throw Errors.internal();
    }
  }
}
