import type { Pool, PoolClient } from 'pg';
import type { EntityManager, QueryRunner } from 'typeorm';
import {
  SqlExecutor,
  applyTransition,
  conditionalUpdateSql,
  currentStatusSql,
  quoteIdentifier,
  rowsOf,
} from './conditional-update';
import { defineStateMachine } from './define-state-machine';
import { AggregateNotFoundError, TransitionRefusedError } from './errors';

const paymentIntent = defineStateMachine({
  name: 'PaymentIntent',
  states: ['REQUIRES_PAYMENT_METHOD', 'REQUIRES_CAPTURE', 'SUCCEEDED', 'CANCELLED'],
  transitions: {
    CAPTURE: { from: ['REQUIRES_CAPTURE'], to: 'SUCCEEDED' },
    CANCEL: { from: ['REQUIRES_PAYMENT_METHOD', 'REQUIRES_CAPTURE'], to: 'CANCELLED' },
    RETRY: { from: ['REQUIRES_CAPTURE'], to: 'REQUIRES_PAYMENT_METHOD' },
  },
  terminal: ['SUCCEEDED', 'CANCELLED'],
});

/** Answers each query with the next scripted result and records what it was asked. */
function scriptedExecutor(
  ...results: unknown[]
): SqlExecutor & { calls: { sql: string; params: unknown[] }[] } {
  const calls: { sql: string; params: unknown[] }[] = [];
  return {
    calls,
    async query(sql, params) {
      calls.push({ sql, params });
      if (results.length === 0) throw new Error(`unexpected query: ${sql}`);
      return results.shift();
    },
  };
}

describe('conditionalUpdateSql', () => {
  it('builds the guarded update with id, from-list and target as the first three parameters', () => {
    const cancelledAt = new Date('2025-01-01T00:00:00Z');
    const statement = conditionalUpdateSql({
      table: 'payment_intents',
      id: 'pi_1',
      from: paymentIntent.allowedFrom('CANCEL'),
      to: paymentIntent.targetOf('CANCEL'),
      set: { cancellation_reason: 'requested_by_customer', cancelled_at: cancelledAt },
    });
    expect(statement.sql).toBe(
      'UPDATE "payment_intents" SET "status" = $3, "cancellation_reason" = $4, "cancelled_at" = $5 ' +
        'WHERE "id" = $1 AND "status" = ANY($2) RETURNING *',
    );
    expect(statement.params).toEqual([
      'pi_1',
      ['REQUIRES_PAYMENT_METHOD', 'REQUIRES_CAPTURE'],
      'CANCELLED',
      'requested_by_customer',
      cancelledAt,
    ]);
  });

  it('leaves RETURNING out when told, for a statement wrapped in another', () => {
    const statement = conditionalUpdateSql({
      table: 'payment_intents',
      id: 'pi_1',
      from: ['REQUIRES_CAPTURE'],
      to: 'CANCELLED',
      returning: false,
    });
    expect(statement.sql).toBe('UPDATE "payment_intents" SET "status" = $3 WHERE "id" = $1 AND "status" = ANY($2)');
  });

  it("adds the caller's own condition to the guard, parameters unchanged", () => {
    const statement = conditionalUpdateSql({
      table: 'payment_attempts',
      id: 'att_1',
      from: ['INITIATED'],
      to: 'CAPTURE_REQUESTED',
      idColumn: 'attempt_id',
      statusColumn: 'attempt_status',
      alsoWhere: 'attempt_id = (SELECT latest_attempt_id FROM i)',
    });
    expect(statement.sql).toBe(
      'UPDATE "payment_attempts" SET "attempt_status" = $3 WHERE "attempt_id" = $1 AND "attempt_status" = ANY($2) ' +
        'AND (attempt_id = (SELECT latest_attempt_id FROM i)) RETURNING *',
    );
    expect(statement.params).toEqual(['att_1', ['INITIATED'], 'CAPTURE_REQUESTED']);
  });

  it('honours custom id and status columns', () => {
    const statement = conditionalUpdateSql({
      table: 'payouts',
      id: 42n,
      from: ['CREATED'],
      to: 'PAID',
      idColumn: 'payout_id',
      statusColumn: 'payout_status',
    });
    expect(statement.sql).toBe(
      'UPDATE "payouts" SET "payout_status" = $3 WHERE "payout_id" = $1 AND "payout_status" = ANY($2) RETURNING *',
    );
    expect(statement.params).toEqual([42n, ['CREATED'], 'PAID']);
  });

  it('skips undefined values and writes null ones', () => {
    const statement = conditionalUpdateSql({
      table: 't',
      id: 1,
      from: ['A'],
      to: 'B',
      set: { skipped: undefined, cleared: null, kept: 0 },
    });
    expect(statement.sql).toBe(
      'UPDATE "t" SET "status" = $3, "cleared" = $4, "kept" = $5 WHERE "id" = $1 AND "status" = ANY($2) RETURNING *',
    );
    expect(statement.params).toEqual([1, ['A'], 'B', null, 0]);
  });

  it('quotes reserved words so they stay usable', () => {
    expect(conditionalUpdateSql({ table: 'order', id: 1, from: ['A'], to: 'B' }).sql).toContain(
      'UPDATE "order"',
    );
  });

  it.each([
    ['table', { table: 'payment_intents; DROP TABLE x' }],
    ['table', { table: 'Payment_Intents' }],
    ['table', { table: 'public.payment_intents' }],
    ['table', { table: '"payment_intents"' }],
    ['table', { table: '' }],
    ['table', { table: 'a'.repeat(64) }],
    ['id column', { idColumn: 'id = id OR 1=1 --' }],
    ['status column', { statusColumn: '9status' }],
    ['set column', { set: { 'amount" = 0, "status': 1 } }],
    ['set column', { set: { café: 1 } }],
  ])('refuses an unsafe %s', (_label, overrides) => {
    expect(() =>
      conditionalUpdateSql({ table: 'payment_intents', id: 'pi_1', from: ['A'], to: 'B', ...overrides }),
    ).toThrow(/unsafe SQL identifier/);
  });

  it('refuses to let set overwrite the status or the id', () => {
    expect(() =>
      conditionalUpdateSql({ table: 't', id: 1, from: ['A'], to: 'B', set: { status: 'C' } }),
    ).toThrow('set may not write "status"');
    expect(() => conditionalUpdateSql({ table: 't', id: 1, from: ['A'], to: 'B', set: { id: 2 } })).toThrow(
      'set may not write "id"',
    );
  });

  it('refuses an empty from-list, which could never match', () => {
    expect(() => conditionalUpdateSql({ table: 't', id: 1, from: [], to: 'B' })).toThrow(TypeError);
  });

  it('passes the from-list as a copy pg can serialise', () => {
    const from = paymentIntent.allowedFrom('CANCEL');
    const [, param] = conditionalUpdateSql({ table: 't', id: 1, from, to: 'B' }).params;
    expect(param).not.toBe(from);
    expect(Object.isFrozen(param)).toBe(false);
  });
});

describe('currentStatusSql and quoteIdentifier', () => {
  it('reads the status under a fixed alias', () => {
    expect(
      currentStatusSql({
        table: 'payouts',
        id: 'po_1',
        idColumn: 'payout_id',
        statusColumn: 'payout_status',
      }),
    ).toEqual({
      sql: 'SELECT "payout_status" AS "status" FROM "payouts" WHERE "payout_id" = $1',
      params: ['po_1'],
    });
  });

  it('quotes a safe identifier and refuses others', () => {
    expect(quoteIdentifier('_x1')).toBe('"_x1"');
    expect(() => quoteIdentifier('x-1')).toThrow(TypeError);
  });
});

describe('rowsOf', () => {
  const row = { id: 'pi_1', status: 'CANCELLED' };

  it('reads TypeORM UPDATE results, [rows, affectedCount]', () => {
    expect(rowsOf([[row], 1])).toEqual([row]);
    expect(rowsOf([[], 0])).toEqual([]);
  });

  it('reads plain row arrays, pg QueryResults and TypeORM structured results', () => {
    expect(rowsOf([row])).toEqual([row]);
    expect(rowsOf([row, row])).toEqual([row, row]);
    expect(rowsOf([])).toEqual([]);
    expect(rowsOf({ rows: [row], rowCount: 1, command: 'UPDATE' })).toEqual([row]);
    expect(rowsOf({ records: [row], affected: 1 })).toEqual([row]);
  });

  it.each([undefined, null, 1, 'rows', [1, 2], [[row], '1'], { rowCount: 1 }])('refuses %j', (result) => {
    expect(() => rowsOf(result)).toThrow(TypeError);
  });
});

describe('applyTransition', () => {
  const input = {
    table: 'payment_intents',
    id: 'pi_1',
    event: 'CANCEL' as const,
    set: { cancelled_at: 'now' },
  };

  it('returns the updated row when the guard matched (TypeORM shape)', async () => {
    const updated = { id: 'pi_1', status: 'CANCELLED' };
    const db = scriptedExecutor([[updated], 1]);
    await expect(applyTransition(db, paymentIntent, input)).resolves.toEqual(updated);
    expect(db.calls).toEqual([
      {
        sql: 'UPDATE "payment_intents" SET "status" = $3, "cancelled_at" = $4 WHERE "id" = $1 AND "status" = ANY($2) RETURNING *',
        params: ['pi_1', ['REQUIRES_PAYMENT_METHOD', 'REQUIRES_CAPTURE'], 'CANCELLED', 'now'],
      },
    ]);
  });

  it('returns the updated row when the guard matched (pg shape)', async () => {
    const db = scriptedExecutor({ rows: [{ id: 'pi_1', status: 'CANCELLED' }], rowCount: 1 });
    await expect(applyTransition(db, paymentIntent, input)).resolves.toMatchObject({ status: 'CANCELLED' });
  });

  it('refuses to cancel a succeeded intent, naming the status it found', async () => {
    const db = scriptedExecutor([[], 0], [{ status: 'SUCCEEDED' }]);
    const error: unknown = await applyTransition(db, paymentIntent, input).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TransitionRefusedError);
    expect(error).toMatchObject({
      message: 'cannot cancel PaymentIntent: status is SUCCEEDED',
      aggregate: 'PaymentIntent',
      event: 'CANCEL',
      currentStatus: 'SUCCEEDED',
      aggregateId: 'pi_1',
    });
    expect(db.calls[1]).toEqual({
      sql: 'SELECT "status" AS "status" FROM "payment_intents" WHERE "id" = $1',
      params: ['pi_1'],
    });
  });

  it('reports a missing row as not found', async () => {
    const db = scriptedExecutor([[], 0], []);
    const error: unknown = await applyTransition(db, paymentIntent, input).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AggregateNotFoundError);
    expect(error).toMatchObject({
      message: 'PaymentIntent pi_1 not found',
      aggregate: 'PaymentIntent',
      aggregateId: 'pi_1',
    });
  });

  it('tries again when another writer moved the status back into the allowed set', async () => {
    const db = scriptedExecutor(
      [[], 0],
      [{ status: 'REQUIRES_PAYMENT_METHOD' }],
      [[{ id: 'pi_1', status: 'CANCELLED' }], 1],
    );
    await expect(applyTransition(db, paymentIntent, input)).resolves.toMatchObject({ status: 'CANCELLED' });
    expect(db.calls).toHaveLength(3);
  });

  it('gives up after three lost races', async () => {
    const lost = [[[], 0], [{ status: 'REQUIRES_CAPTURE' }]];
    const db = scriptedExecutor(...lost, ...lost, ...lost);
    await expect(applyTransition(db, paymentIntent, input)).rejects.toThrow('lost 3 races in a row');
  });

  it('checks the event before touching the database', async () => {
    const db = scriptedExecutor();
    await expect(
      applyTransition(db, paymentIntent, { ...input, event: 'REFUND' as 'CANCEL' }),
    ).rejects.toThrow('PaymentIntent has no event "REFUND"');
    expect(db.calls).toHaveLength(0);
  });

  it('accepts TypeORM and pg clients as executors', () => {
    const executors: SqlExecutor[] = [{} as EntityManager, {} as QueryRunner, {} as Pool, {} as PoolClient];
    expect(executors).toHaveLength(4);
  });
});
