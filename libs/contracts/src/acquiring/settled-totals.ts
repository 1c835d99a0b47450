import { defineCommand, NoPayload, returns } from '../command-definition';

/**
 * Acquiring's settled totals over every account, for operators (no actor): what `paygrid ledger verify`
 * compares with the settlements the payouts ledger applied, in one round trip instead of a page walk per
 * account, and covering accounts the ledger never saw (a settlement whose event never reached it).
 */
export interface SettledTotal {
  account_id: string;
  currency: string;
  /** Succeeded settlements, and their gross in minor units (a string: it may exceed 2^53). */
  settlement_count: number;
  gross_minor: string;
}

export interface SettledTotalsView {
  totals: SettledTotal[];
}

export const AcquiringAuditCommand = {
  settledTotals: defineCommand('acquiring.settlements.totals', {
    payload: NoPayload,
    result: returns<SettledTotalsView>(),
    mutates: false,
    needsActor: false,
  }),
};
