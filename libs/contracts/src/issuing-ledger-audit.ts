import { defineCommand, NoPayload, returns } from './command-definition';

/**
 * The issuing ledger's audit (operators only, no actor), the issuing half of `paygrid ledger verify`:
 * issuing keeps card orders' money in its own ledger (libs/ledger in the issuing database), so it
 * recomputes and checks it itself, in one snapshot, as payouts does with `payouts.ledger.verify`.
 */
export interface IssuingLedgerAuditReport {
  /** One sentence per discrepancy inside the issuing ledger (empty: clean). */
  discrepancies: string[];
  /** What was checked, so an operator can tell a clean ledger from an empty one. */
  ledger_accounts: number;
  entries: number;
}

export const IssuingLedgerAuditCommand = {
  verifyLedger: defineCommand('issuing.ledger.verify', {
    payload: NoPayload,
    result: returns<IssuingLedgerAuditReport>(),
    mutates: false,
    needsActor: false,
  }),
};
