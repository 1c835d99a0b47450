import { IssuingTransferView } from '@paygrid/contracts';
import { issuingAmountText } from '../balances/balance-transaction.types';
import { IssuingTransfer } from './transfer.types';

/** Sandbox and issuing charge no transfer fee (decisions §5). */
const NO_FEE = '0.00';

export function presentTransfer(transfer: IssuingTransfer): IssuingTransferView {
  return {
    transfer_id: transfer.transferId,
    short_transaction_id: transfer.shortTransactionId,
    source_account_id: transfer.sourceAccountId,
    destination_account_id: transfer.destinationAccountId,
    amount: issuingAmountText(transfer.amountMinor),
    fee_amount: NO_FEE,
    currency: transfer.currency,
    transfer_status: transfer.status,
    create_time: transfer.createdAt.toISOString(),
    ...(transfer.completedAt ? { complete_time: transfer.completedAt.toISOString() } : {}),
    creator_id: transfer.creatorAccountId,
    ...(transfer.remark !== null ? { remark: transfer.remark } : {}),
    ...(transfer.failureReason !== null ? { failure_reason: transfer.failureReason } : {}),
  };
}
