import { AcquiringCommand, CommandDefinition, LedgerAuditReport, PayloadOf, PayoutCommand, ResultOf } from '@paygrid/contracts';
import { ConnectedBus, EXIT_FAILED, EXIT_OK, EXIT_USAGE, runCli } from '../cli';

const ACCOUNT = '5a0d0b0c-0000-4000-8000-000000000002';
const MASTER = '5a0d0b0c-0000-4000-8000-000000000001';

const cleanReport: LedgerAuditReport = {
  discrepancies: [],
  accounts: [
    { account_id: ACCOUNT, master_account_id: MASTER, currency: 'USD', available_minor: '1500', pending_minor: '250', settled_minor: '2000', settlement_count: 2 },
  ],
};

interface World {
  report: LedgerAuditReport;
  balance: { available_balance: string; pending_balance: string };
  settlements: { currency: string; amount: string }[];
}

function harness(world: World) {
  const out: string[] = [];
  const err: string[] = [];
  const actors: unknown[] = [];
  const bus: ConnectedBus = {
    async execute<C extends CommandDefinition>(definition: C, payload: PayloadOf<C>, options: { actor?: unknown } = {}): Promise<ResultOf<C>> {
      const type = definition.type;
      type R = ResultOf<C>;
      if (type === PayoutCommand.verifyLedger.type) return world.report as R;
      actors.push(options.actor);
      if (type === PayoutCommand.retrieveBalance.type) return { currency: (payload as { currency: string }).currency, ...world.balance } as R;
      if (type === AcquiringCommand.listSettlements.type) {
        const page = (payload as { page_number: number }).page_number;
        const data = world.settlements.slice((page - 1) * 100, page * 100);
        return { total_pages: Math.max(1, Math.ceil(world.settlements.length / 100)), total_items: world.settlements.length, data } as R;
      }
      throw new Error(`unexpected ${type}`);
    },
    ready: async () => undefined,
    close: async () => undefined,
  };
  const io = { connect: async () => bus, out: (line: string) => out.push(line), err: (line: string) => err.push(line) };
  return { io, out, err, actors };
}

const agreeing = (): World => ({
  report: cleanReport,
  balance: { available_balance: '15.00', pending_balance: '2.50' },
  settlements: [
    { currency: 'USD', amount: '12.00' },
    { currency: 'USD', amount: '8.00' },
  ],
});

describe('paygrid ledger verify', () => {
  it('passes when the postings, the API and acquiring agree, reading as each account', async () => {
    const { io, out, actors } = harness(agreeing());
    expect(await runCli(['ledger', 'verify'], io)).toBe(EXIT_OK);
    expect(out.at(-1)).toBe("ledger verify: OK (1 account(s): postings, API balances and acquiring's settlements agree)");
    expect(actors).toContainEqual(expect.objectContaining({ account_id: ACCOUNT, master_account_id: MASTER }));
  });

  it('fails on a discrepancy inside the ledger', async () => {
    const world = agreeing();
    world.report = { ...cleanReport, discrepancies: ['acct/USD/available: cached balance 1, postings sum to 0'] };
    const { io, out, err } = harness(world);
    expect(await runCli(['ledger', 'verify'], io)).toBe(EXIT_FAILED);
    expect(out).toEqual(['DIFFERENCE acct/USD/available: cached balance 1, postings sum to 0']);
    expect(err).toEqual(['error: ledger verify found 1 difference(s) across 1 account(s)']);
  });

  it('fails when the API shows another balance than the postings sum to', async () => {
    const world = agreeing();
    world.balance = { available_balance: '15.01', pending_balance: '2.50' };
    const { io, out } = harness(world);
    expect(await runCli(['ledger', 'verify'], io)).toBe(EXIT_FAILED);
    expect(out).toEqual([`DIFFERENCE ${ACCOUNT}/USD: the API shows available_balance 15.01, the postings sum to 15.00`]);
  });

  it("fails when acquiring's settled totals differ from what the ledger applied, across pages", async () => {
    const world = agreeing();
    world.settlements = Array.from({ length: 150 }, () => ({ currency: 'USD', amount: '0.10' }));
    const { io, out } = harness(world);
    expect(await runCli(['ledger', 'verify'], io)).toBe(EXIT_FAILED);
    expect(out).toEqual([`DIFFERENCE ${ACCOUNT}/USD: acquiring settled 150 payments for 15.00, the ledger applied 2 for 20.00`]);
  });

  it('refuses a malformed --settle-wait', async () => {
    const { io } = harness(agreeing());
    expect(await runCli(['ledger', 'verify', '--settle-wait', 'soon'], io)).toBe(EXIT_USAGE);
  });
});
