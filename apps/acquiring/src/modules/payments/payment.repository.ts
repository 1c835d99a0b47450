import { Injectable } from '@nestjs/common';
import { AttemptStatus, AuthenticationData, IntentStatus } from '@paygrid/contracts';
import { minorUnitsFromDb } from '@paygrid/money';
import { composeStatement, Executor, expectingRows, OneStatement, rowsOf, Statement } from '@paygrid/platform';
import { PageWindow } from '../../common/paging';
import { applyTransition, conditionalUpdateSql } from '@paygrid/state-machine';
import { AttemptEvent, attemptMachine } from './payment-attempt.states';
import { PaymentAttempt, PaymentIntent, StoredCard } from './payment.types';

/** All SQL of payment intents and attempts; rows are mapped to domain types here and nowhere else. */
interface IntentRow {
  payment_intent_id: string;
  account_id: string;
  master_account_id: string;
  amount_minor: string;
  currency: string;
  status: IntentStatus;
  description: string;
  merchant_order_id: string;
  return_url: string;
  metadata: Record<string, string>;
  payment_orders: PaymentIntent['paymentOrders'];
  customer_id: string | null;
  client_secret: string;
  client_secret_expires_at: Date;
  captured_amount_minor: string;
  cancellation_reason: string | null;
  cancelled_at: Date | null;
  completed_at: Date | null;
  latest_attempt_id: string | null;
  ip_address: string | null;
  browser_info: PaymentIntent['browserInfo'];
  created_at: Date;
  updated_at: Date;
}

interface AttemptRow {
  attempt_id: string;
  payment_intent_id: string;
  account_id: string;
  command_id: string | null;
  attempt_status: AttemptStatus;
  amount_minor: string;
  currency: string;
  captured_amount_minor: string;
  refunded_amount_minor: string;
  auto_capture: boolean;
  card: StoredCard;
  saved_card_id: string | null;
  three_ds_action: string | null;
  processor: string;
  processor_reference: string | null;
  auth_code: string;
  arn: string;
  rrn: string;
  advice_code: string;
  authentication_data: AuthenticationData;
  failure_code: string;
  failure_message: string;
  cancellation_reason: string;
  authorized_at: Date | null;
  completed_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

/**
 * Every column of payment_attempts (the Record makes the list complete at compile time), for reads that
 * join an intent with its attempt: the attempt's columns come back as `att__<column>`.
 */
const ATTEMPT_COLUMNS = Object.keys({
  attempt_id: true,
  payment_intent_id: true,
  account_id: true,
  command_id: true,
  attempt_status: true,
  amount_minor: true,
  currency: true,
  captured_amount_minor: true,
  refunded_amount_minor: true,
  auto_capture: true,
  card: true,
  saved_card_id: true,
  three_ds_action: true,
  processor: true,
  processor_reference: true,
  auth_code: true,
  arn: true,
  rrn: true,
  advice_code: true,
  authentication_data: true,
  failure_code: true,
  failure_message: true,
  cancellation_reason: true,
  authorized_at: true,
  completed_at: true,
  created_at: true,
  updated_at: true,
} satisfies Record<keyof AttemptRow, true>) as (keyof AttemptRow)[];

const JOINED_ATTEMPT = ATTEMPT_COLUMNS.map((column) => `a.${column} AS att__${column}`).join(', ');

/** The intent ($1–$18; created and updated at $19), nothing when its creating command already made it. */
const INSERT_INTENT = `INSERT INTO payment_intents (payment_intent_id, account_id, master_account_id, create_command_id,
    amount_minor, currency, status, description, merchant_order_id, return_url, metadata, payment_orders, customer_id,
    client_secret, client_secret_expires_at, ip_address, browser_info, latest_attempt_id, created_at, updated_at)
  VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $19)
  ON CONFLICT (create_command_id) DO NOTHING
  RETURNING *`;

/** Its first attempt ($20–$26; amount, currency, account and creation time are the intent's), read from `i`. */
const INSERT_FIRST_ATTEMPT = `INSERT INTO payment_attempts (attempt_id, payment_intent_id, account_id, command_id, attempt_status,
      amount_minor, currency, auto_capture, card, saved_card_id, three_ds_action, processor, created_at, updated_at)
    SELECT $20, i.payment_intent_id, i.account_id, $21, 'INITIATED', i.amount_minor, i.currency, $22::boolean, $23::jsonb,
      $24, $25, $26, i.created_at, i.created_at
      FROM i
    RETURNING *`;

/** intentInsert's events are written only with the intent they announce. */
const INSERTED = 'EXISTS (SELECT 1 FROM i)';

/** A transition's target row and columns to write, serialised as the driver needs them. */
function attemptTransition(attemptId: string, set: Record<string, unknown>, updatedAt = new Date()) {
  const serialised = Object.fromEntries(
    Object.entries(set).map(([column, value]) => [
      column,
      typeof value === 'bigint' ? value.toString() : value !== null && typeof value === 'object' && !(value instanceof Date) ? JSON.stringify(value) : value,
    ]),
  );
  return {
    table: 'payment_attempts',
    id: attemptId,
    idColumn: 'attempt_id',
    statusColumn: 'attempt_status',
    set: { ...serialised, updated_at: updatedAt },
  };
}

function attemptOfJoined(row: Record<string, unknown>): PaymentAttempt {
  return toAttempt(Object.fromEntries(ATTEMPT_COLUMNS.map((column) => [column, row[`att__${column}`]])) as unknown as AttemptRow);
}

const date = (value: Date | null): Date | null => (value === null ? null : new Date(value));

export function toIntent(row: IntentRow): PaymentIntent {
  return {
    id: row.payment_intent_id,
    accountId: row.account_id,
    masterAccountId: row.master_account_id,
    amountMinor: minorUnitsFromDb(row.amount_minor),
    currency: row.currency,
    status: row.status,
    description: row.description,
    merchantOrderId: row.merchant_order_id,
    returnUrl: row.return_url,
    metadata: row.metadata ?? {},
    paymentOrders: row.payment_orders,
    customerId: row.customer_id,
    clientSecret: row.client_secret,
    clientSecretExpiresAt: new Date(row.client_secret_expires_at),
    capturedAmountMinor: minorUnitsFromDb(row.captured_amount_minor),
    cancellationReason: row.cancellation_reason,
    cancelledAt: date(row.cancelled_at),
    completedAt: date(row.completed_at),
    latestAttemptId: row.latest_attempt_id,
    ipAddress: row.ip_address,
    browserInfo: row.browser_info,
    createdAt: new Date(row.created_at),
    updatedAt: new Date(row.updated_at),
  };
}

/**
 * The intent as intentInsert writes it, each column its insert leaves to a default spelled out here as
 * the table declares it: its events can then be built before the insert, and go out in the same
 * statement. jsonb values are given as Postgres returns them (jsonbOrder).
 * card-create-records.int-spec.ts checks the events built from it against the rows read back.
 */
export function plannedIntent(intent: NewIntent, createdAt: Date): PaymentIntent {
  const { createCommandId: _command, ...columns } = intent;
  return {
    ...columns,
    metadata: jsonbOrder(intent.metadata),
    paymentOrders: jsonbOrder(intent.paymentOrders),
    browserInfo: jsonbOrder(intent.browserInfo),
    capturedAmountMinor: 0n,
    cancellationReason: null,
    cancelledAt: null,
    completedAt: null,
    createdAt,
    updatedAt: createdAt,
  };
}

/** The first attempt as intentInsert writes it with `intent` (see plannedIntent). */
export function plannedFirstAttempt(intent: PaymentIntent, first: FirstAttempt): PaymentAttempt {
  return {
    id: first.id,
    intentId: intent.id,
    accountId: intent.accountId,
    commandId: first.commandId,
    status: 'INITIATED',
    amountMinor: intent.amountMinor,
    currency: intent.currency,
    capturedAmountMinor: 0n,
    refundedAmountMinor: 0n,
    autoCapture: first.autoCapture,
    card: jsonbOrder(first.card),
    savedCardId: first.savedCardId,
    threeDsAction: first.threeDsAction,
    processor: first.processor,
    processorReference: null,
    authCode: '',
    arn: '',
    rrn: '',
    adviceCode: '',
    authenticationData: {} as AuthenticationData,
    failureCode: '',
    failureMessage: '',
    cancellationReason: '',
    authorizedAt: null,
    completedAt: null,
    createdAt: intent.createdAt,
    updatedAt: intent.createdAt,
  };
}

/**
 * A value as a jsonb column returns it once written as JSON.stringify writes it: Postgres keeps an
 * object's keys shortest first, then in byte order, so a view built from it serialises as one built from
 * the stored row.
 */
export function jsonbOrder<T>(value: T): T {
  return value === null ? value : (keysInJsonbOrder(JSON.parse(JSON.stringify(value))) as T);
}

function keysInJsonbOrder(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(keysInJsonbOrder);
  if (value === null || typeof value !== 'object') return value;
  const entries = Object.entries(value);
  entries.sort(([a], [b]) => Buffer.byteLength(a) - Buffer.byteLength(b) || Buffer.compare(Buffer.from(a), Buffer.from(b)));
  return Object.fromEntries(entries.map(([key, member]) => [key, keysInJsonbOrder(member)]));
}

export function toAttempt(row: AttemptRow): PaymentAttempt {
  return {
    id: row.attempt_id,
    intentId: row.payment_intent_id,
    accountId: row.account_id,
    commandId: row.command_id,
    status: row.attempt_status,
    amountMinor: minorUnitsFromDb(row.amount_minor),
    currency: row.currency,
    capturedAmountMinor: minorUnitsFromDb(row.captured_amount_minor),
    refundedAmountMinor: minorUnitsFromDb(row.refunded_amount_minor),
    autoCapture: row.auto_capture,
    card: row.card,
    savedCardId: row.saved_card_id,
    threeDsAction: row.three_ds_action,
    processor: row.processor,
    processorReference: row.processor_reference,
    authCode: row.auth_code,
    arn: row.arn,
    rrn: row.rrn,
    adviceCode: row.advice_code,
    authenticationData: row.authentication_data,
    failureCode: row.failure_code,
    failureMessage: row.failure_message,
    cancellationReason: row.cancellation_reason,
    authorizedAt: date(row.authorized_at),
    completedAt: date(row.completed_at),
    createdAt: new Date(row.created_at),
    updatedAt: new Date(row.updated_at),
  };
}

export type NewIntent = Pick<
  PaymentIntent,
  | 'id'
  | 'accountId'
  | 'masterAccountId'
  | 'amountMinor'
  | 'currency'
  | 'status'
  | 'description'
  | 'merchantOrderId'
  | 'returnUrl'
  | 'metadata'
  | 'paymentOrders'
  | 'customerId'
  | 'clientSecret'
  | 'clientSecretExpiresAt'
  | 'ipAddress'
  | 'browserInfo'
  | 'latestAttemptId'
> & { createCommandId: string | null };

export interface NewAttempt {
  id: string;
  intentId: string;
  accountId: string;
  commandId: string | null;
  amountMinor: bigint;
  currency: string;
  autoCapture: boolean;
  card: StoredCard;
  savedCardId: string | null;
  threeDsAction: string | null;
  processor: string;
}

/** An intent's first attempt, inserted with it: amount, currency and account are the intent's. */
export type FirstAttempt = Omit<NewAttempt, 'intentId' | 'accountId' | 'amountMinor' | 'currency'>;

export interface IntentFilter {
  accountId: string;
  status?: IntentStatus;
  createdFrom?: Date;
  createdTo?: Date;
}

export interface AttemptFilter {
  accountId: string;
  intentId?: string;
  /** Any of these; all when absent. */
  statuses?: readonly AttemptStatus[];
}

/** Columns an intent update may write (snake_case, as stored). */
export type IntentChanges = Partial<{
  amount_minor: bigint;
  currency: string;
  status: IntentStatus;
  description: string;
  merchant_order_id: string;
  return_url: string;
  metadata: string;
  payment_orders: string;
  customer_id: string | null;
  captured_amount_minor: bigint;
  cancellation_reason: string | null;
  cancelled_at: Date;
  completed_at: Date;
  latest_attempt_id: string;
  ip_address: string | null;
  browser_info: string | null;
}>;

/**
 * The UPDATE of an intent's `changes` (no RETURNING), conditional on its status still being
 * `expectedStatus`; `updatedAt` is a value, or 'now()' for the transaction's time.
 */
function intentUpdate(id: string, expectedStatus: IntentStatus, changes: IntentChanges, updatedAt: Date | 'now()'): Statement {
  const params: unknown[] = [id, expectedStatus];
  const assignments = Object.entries(changes)
    .filter(([, value]) => value !== undefined)
    .map(([column, value]) => {
      params.push(typeof value === 'bigint' ? value.toString() : value);
      return `${column} = $${params.length}`;
    });
  if (updatedAt === 'now()') assignments.push('updated_at = now()');
  else {
    params.push(updatedAt);
    assignments.push(`updated_at = $${params.length}`);
  }
  return {
    sql: `UPDATE payment_intents SET ${assignments.join(', ')} WHERE payment_intent_id = $1 AND status = $2`,
    params,
  };
}

/** The PaymentIntent field each plannable column of IntentChanges sets (the values are stored as given). */
const PLANNABLE_INTENT_COLUMNS = {
  amount_minor: 'amountMinor',
  currency: 'currency',
  status: 'status',
  description: 'description',
  merchant_order_id: 'merchantOrderId',
  return_url: 'returnUrl',
  customer_id: 'customerId',
  captured_amount_minor: 'capturedAmountMinor',
  cancellation_reason: 'cancellationReason',
  cancelled_at: 'cancelledAt',
  completed_at: 'completedAt',
  latest_attempt_id: 'latestAttemptId',
} satisfies Partial<Record<keyof IntentChanges, keyof PaymentIntent>>;

/**
 * `intent` as updateIntent leaves it when `changes` apply at `updatedAt`, exactly as it would read back:
 * the new row can then be known without reading it (plannedIntentUpdateStatement). Undefined when a
 * change is one Postgres transforms on the way in (the jsonb columns): that update is read back instead.
 */
export function plannedIntentUpdate(intent: PaymentIntent, changes: IntentChanges, updatedAt: Date): PaymentIntent | undefined {
  return withPlannedColumns({ ...intent, updatedAt }, changes, PLANNABLE_INTENT_COLUMNS);
}

/**
 * `row` with each of `changes` (columns, snake_case) written to its field by `fields`; undefined when a
 * column has no plannable field. Values are stored as given, so the row reads back as planned.
 */
function withPlannedColumns<T extends object>(row: T, changes: object, fields: Partial<Record<string, keyof T>>): T | undefined {
  const planned = { ...row } as Record<string, unknown>;
  for (const [column, value] of Object.entries(changes)) {
    if (value === undefined) continue;
    const field = fields[column];
    if (!field) return undefined;
    planned[field as string] = value;
  }
  return planned as T;
}

/** The PaymentAttempt field each plannable column of a transition's `set` writes (stored as given). */
const PLANNABLE_ATTEMPT_COLUMNS: Partial<Record<string, keyof PaymentAttempt>> = {
  arn: 'arn',
  auth_code: 'authCode',
  rrn: 'rrn',
  advice_code: 'adviceCode',
  failure_code: 'failureCode',
  failure_message: 'failureMessage',
  cancellation_reason: 'cancellationReason',
  captured_amount_minor: 'capturedAmountMinor',
  authorized_at: 'authorizedAt',
  completed_at: 'completedAt',
  processor_reference: 'processorReference',
  authentication_data: 'authenticationData',
};

/**
 * `attempt` as transitionAttempt leaves it after `event` with `set` at `updatedAt`, for an attempt whose
 * status the caller checked under its intent's row lock (see plannedIntentUpdate). Undefined when a column
 * is one Postgres transforms on the way in (jsonb).
 */
export function plannedAttemptTransition(
  attempt: PaymentAttempt,
  event: AttemptEvent,
  set: Record<string, unknown>,
  updatedAt: Date,
): PaymentAttempt | undefined {
  // authentication_data is jsonb: planned as Postgres gives it back (jsonbOrder), written as given.
  const asStored = set.authentication_data === undefined ? set : { ...set, authentication_data: jsonbOrder(set.authentication_data) };
  return withPlannedColumns({ ...attempt, status: attemptMachine.targetOf(event), updatedAt }, asStored, PLANNABLE_ATTEMPT_COLUMNS);
}

@Injectable()
export class PaymentRepository {
  /**
   * The insert of an intent and, when given, its first attempt, as one statement's parts (CTE `i`, the
   * intent, and `a`, the attempt): the attempt's insert reads the intent's RETURNING, so it happens only
   * if the intent was inserted; the attempt's foreign key is checked at the end of the statement, when
   * both rows exist. On a retry of the creating command nothing is inserted (`i` is empty). Both rows are
   * created at `createdAt`, so plannedIntent and plannedFirstAttempt give them exactly as written.
   */
  intentInsert(intent: NewIntent, first: FirstAttempt | undefined, createdAt: Date): OneStatement {
    const params: unknown[] = [
      intent.id,
      intent.accountId,
      intent.masterAccountId,
      intent.createCommandId,
      intent.amountMinor.toString(),
      intent.currency,
      intent.status,
      intent.description,
      intent.merchantOrderId,
      intent.returnUrl,
      JSON.stringify(intent.metadata),
      intent.paymentOrders === null ? null : JSON.stringify(intent.paymentOrders),
      intent.customerId,
      intent.clientSecret,
      intent.clientSecretExpiresAt,
      intent.ipAddress,
      intent.browserInfo === null ? null : JSON.stringify(intent.browserInfo),
      intent.latestAttemptId,
      createdAt,
    ];
    if (!first) return { ctes: [`i AS (${INSERT_INTENT})`], select: 'SELECT * FROM i', params, eventsOnlyIf: INSERTED };
    params.push(first.id, first.commandId, first.autoCapture, JSON.stringify(first.card), first.savedCardId, first.threeDsAction, first.processor);
    return {
      ctes: [`i AS (${INSERT_INTENT})`, `a AS (${INSERT_FIRST_ATTEMPT})`],
      select: `SELECT i.*, ${JOINED_ATTEMPT} FROM i LEFT JOIN a ON a.payment_intent_id = i.payment_intent_id`,
      params,
      eventsOnlyIf: INSERTED,
    };
  }

  /** What intentInsert's statement answered: the rows it wrote, or undefined when it wrote none (a retry). */
  insertedIntent(result: unknown, first: FirstAttempt | undefined): { intent: PaymentIntent; attempt: PaymentAttempt | null } | undefined {
    const [row] = rowsOf<IntentRow & Record<string, unknown>>(result);
    if (!row) return undefined;
    const attempt = first ? attemptOfJoined(row) : null;
    if (first && attempt?.id !== first.id) throw new Error(`PaymentAttempt ${first.id} was not inserted with its intent`);
    return { intent: toIntent(row), attempt };
  }

  /**
   * Inserts the intent (and its first attempt) inside the caller's transaction. When the command already
   * created the intent (a retry), nothing is inserted and that intent is returned instead, with created:
   * false (its attempt is the caller's to read).
   */
  async insertIntent(
    executor: Executor,
    intent: NewIntent,
    first?: FirstAttempt,
    createdAt = new Date(),
  ): Promise<{ intent: PaymentIntent; attempt: PaymentAttempt | null; created: boolean }> {
    const { sql, params } = composeStatement(this.intentInsert(intent, first, createdAt));
    const inserted = this.insertedIntent(await executor.query(sql, params), first);
    if (inserted) return { ...inserted, created: true };
    return { intent: await this.intentOfCommand(executor, intent.createCommandId), attempt: null, created: false };
  }

  /** The intent a command created (the one a retry of it finds). */
  private async intentOfCommand(executor: Executor, commandId: string | null): Promise<PaymentIntent> {
    const [existing] = rowsOf<IntentRow>(await executor.query('SELECT * FROM payment_intents WHERE create_command_id = $1', [commandId]));
    return toIntent(existing);
  }

  async findIntent(executor: Executor, id: string, accountId?: string): Promise<PaymentIntent | undefined> {
    const [row] = rowsOf<IntentRow>(
      await executor.query(
        'SELECT * FROM payment_intents WHERE payment_intent_id = $1 AND ($2::text IS NULL OR account_id = $2)',
        [id, accountId ?? null],
      ),
    );
    return row ? toIntent(row) : undefined;
  }

  /** Locks the intent row for the rest of the transaction: operations on one intent are serialised. */
  async lockIntent(executor: Executor, id: string, accountId?: string): Promise<PaymentIntent | undefined> {
    const [row] = rowsOf<IntentRow>(
      await executor.query(
        `SELECT * FROM payment_intents WHERE payment_intent_id = $1 AND ($2::text IS NULL OR account_id = $2) FOR UPDATE`,
        [id, accountId ?? null],
      ),
    );
    return row ? toIntent(row) : undefined;
  }

  /**
   * The intent and its latest attempt, both locked, in one statement (lockIntent then findAttempt in
   * one round trip). The attempt is locked too, not only joined: a statement reads other rows from the
   * snapshot it took before waiting for the intent's lock, so a joined attempt that a writer changed
   * meanwhile would be stale; locking it makes Postgres fetch its newest version (and re-check the
   * join against the newest intent). Only writers that hold the intent's lock update an attempt, so
   * this lock never waits on anyone the intent's did not; NO KEY UPDATE leaves foreign-key checks
   * (a refund or settlement referencing the attempt) unblocked. Undefined when the intent is missing,
   * has no attempt yet, or its latest attempt changed while this waited: the caller then reads them
   * one at a time.
   */
  async lockIntentWithLatestAttempt(
    executor: Executor,
    id: string,
    accountId?: string,
  ): Promise<{ intent: PaymentIntent; attempt: PaymentAttempt } | undefined> {
    const [row] = rowsOf<IntentRow & Record<string, unknown>>(
      await executor.query(
        `SELECT i.*, ${JOINED_ATTEMPT} FROM payment_intents i JOIN payment_attempts a ON a.attempt_id = i.latest_attempt_id
          WHERE i.payment_intent_id = $1 AND ($2::text IS NULL OR i.account_id = $2)
            FOR UPDATE OF i FOR NO KEY UPDATE OF a`,
        [id, accountId ?? null],
      ),
    );
    return row ? { intent: toIntent(row), attempt: attemptOfJoined(row) } : undefined;
  }

  /**
   * lockIntentWithLatestAttempt for several intents in one statement (a batch of settlements). The rows are
   * locked in intent id order, so two such batches never wait on each other in a cycle; an intent without
   * an attempt is not returned.
   */
  async lockIntentsWithLatestAttempts(
    executor: Executor,
    ids: readonly string[],
  ): Promise<{ intent: PaymentIntent; attempt: PaymentAttempt }[]> {
    const rows = rowsOf<IntentRow & Record<string, unknown>>(
      await executor.query(
        `SELECT i.*, ${JOINED_ATTEMPT} FROM payment_intents i JOIN payment_attempts a ON a.attempt_id = i.latest_attempt_id
          WHERE i.payment_intent_id = ANY($1::text[]) ORDER BY i.payment_intent_id
            FOR UPDATE OF i FOR NO KEY UPDATE OF a`,
        [ids],
      ),
    );
    return rows.map((row) => ({ intent: toIntent(row), attempt: attemptOfJoined(row) }));
  }

  async findIntentByClientSecret(executor: Executor, clientSecret: string): Promise<PaymentIntent | undefined> {
    const [row] = rowsOf<IntentRow>(
      await executor.query('SELECT * FROM payment_intents WHERE client_secret = $1', [clientSecret]),
    );
    return row ? toIntent(row) : undefined;
  }

  /**
   * Writes `changes` only if the intent is still in `expectedStatus` (the conditional update of
   * architecture rule 5); undefined when another writer got there first.
   */
  async updateIntent(
    executor: Executor,
    id: string,
    expectedStatus: IntentStatus,
    changes: IntentChanges,
  ): Promise<PaymentIntent | undefined> {
    const { sql, params } = intentUpdate(id, expectedStatus, changes, 'now()');
    const [row] = rowsOf<IntentRow>(await executor.query(`${sql} RETURNING *`, params));
    return row ? toIntent(row) : undefined;
  }

  /**
   * updateIntent as a statement to send without awaiting it (TransactionContext.send), for a caller that
   * holds the intent's row lock and planned the new row itself (plannedIntentUpdate): `updated_at` is
   * the plan's, and the statement fails, failing the transaction, unless it updated exactly that row.
   */
  plannedIntentUpdateStatement(expectedStatus: IntentStatus, changes: IntentChanges, planned: PaymentIntent): Statement {
    return expectingRows(
      intentUpdate(planned.id, expectedStatus, changes, planned.updatedAt),
      1,
      `the update of payment intent ${planned.id} from ${expectedStatus}`,
    );
  }

  async listIntents(executor: Executor, filter: IntentFilter, window: PageWindow): Promise<{ total: number; items: PaymentIntent[] }> {
    const where = `account_id = $1 AND ($2::text IS NULL OR status = $2)
      AND ($3::timestamptz IS NULL OR created_at >= $3) AND ($4::timestamptz IS NULL OR created_at <= $4)`;
    const params = [filter.accountId, filter.status ?? null, filter.createdFrom ?? null, filter.createdTo ?? null];
    const [{ total }] = await executor.query(`SELECT count(*)::int AS total FROM payment_intents WHERE ${where}`, params);
    const rows = rowsOf<IntentRow>(
      await executor.query(
        `SELECT * FROM payment_intents WHERE ${where} ORDER BY created_at DESC, payment_intent_id DESC LIMIT $5 OFFSET $6`,
        [...params, window.limit, window.offset],
      ),
    );
    return { total, items: rows.map(toIntent) };
  }

  async insertAttempt(executor: Executor, attempt: NewAttempt): Promise<{ attempt: PaymentAttempt; created: boolean }> {
    const inserted = rowsOf<AttemptRow>(
      await executor.query(
        `INSERT INTO payment_attempts (attempt_id, payment_intent_id, account_id, command_id, attempt_status, amount_minor,
           currency, auto_capture, card, saved_card_id, three_ds_action, processor)
         VALUES ($1, $2, $3, $4, 'INITIATED', $5, $6, $7, $8, $9, $10, $11)
         ON CONFLICT (command_id) DO NOTHING RETURNING *`,
        [
          attempt.id,
          attempt.intentId,
          attempt.accountId,
          attempt.commandId,
          attempt.amountMinor.toString(),
          attempt.currency,
          attempt.autoCapture,
          JSON.stringify(attempt.card),
          attempt.savedCardId,
          attempt.threeDsAction,
          attempt.processor,
        ],
      ),
    );
    if (inserted[0]) return { attempt: toAttempt(inserted[0]), created: true };
    const [existing] = rowsOf<AttemptRow>(
      await executor.query('SELECT * FROM payment_attempts WHERE command_id = $1', [attempt.commandId]),
    );
    return { attempt: toAttempt(existing), created: false };
  }

  async findAttempt(executor: Executor, id: string, accountId?: string): Promise<PaymentAttempt | undefined> {
    const [row] = rowsOf<AttemptRow>(
      await executor.query(
        'SELECT * FROM payment_attempts WHERE attempt_id = $1 AND ($2::text IS NULL OR account_id = $2)',
        [id, accountId ?? null],
      ),
    );
    return row ? toAttempt(row) : undefined;
  }

  /**
   * Several attempts by id in one statement, and how to read its rows: one answer per id in their order
   * (undefined: no such attempt). Run it on generic plans (GENERIC_PLANS): its custom plans know the array's
   * length, so Postgres planned it again on every call, longer than it ran (docs/performance.md §50).
   */
  findAttemptsStatement(ids: readonly string[]): {
    statement: Statement;
    read: (rows: unknown[]) => (PaymentAttempt | undefined)[];
  } {
    return {
      statement: { sql: 'SELECT * FROM payment_attempts WHERE attempt_id = ANY($1::text[])', params: [ids] },
      read: (rows) => {
        const byId = new Map((rows as AttemptRow[]).map((row) => [row.attempt_id, toAttempt(row)]));
        return ids.map((id) => byId.get(id));
      },
    };
  }

  async listAttempts(executor: Executor, filter: AttemptFilter, window: PageWindow): Promise<{ total: number; items: PaymentAttempt[] }> {
    const where = `account_id = $1 AND ($2::text IS NULL OR payment_intent_id = $2) AND ($3::text[] IS NULL OR attempt_status = ANY($3))`;
    const params = [filter.accountId, filter.intentId ?? null, filter.statuses ?? null];
    const [{ total }] = await executor.query(`SELECT count(*)::int AS total FROM payment_attempts WHERE ${where}`, params);
    const rows = rowsOf<AttemptRow>(
      await executor.query(
        `SELECT * FROM payment_attempts WHERE ${where} ORDER BY created_at DESC, attempt_id DESC LIMIT $4 OFFSET $5`,
        [...params, window.limit, window.offset],
      ),
    );
    return { total, items: rows.map(toAttempt) };
  }

  /** The attempt transition as a conditional update from the state table; refusals name the status. */
  async transitionAttempt(
    executor: Executor,
    attemptId: string,
    event: AttemptEvent,
    set: Record<string, unknown>,
  ): Promise<PaymentAttempt> {
    const row = await applyTransition(executor, attemptMachine, { ...attemptTransition(attemptId, set), event });
    return toAttempt(row as unknown as AttemptRow);
  }

  /**
   * transitionAttempt as a statement to send without awaiting it, for a planned move
   * (plannedAttemptTransition): conditional as always, and failing the transaction unless it moved
   * exactly that attempt.
   */
  plannedAttemptTransitionStatement(event: AttemptEvent, set: Record<string, unknown>, planned: PaymentAttempt): Statement {
    const update = conditionalUpdateSql({
      ...attemptTransition(planned.id, set, planned.updatedAt),
      from: attemptMachine.allowedFrom(event),
      to: attemptMachine.targetOf(event),
      returning: false,
    });
    return expectingRows(update, 1, `the ${event} of payment attempt ${planned.id}`);
  }

  /**
   * plannedAttemptTransitionStatement for an attempt whose intent the transaction has not locked or read:
   * the intent's row lock is taken first (an uncorrelated subquery, run once before the update, so locks
   * are taken in the order every other writer takes them: intent, then attempt), and the attempt moves
   * only while it is the latest attempt of `intent` as the caller knows it (`updated_at` unchanged: no
   * write to the intent since). Anything else fails the transaction (expectingRows), and the caller
   * runs its work again the careful way (PaymentFlow.moveLatestAttempt).
   */
  plannedLatestAttemptTransitionStatement(
    intent: Pick<PaymentIntent, 'id' | 'updatedAt'>,
    event: AttemptEvent,
    set: Record<string, unknown>,
    planned: PaymentAttempt,
  ): Statement {
    const transition = attemptTransition(planned.id, set, planned.updatedAt);
    const update = conditionalUpdateSql({ ...transition, from: attemptMachine.allowedFrom(event), to: attemptMachine.targetOf(event), returning: false });
    const at = update.params.length + 1;
    const latest = `attempt_id = (SELECT latest_attempt_id FROM payment_intents
      WHERE payment_intent_id = $${at} AND updated_at = $${at + 1} FOR UPDATE)`;
    const guarded = { sql: `${update.sql} AND (${latest})`, params: [...update.params, intent.id, intent.updatedAt] };
    return expectingRows(guarded, 1, `the ${event} of payment attempt ${planned.id} as recorded`);
  }

  /**
   * lockIntent, the check that the attempt is still the intent's latest, and transitionAttempt, in one
   * statement: the intent's row lock is taken first (the CTE is read by the update's condition before
   * the attempt row is written), and the update re-checks the attempt's status against its newest
   * version, as transitionAttempt's does. Undefined when anything refused it (intent missing, a newer
   * attempt, a status the event does not allow): the caller then takes the separate steps, whose
   * refusals say which, under the lock this statement already holds.
   */
  async transitionLatestAttempt(
    executor: Executor,
    intentId: string,
    attemptId: string,
    event: AttemptEvent,
    set: Record<string, unknown>,
  ): Promise<{ intent: PaymentIntent; attempt: PaymentAttempt } | undefined> {
    const update = conditionalUpdateSql({
      ...attemptTransition(attemptId, set),
      from: attemptMachine.allowedFrom(event),
      to: attemptMachine.targetOf(event),
      alsoWhere: 'attempt_id = (SELECT latest_attempt_id FROM i)',
    });
    const intentParam = update.params.length + 1;
    const [row] = rowsOf<IntentRow & Record<string, unknown>>(
      await executor.query(
        `WITH i AS (SELECT * FROM payment_intents WHERE payment_intent_id = $${intentParam} FOR UPDATE), a AS (${update.sql})
          SELECT i.*, ${JOINED_ATTEMPT} FROM i JOIN a ON true`,
        [...update.params, intentId],
      ),
    );
    return row ? { intent: toIntent(row), attempt: attemptOfJoined(row) } : undefined;
  }

  async addRefunded(executor: Executor, attemptId: string, amountMinor: bigint): Promise<void> {
    await executor.query(
      'UPDATE payment_attempts SET refunded_amount_minor = refunded_amount_minor + $2, updated_at = now() WHERE attempt_id = $1',
      [attemptId, amountMinor.toString()],
    );
  }
}
