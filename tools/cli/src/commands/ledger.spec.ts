import {
  AcquiringAuditCommand,
  CommandDefinition,
  IssuingLedgerAuditCommand,
  IssuingLedgerAuditReport,
  LedgerAuditReport,
  PayloadOf,
  PayoutCommand,
  ResultOf,
  SettledTotal,
} from '@paygrid/contracts';
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
  issuing: IssuingLedgerAuditReport;
  balance: { available_balance: string; pending_balance: string };
  settled: SettledTotal[];
}

function harness(world: World) {
  const out: string[] = [];
  const err: string[] = [];
  const actors: unknown[] = [];
  const checked: string[] = [];
  const bus: ConnectedBus = {
    async execute<C extends CommandDefinition>(definition: C, payload: PayloadOf<C>, options: { actor?: unknown } = {}): Promise<ResultOf<C>> {
      const type = definition.type;
      type R = ResultOf<C>;
      if (type === PayoutCommand.verifyLedger.type) return world.report as R;
      if (type === IssuingLedgerAuditCommand.verifyLedger.type) return world.issuing as R;
      if (type === AcquiringAuditCommand.settledTotals.type) return { totals: world.settled } as R;
      actors.push(options.actor);
      if (type === PayoutCommand.retrieveBalance.type) return { currency: (payload as { currency: string }).currency, ...world.balance } as R;
      throw new Error(`unexpected ${type}`);
    },
    ready: async (family) => {
      checked.push(family);
    },
    close: async () => undefined,
  };
  const io = { connect: async () => bus, out: (line: string) => out.push(line), err: (line: string) => err.push(line) };
  return { io, out, err, actors, checked };
}

const agreeing = (): World => ({
  report: cleanReport,
  issuing: { discrepancies: [], ledger_accounts: 7, entries: 12 },
  balance: { available_balance: '15.00', pending_balance: '2.50' },
  settled: [{ account_id: ACCOUNT, currency: 'USD', settlement_count: 2, gross_minor: '2000' }],
});

describe('paygrid ledger verify', () => {
  it('passes when the postings, the API, acquiring and the issuing ledger agree, reading as each account', async () => {
    const { io, out, actors, checked } = harness(agreeing());
    expect(await runCli(['ledger', 'verify'], io)).toBe(EXIT_OK);
    expect(out.at(-1)).toBe(
      "ledger verify: OK (1 account(s): postings, API balances and acquiring's settlements agree; issuing ledger: 7 ledger account(s), 12 entries, clean)",
    );
    expect(actors).toContainEqual(expect.objectContaining({ account_id: ACCOUNT, master_account_id: MASTER }));
    expect(checked).toEqual(['payouts', 'acquiring', 'issuing']);
  });

  it('fails on a discrepancy inside the issuing ledger, saying which ledger', async () => {
    const world = agreeing();
    world.issuing = { ...world.issuing, discrepancies: ['card order 42 (CARD_RECHARGE, SUCCESS) has no settle entry'] };
    const { io, out, err } = harness(world);
    expect(await runCli(['ledger', 'verify'], io)).toBe(EXIT_FAILED);
    expect(out).toEqual(['DIFFERENCE issuing ledger: card order 42 (CARD_RECHARGE, SUCCESS) has no settle entry']);
    expect(err).toEqual(['error: ledger verify found 1 difference(s) across 1 account(s)']);
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

  it("fails when acquiring's settled totals differ from what the ledger applied", async () => {
    const world = agreeing();
    world.settled = [{ account_id: ACCOUNT, currency: 'USD', settlement_count: 150, gross_minor: '1500' }];
    const { io, out } = harness(world);
    expect(await runCli(['ledger', 'verify'], io)).toBe(EXIT_FAILED);
    expect(out).toEqual([`DIFFERENCE ${ACCOUNT}/USD: acquiring settled 150 payments for 15.00, the ledger applied 2 for 20.00`]);
  });

  it('fails on settlements of an account the ledger never saw', async () => {
    const world = agreeing();
    const unseen = '5a0d0b0c-0000-4000-8000-000000000009';
    world.settled = [...world.settled, { account_id: unseen, currency: 'EUR', settlement_count: 1, gross_minor: '499' }];
    const { io, out } = harness(world);
    expect(await runCli(['ledger', 'verify'], io)).toBe(EXIT_FAILED);
    expect(out).toEqual([`DIFFERENCE ${unseen}/EUR: acquiring settled 1 payments for 4.99, the ledger applied 0 for 0.00`]);
  });

  it('refuses a malformed --settle-wait', async () => {
    const { io } = harness(agreeing());
    expect(await runCli(['ledger', 'verify', '--settle-wait', 'soon'], io)).toBe(EXIT_USAGE);
  });
});
