import { Inject, Injectable } from '@nestjs/common';
import {
  CARD_NUMBER_PROBLEMS,
  CardCommandInput,
  cardNumberProblem,
  cvcProblem,
  decodeAes256Key,
  DEVELOPMENT_CARD_TRANSPORT_KEY,
  normaliseCardNumber,
  sealCardSecrets,
} from '@paygrid/contracts';
import { APP_CONFIG, envelopeA } from '@paygrid/platform';
import { GatewayConfig } from '../../config';
import { CardDto } from './dto/acquiring.dto';

/**
 * Card data leaves the gateway only sealed (architecture rule 7): the number and CVC are checked here
 * (length, Luhn, CVC length: a 400 card_error before anything is sent) and then encrypted with
 * AES-256-GCM under CARD_TRANSPORT_KEY, a key only the gateway and acquiring hold, so no Kafka message
 * carries them in clear. The rest of the card (name, expiry, billing, options) travels as is.
 * A production gateway refuses the published development key.
 */

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
  seal(card: CardDto, path = 'payment_method.card'): CardCommandInput {
    const { card_number: rawNumber, cvc, ...rest } = card;
    const number = normaliseCardNumber(rawNumber);
    const problem = cardNumberProblem(number);
    if (problem) throw envelopeA('card_error', 'invalid_number', `${path}.card_number: ${CARD_NUMBER_PROBLEMS[problem]}`);
    const cvcRule = cvcProblem(number, cvc);
    if (cvcRule) throw envelopeA('card_error', 'invalid_cvc', `${path}.cvc: ${cvcRule}`);
    return { ...plain(rest), sealed: sealCardSecrets({ card_number: number, cvc }, this.key) };
  }
}

/** DTO instances → plain JSON objects for the command. */
export function plain<T extends object>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}
