import { IssuingTransferStatus } from '@paygrid/contracts';

export interface IssuingTransfer {
  transferId: string;
  shortTransactionId: string;
  masterAccountId: string;
  creatorAccountId: string;
  sourceAccountId: string;
  destinationAccountId: string;
  currency: string;
  amountMinor: bigint;
  status: IssuingTransferStatus;
  remark: string | null;
  failureReason: string | null;
  createdAt: Date;
  completedAt: Date | null;
}

export type NewIssuingTransfer = Omit<IssuingTransfer, 'shortTransactionId' | 'status' | 'failureReason' | 'createdAt' | 'completedAt'>;

/** An account issuing knows, with its master (`issuing_accounts`). */
export interface IssuingAccountRef {
  accountId: string;
  masterAccountId: string;
}
