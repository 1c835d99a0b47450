import { IssuingReportStatus, IssuingReportType } from '@paygrid/contracts';

export interface IssuingReport {
  reportId: string;
  accountId: string;
  masterAccountId: string;
  reportType: IssuingReportType;
  status: IssuingReportStatus;
  rangeStart: Date;
  rangeEnd: Date;
  rowCount: number | null;
  fileName: string | null;
  failureReason: string | null;
  createdAt: Date;
  completedAt: Date | null;
}

/** One settled movement of money on an `available` bucket of the account or one of its cards. */
export interface SettlementLine {
  transactionId: string;
  occurredAt: Date;
  kind: string;
  ownerId: string;
  maskedCardNumber: string | null;
  currency: string;
  amountMinor: bigint;
  balanceAfterMinor: bigint;
}
