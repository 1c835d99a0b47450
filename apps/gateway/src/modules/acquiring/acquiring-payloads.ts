import { Injectable } from '@nestjs/common';
import {
  ConfirmIntentPayload,
  CreateIntentPayload,
  CreateRefundPayload,
  crossFieldProblems,
  UpdateIntentPayload,
} from '@paygrid/contracts';
import { isSupportedCurrency, MoneyFormatError, parsePositiveAmount } from '@paygrid/money';
import { Errors } from '@paygrid/platform';
import { CardSealer, plain } from './card-sealer';
import {
  ConfirmPaymentIntentBody,
  CreatePaymentIntentBody,
  CreateRefundBody,
  PaymentMethodDto,
  UpdatePaymentIntentBody,
} from './dto/acquiring.dto';

/**
 * HTTP bodies (already shape-checked by the DTOs) → command payloads: the rules a DTO cannot express
 * (cross-field rules of spec 4.1, amounts per the currency's exponent) answer a 400 naming the field,
 * and the card is sealed. The service checks the same rules again on its side.
 */
@Injectable()
export class AcquiringPayloads {
  constructor(private readonly sealer: CardSealer) {}

  createIntent(body: CreatePaymentIntentBody): CreateIntentPayload {
    refuse(crossFieldProblems(body));
    checkAmount('amount', body.amount, body.currency);
    const { payment_method, ...rest } = body;
    return { ...plain(rest), payment_method: this.paymentMethod(payment_method) };
  }

  confirmIntent(id: string, body: ConfirmPaymentIntentBody): ConfirmIntentPayload {
    refuse(crossFieldProblems(body));
    if (!body.payment_method) throw Errors.invalidRequest('payment_method: is required to confirm a PaymentIntent');
    const { payment_method, ...rest } = body;
    return { ...plain(rest), payment_intent_id: id, payment_method: this.paymentMethod(payment_method) };
  }

  updateIntent(id: string, body: UpdatePaymentIntentBody): UpdateIntentPayload {
    refuse(crossFieldProblems(body));
    if (body.currency !== undefined && !isSupportedCurrency(body.currency)) {
      throw Errors.invalidRequest('currency: is not a supported currency');
    }
    if (body.amount !== undefined && body.currency !== undefined) checkAmount('amount', body.amount, body.currency);
    return { ...plain(body), payment_intent_id: id };
  }

  refund(body: CreateRefundBody): CreateRefundPayload {
    refuse(crossFieldProblems(body));
    return plain(body) as CreateRefundPayload;
  }

  private paymentMethod(method: PaymentMethodDto | undefined) {
    return method ? { card: this.sealer.seal(method.card) } : undefined;
  }
}

function refuse(problems: string[]): void {
  if (problems.length > 0) throw Errors.invalidRequest(problems[0]);
}

/** Decimal string with at most the currency's minor-unit digits, > 0 (decisions §5). */
export function checkAmount(path: string, amount: string, currency: string): void {
  if (!isSupportedCurrency(currency)) throw Errors.invalidRequest('currency: is not a supported currency');
  try {
    parsePositiveAmount(amount, currency);
  } catch (error) {
    if (error instanceof MoneyFormatError) throw Errors.invalidRequest(`${path}: ${error.reason}`);
    throw error;
  }
}
