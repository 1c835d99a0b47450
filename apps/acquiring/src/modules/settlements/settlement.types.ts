/** Domain types of settlements: camelCase, bigint money, Dates. */
export interface Settlement {
  id: string;
  batchId: string;
  intentId: string;
  attemptId: string;
  merchantOrderId: string;
  accountId: string;
  masterAccountId: string;
  currency: string;
  amountMinor: bigint;
  feeMinor: bigint;
  netMinor: bigint;
  settledAt: Date;
  createdAt: Date;
}

export interface SettlementFilter {
  accountId: string;
  intentId?: string;
  batchId?: string;
  settledFrom?: Date;
  settledTo?: Date;
}
