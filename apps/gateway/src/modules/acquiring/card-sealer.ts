import { Inject, Injectable } from '@nestjs/common';
import { decodeAes256Key, DEVELOPMENT_CARD_TRANSPORT_KEY, sealCardSecrets } from '@paygrid/card-crypto';
import {
  CARD_NUMBER_PROBLEMS,
  CardInput,
  cardNumberProblem,
  cvcProblem,
  normaliseCardNumber,
  PaymentMethodInput,
  SealedCard,
  SealedPaymentMethod,
} from '@paygrid/contracts';
import { APP_CONFIG, envelopeA } from '@paygrid/platform';
import { GatewayConfig } from '../../config';

/**
 * Card data leaves the gateway only sealed (architecture rule 7): the number and CVC are checked here
 * (length, Luhn, CVC length: a 400 card_error before anything is sent) and then encrypted with
 * AES-256-GCM under CARD_TRANSPORT_KEY (libs/card-crypto), a key only the gateway and acquiring hold, so
 * no Kafka message carries them in clear. The rest of the card (name, expiry, billing, options) travels
 * as is. A production gateway refuses the published development key.
 */
type WithCard = { payment_method?: PaymentMethodInput };
/** A body with its card sealed: the payload of the route's command. */
export type Sealed<B extends WithCard> = Omit<B, 'payment_method'> &
  (B extends { payment_method: PaymentMethodInput } ? { payment_method: SealedPaymentMethod } : { payment_method?: SealedPaymentMethod });

@Injectable()
export class CardSealer {
  private readonly key: Buffer;

  constructor(@Inject(APP_CONFIG) config: GatewayConfig) {
    if (config.NODE_ENV === 'production' && config.CARD_TRANSPORT_KEY.equals(decodeAes256Key(DEVELOPMENT_CARD_TRANSPORT_KEY))) {
      throw new Error('CARD_TRANSPORT_KEY is the published development key; set a real one in production');
    }
    this.key = config.CARD_TRANSPORT_KEY;
  }

  /** The command form of a card: checked, then number and CVC sealed. */
  seal(card: CardInput, path = 'payment_method.card'): SealedCard {
    const { card_number: rawNumber, cvc, ...rest } = card;
    const number = normaliseCardNumber(rawNumber);
    const problem = cardNumberProblem(number);
    if (problem) throw envelopeA('card_error', 'invalid_number', `${path}.card_number: ${CARD_NUMBER_PROBLEMS[problem]}`);
    const cvcRule = cvcProblem(number, cvc);
    if (cvcRule) throw envelopeA('card_error', 'invalid_cvc', `${path}.cvc: ${cvcRule}`);
    return { ...rest, sealed: sealCardSecrets({ card_number: number, cvc }, this.key) };
  }

  /** The same body with `payment_method.card` sealed, if it has one. */
  sealed<B extends WithCard>(body: B): Sealed<B> {
    const { payment_method, ...rest } = body;
    return (payment_method ? { ...rest, payment_method: { card: this.seal(payment_method.card) } } : rest) as Sealed<B>;
  }
}
