import { RefundStatus } from '@paygrid/contracts';

/** Domain types of refunds: camelCase, bigint money, Dates. */
export interface Refund {
  id: string;
  intentId: string;
  attemptId: string;
  accountId: string;
  masterAccountId: string;
  amountMinor: bigint;
  currency: string;
  status: RefundStatus;
  reason: string;
  metadata: Record<string, string>;
  failureCode: string;
  processorReference: string | null;
  createdAt: Date;
  updatedAt: Date;
  completedAt: Date | null;
}

export interface RefundFilter {
  accountId: string;
  intentId?: string;
  merchantOrderId?: string;
  createdFrom?: Date;
  createdTo?: Date;
}
