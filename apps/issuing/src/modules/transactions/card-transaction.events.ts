import { CardTransactionView, IssuingTransactionEventName } from '@paygrid/contracts';
import { Executor } from '@paygrid/platform';
import { recordIssuingEvent } from '../../common/issuing-events';
import { presentCardTransaction } from './card-transaction.presenter';
import { CardTransaction } from './card-transaction.types';

/** `issuing.transaction.*` (spec 6): the transaction as the API shows it, in the transaction of its change. */
export function recordTransactionEvent(executor: Executor, transaction: CardTransaction, eventName: IssuingTransactionEventName): Promise<void> {
  return recordIssuingEvent<CardTransactionView>(executor, transaction, eventName, transaction.transactionId, presentCardTransaction(transaction));
}
