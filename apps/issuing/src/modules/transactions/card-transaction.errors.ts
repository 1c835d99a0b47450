import { envelopeA, envelopeB } from '@paygrid/platform';

/**
 * Refusals of the card-transaction commands (spec 7.6): the simulators' envelope B messages, the spec's
 * "not found under the connected account", and clear invalid_request_errors where the spec names none.
 * A refusal stores and emits nothing; a declined authorization is not a refusal (it is recorded, DECLINED).
 */
export const TransactionErrors = {
  notFound: () => envelopeA('invalid_request_error', 'transaction_not_found', 'The transaction is not found under the connected account'),
  mccError: () => envelopeB(400, 'MCC is error'),
  invalidChannel: () => envelopeB(400, 'Invalid channel code'),
  reversalError: () => envelopeB(400, 'Card reversal transaction is error'),
  authorizeError: () => envelopeB(400, 'Card authorize transaction is error'),
  notReturnable: (what: string, why: string) => envelopeA('invalid_request_error', 'transaction_not_returnable', `Cannot ${what} this transaction: ${why}`),
  amountTooHigh: (what: string, left: string) =>
    envelopeA('invalid_request_error', 'amount_exceeds_remaining', `The ${what} amount exceeds what is left of the transaction (${left})`),
  cardInsufficient: () => envelopeB(400, 'Card available limit insufficient'),
};
