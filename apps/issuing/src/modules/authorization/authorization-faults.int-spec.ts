import { randomBytes, randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { verifyLedger } from '@paygrid/ledger';
import { CommandDefinition, CommandReply, IssuingTransactionCommand, SimulatedTransactionView } from '@paygrid/contracts';
import { createDataSource } from '@paygrid/platform';
import { AppProcess, createTestDatabase, deleteRedisKeys, TestCommandClient, TestDatabase, TestStack, waitFor } from '@paygrid/testing';
import { SANDBOX_ACTORS } from '../../test/issuing-app.harness';
import { fundedCard, SendCommand } from './test/funded-card.fixture';

/**
 * Issuing SIGKILLed during 500 authorizations (issue 11): the compiled app as a child process on a stack of its
 * own; a client sends each authorization with its own command id and, like a merchant retrying with the same
 * idempotency key, sends it again until it has an answer. The process is killed twice while authorizations and
 * clearing jobs are in flight. After it: every accepted authorization is held exactly once (one row, one hold
 * entry), every one clears exactly once (one clearing entry, one outbox event each), and the ledger verifies.
 */
const AUTHORIZATIONS = Number(process.env.FAULT_AUTHORIZATIONS ?? 500);
const IN_FLIGHT = 16;
const master = SANDBOX_ACTORS.master;

let stack: TestStack;
let database: TestDatabase;
let issuing: AppProcess;
let client: TestCommandClient;
let data: DataSource;
const jobsPrefix = `iss-faults-${randomBytes(4).toString('hex')}`;

const send: SendCommand = (definition: CommandDefinition, payload, actor) =>
  client.send(definition.family, definition.type, payload, { actor, commandId: definition.mutates ? `cmd_${randomUUID()}` : null }) as never;

beforeAll(async () => {
  stack = await TestStack.create('issuing-auth-faults');
  database = await createTestDatabase('paygrid_issuing');
  issuing = await AppProcess.on(stack, 'issuing', database.url, {
    JOBS_PREFIX: jobsPrefix,
    JOBS_RECONCILE_INTERVAL_MS: '200',
    KYC_REVIEW_DELAY_MS: '100',
    CARD_ORDER_DELAY_MS: '100',
    AUTH_CLEARING_DELAY_MS: '300',
  });
  await issuing.start();
  client = await stack.commands();
  await client.ready('issuing');
  data = createDataSource({ url: database.url, app: 'issuing-faults-check' });
  await data.initialize();
}, 240_000);

afterAll(async () => {
  await issuing?.kill();
  await data?.destroy();
  await deleteRedisKeys(jobsPrefix);
  await stack?.close();
  await database?.drop();
});

describe('authorizations across SIGKILLs', () => {
  it('holds every accepted authorization once and clears each once', async () => {
    const cardId = await fundedCard({ send }, master, AUTHORIZATIONS);
    const answers = new Map<string, SimulatedTransactionView>();
    let retries = 0;

    async function authorizeUntilAnswered(index: number): Promise<void> {
      const commandId = `cmd_fault_${index}_${randomUUID()}`;
      const payload = {
        card_id: cardId,
        transaction_amount: 1,
        transaction_currency: 'USD',
        merchant_name: `Fault ${index}`,
        merchant_category_code: '5411',
        transaction_status: 'APPROVED',
      };
      await waitFor(
        async () => {
          const reply = (await client
            .send('issuing', IssuingTransactionCommand.simulateAuthorization.type, payload, { actor: master, commandId, timeoutMs: 5_000 })
            .catch(() => undefined)) as CommandReply<SimulatedTransactionView> | undefined;
          if (reply?.ok) {
            answers.set(commandId, reply.result);
            return true;
          }
          retries += 1;
          // A refusal is not something a retry fixes: say it (waitFor names the last error when it gives up).
          if (reply) throw new Error(`authorization ${index} refused: ${JSON.stringify(reply.error)}`);
          return undefined;
        },
        { what: `authorization ${index} to be answered`, timeoutMs: 300_000, intervalMs: 200 },
      );
    }

    const begun = Date.now();
    let next = 0;
    const workers = Array.from({ length: IN_FLIGHT }, async () => {
      while (next < AUTHORIZATIONS) await authorizeUntilAnswered(next++);
    });
    for (const atAnswers of [Math.floor(AUTHORIZATIONS / 4), Math.floor(AUTHORIZATIONS * 0.6)]) {
      await waitFor(() => answers.size >= atAnswers || undefined, { what: `${atAnswers} answers before a kill`, timeoutMs: 300_000 });
      process.stdout.write(`issuing faults: ${answers.size} answered after ${Math.round((Date.now() - begun) / 1000)} s; SIGKILL\n`);
      await issuing.kill();
      await issuing.start();
    }
    await Promise.all(workers);

    expect(answers.size).toBe(AUTHORIZATIONS);
    const answered = [...answers.values()];
    expect(answered.every((answer) => answer.transaction_status === 'APPROVED')).toBe(true);
    const ids = answered.map((answer) => answer.transaction_id);
    expect(new Set(ids).size).toBe(AUTHORIZATIONS);

    // One row per answered authorization and nothing else; a retried command was answered from the command ledger.
    const [rows] = await data.query(`SELECT count(*)::int AS n FROM card_transactions WHERE card_id = $1`, [cardId]);
    expect(rows.n).toBe(AUTHORIZATIONS);
    await waitFor(
      async () => {
        const [cleared] = await data.query(`SELECT count(*)::int AS n FROM card_transactions WHERE card_id = $1 AND hold_state = 'CLEARED'`, [cardId]);
        return cleared.n === AUTHORIZATIONS || undefined;
      },
      { what: 'every authorization to clear', timeoutMs: 300_000, intervalMs: 250 },
    );
    const entries = await data.query(
      `SELECT split_part(reference, ':', 3) AS step, count(*)::int AS n, count(DISTINCT split_part(reference, ':', 2))::int AS transactions
         FROM ledger_entries WHERE reference LIKE 'card_transaction:%' AND reference = ANY(
           SELECT 'card_transaction:' || t.transaction_id || ':' || s FROM card_transactions t, unnest(ARRAY['hold', 'clear', 'release']) s WHERE t.card_id = $1)
        GROUP BY 1 ORDER BY 1`,
      [cardId],
    );
    expect(entries).toEqual([
      { step: 'clear', n: AUTHORIZATIONS, transactions: AUTHORIZATIONS },
      { step: 'hold', n: AUTHORIZATIONS, transactions: AUTHORIZATIONS },
    ]);
    const events = await data.query(
      `SELECT payload::jsonb ->> 'event_name' AS event_name, count(*)::int AS n, count(DISTINCT message_key)::int AS sources
         FROM outbox WHERE message_key = ANY($1) GROUP BY 1 ORDER BY 1`,
      [ids],
    );
    expect(events).toEqual([
      { event_name: 'issuing.transaction.authorization', n: AUTHORIZATIONS, sources: AUTHORIZATIONS },
      { event_name: 'issuing.transaction.clearing', n: AUTHORIZATIONS, sources: AUTHORIZATIONS },
    ]);
    const [balances] = await data.query(
      `SELECT sum(balance) FILTER (WHERE bucket = 'available')::text AS available, sum(balance) FILTER (WHERE bucket = 'authorization_held')::text AS held,
              sum(balance) FILTER (WHERE bucket = 'network_clearing')::text AS network FROM ledger_accounts WHERE owner_id = $1`,
      [cardId],
    );
    expect(balances).toEqual({ available: '0', held: '0', network: String(AUTHORIZATIONS * 100) });
    expect(await verifyLedger(data)).toEqual([]);
    expect(issuing.starts).toBe(3);
    process.stdout.write(`issuing faults: ${AUTHORIZATIONS} authorizations, 2 SIGKILLs, ${retries} retried sends\n`);
  }, 1_200_000);
});
