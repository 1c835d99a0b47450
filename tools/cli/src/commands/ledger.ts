import { AcquiringCommand, Actor, LedgerAuditAccount, PayoutCommand } from '@paygrid/contracts';
import { formatAmount, parseAmount } from '@paygrid/money';
import { stringOption } from './options';
import { CliBus, CliContext, CliFailure, CliUsageError, CommandGroup, Subcommand } from './registry';

/**
 * `paygrid ledger verify`: the payouts ledger checked by code (issue 9). Three comparisons, and any
 * difference exits 1:
 * 1. the ledger's own audit (payouts.ledger.verify): every balance recomputed from the postings, entries
 *    balanced, nothing guarded negative, payout statuses agreeing with the payout buckets;
 * 2. what the API shows: each account's balance as GET /v2/payment/balances/{currency} answers it (read
 *    as that account, through the same command) against the balance recomputed from the postings;
 * 3. acquiring's settled totals: the settlements acquiring lists for each account (count and gross per
 *    currency) against the settlements the ledger applied.
 * Acquiring keeps settling while this runs; `--settle-wait <ms>` re-runs the whole comparison until it
 * agrees or the time is up, so events still in flight are not reported as differences.
 */
const SETTLEMENTS_PAGE = 100;

const listSettlements = AcquiringCommand.listSettlements;

export interface LedgerVerification {
  accounts: number;
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
    differences.push(...(await settlementDifferences(bus, actor, currencies)));
  }
  return { accounts: byAccount.size, differences };
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

async function settlementDifferences(bus: CliBus, actor: Actor, ledger: LedgerAuditAccount[]): Promise<string[]> {
  const acquiring = new Map<string, { grossMinor: bigint; count: number }>();
  for (let page = 1; ; page += 1) {
    const settlements = await bus.execute(listSettlements, { page_size: SETTLEMENTS_PAGE, page_number: page }, { actor });
    for (const settlement of settlements.data) {
      const total = acquiring.get(settlement.currency) ?? { grossMinor: 0n, count: 0 };
      acquiring.set(settlement.currency, { grossMinor: total.grossMinor + parseAmount(settlement.amount, settlement.currency), count: total.count + 1 });
    }
    if (page >= settlements.total_pages) break;
  }
  const currencies = new Set([...acquiring.keys(), ...ledger.map((account) => account.currency)]);
  const differences: string[] = [];
  for (const currency of [...currencies].sort()) {
    const settled = acquiring.get(currency) ?? { grossMinor: 0n, count: 0 };
    const applied = ledger.find((account) => account.currency === currency);
    const appliedMinor = BigInt(applied?.settled_minor ?? '0');
    const appliedCount = applied?.settlement_count ?? 0;
    if (settled.grossMinor !== appliedMinor || settled.count !== appliedCount) {
      differences.push(
        `${actor.account_id}/${currency}: acquiring settled ${settled.count} payments for ${formatAmount(settled.grossMinor, currency)}, ` +
          `the ledger applied ${appliedCount} for ${formatAmount(appliedMinor, currency)}`,
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
  summary: 'recompute every balance from the postings; compare with the API and with acquiring (exit 1 on any difference)',
  family: 'payouts',
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
    context.out(`ledger verify: OK (${result.accounts} account(s): postings, API balances and acquiring's settlements agree)`);
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
  summary: 'the payouts ledger: audit balances against their postings, the API and acquiring',
  subcommands: [verify],
};
