import { AcquiringAuditCommand, Actor, IssuingLedgerAuditCommand, LedgerAuditAccount, PayoutCommand, SettledTotal } from '@paygrid/contracts';
import { formatAmount } from '@paygrid/money';
import { stringOption } from './options';
import { CliBus, CliContext, CliFailure, CliUsageError, CommandGroup, Subcommand } from './registry';

/**
 * `paygrid ledger verify`: the platform's two ledgers checked by code (issue 9). Four checks, and any
 * difference exits 1:
 * 1. the ledger's own audit (payouts.ledger.verify): every balance recomputed from the postings, entries
 *    balanced, nothing guarded negative, payout statuses agreeing with the payout buckets;
 * 2. what the API shows: each account's balance as GET /v2/payment/balances/{currency} answers it (read
 *    as that account, through the same command) against the balance recomputed from the postings;
 * 3. acquiring's settled totals (acquiring.settlements.totals: count and gross per account and currency,
 *    every account acquiring ever settled for) against the settlements the ledger applied, so a
 *    settlement whose event never reached the ledger shows even for an account the ledger never saw;
 * 4. the issuing ledger's own audit (issuing.ledger.verify): the same library checks in the issuing
 *    database, money in flight against the open card orders, each order's entries against its status.
 * Acquiring keeps settling while this runs; `--settle-wait <ms>` re-runs the whole comparison until it
 * agrees or the time is up, so events still in flight are not reported as differences.
 */
export interface LedgerVerification {
  accounts: number;
  /** What the issuing ledger's audit covered. */
  issuing: { ledgerAccounts: number; entries: number };
  differences: string[];
}

export async function verifyLedger(bus: CliBus): Promise<LedgerVerification> {
  const report = await bus.execute(PayoutCommand.verifyLedger, {});
  const differences = [...report.discrepancies];
  const byAccount = new Map<string, LedgerAuditAccount[]>();
  for (const account of report.accounts) byAccount.set(account.account_id, [...(byAccount.get(account.account_id) ?? []), account]);
  for (const [accountId, currencies] of byAccount) {
    const actor = operatorActing(accountId, currencies[0].master_account_id);
    for (const recomputed of currencies) differences.push(...(await apiDifferences(bus, actor, recomputed)));
  }
  const settled = await bus.execute(AcquiringAuditCommand.settledTotals, {});
  differences.push(...settlementDifferences(report.accounts, settled.totals));
  const issuing = await bus.execute(IssuingLedgerAuditCommand.verifyLedger, {});
  differences.push(...issuing.discrepancies.map((discrepancy) => `issuing ledger: ${discrepancy}`));
  return { accounts: byAccount.size, issuing: { ledgerAccounts: issuing.ledger_accounts, entries: issuing.entries }, differences };
}

async function apiDifferences(bus: CliBus, actor: Actor, recomputed: LedgerAuditAccount): Promise<string[]> {
  const shown = await bus.execute(PayoutCommand.retrieveBalance, { currency: recomputed.currency }, { actor });
  const expected = {
    available_balance: formatAmount(BigInt(recomputed.available_minor), recomputed.currency),
    pending_balance: formatAmount(BigInt(recomputed.pending_minor), recomputed.currency),
  };
  return (['available_balance', 'pending_balance'] as const)
    .filter((field) => shown[field] !== expected[field])
    .map(
      (field) =>
        `${recomputed.account_id}/${recomputed.currency}: the API shows ${field} ${shown[field]}, the postings sum to ${expected[field]}`,
    );
}

/** Per account and currency, acquiring's succeeded settlements against those the ledger applied. */
function settlementDifferences(ledger: LedgerAuditAccount[], acquiring: SettledTotal[]): string[] {
  const keyOf = (accountId: string, currency: string) => `${accountId}/${currency}`;
  const settled = new Map(acquiring.map((total) => [keyOf(total.account_id, total.currency), total]));
  const applied = new Map(ledger.map((account) => [keyOf(account.account_id, account.currency), account]));
  const differences: string[] = [];
  for (const key of [...new Set([...settled.keys(), ...applied.keys()])].sort()) {
    const currency = key.slice(key.lastIndexOf('/') + 1);
    const bySettlements = { grossMinor: BigInt(settled.get(key)?.gross_minor ?? '0'), count: settled.get(key)?.settlement_count ?? 0 };
    const byLedger = { grossMinor: BigInt(applied.get(key)?.settled_minor ?? '0'), count: applied.get(key)?.settlement_count ?? 0 };
    if (bySettlements.grossMinor !== byLedger.grossMinor || bySettlements.count !== byLedger.count) {
      differences.push(
        `${key}: acquiring settled ${bySettlements.count} payments for ${formatAmount(bySettlements.grossMinor, currency)}, ` +
          `the ledger applied ${byLedger.count} for ${formatAmount(byLedger.grossMinor, currency)}`,
      );
    }
  }
  return differences;
}

/** The operator reading as the account, the way the gateway would send the account's own requests. */
function operatorActing(accountId: string, masterAccountId: string): Actor {
  return { account_id: accountId, master_account_id: masterAccountId, caller_account_id: accountId, client_id: 'paygrid-cli', permissions: [] };
}

const verify: Subcommand = {
  name: 'verify',
  usage: '[--settle-wait <ms>]',
  summary: 'recompute every balance of the payouts and issuing ledgers from the postings; compare with the API and acquiring (exit 1 on any difference)',
  family: 'payouts',
  alsoNeeds: ['acquiring', 'issuing'],
  positionals: { min: 0, max: 0 },
  options: { 'settle-wait': { type: 'string' } },
  async run(context: CliContext, args) {
    const waitMs = settleWaitOption(stringOption(args, 'settle-wait'));
    const deadline = Date.now() + waitMs;
    let result = await verifyLedger(context.bus);
    while (result.differences.length > 0 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, Math.min(1000, Math.max(0, deadline - Date.now()))));
      result = await verifyLedger(context.bus);
    }
    if (result.differences.length > 0) {
      result.differences.forEach((difference) => context.out(`DIFFERENCE ${difference}`));
      throw new CliFailure(`ledger verify found ${result.differences.length} difference(s) across ${result.accounts} account(s)`);
    }
    context.out(
      `ledger verify: OK (${result.accounts} account(s): postings, API balances and acquiring's settlements agree; ` +
        `issuing ledger: ${result.issuing.ledgerAccounts} ledger account(s), ${result.issuing.entries} entries, clean)`,
    );
  },
};

function settleWaitOption(raw: string | undefined): number {
  if (raw === undefined) return 0;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0 || value > 600_000) throw new CliUsageError('--settle-wait must be milliseconds from 0 to 600000');
  return value;
}

export const ledgerCommands: CommandGroup = {
  name: 'ledger',
  summary: 'the payouts and issuing ledgers: audit balances against their postings, the API and acquiring',
  subcommands: [verify],
};
