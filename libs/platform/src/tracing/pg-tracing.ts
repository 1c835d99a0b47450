import { Client, ClientConfig } from 'pg';
import { Attributes, context, Context, Span, SpanKind, trace } from '@opentelemetry/api';
import { scrubText } from '../logging/redaction';
import { markFailed, tracer } from './tracer';
import { forgetPreparedOnResultChange, preparedQuery } from '../database/prepared-statements';
import { coalesceWritesThisTick } from '../database/write-coalescing';

/**
 * Database spans at the driver: TracedPgClient is the pg Client the pool creates (node-postgres's
 * `Client` pool option, passed through TypeORM's `extra`), so every query of every repository, the
 * command ledger and the outbox is seen without touching them.
 *
 * A transaction is one `transaction` span (from BEGIN to COMMIT or ROLLBACK, with its statement count)
 * whose statements are its children, named like `INSERT outbox`; a query outside a transaction is one
 * span. Only work that is already part of a recorded trace is traced: a query with no recording span
 * active (the outbox relay's and reconcilers' polling, health checks, tracing switched off) costs one
 * context lookup and nothing else. Statement texts are the parameterised SQL (values are never
 * recorded), passed through the card-data scrubber all the same.
 */
const OPEN_TRANSACTION = Symbol('paygrid.pg.transaction');
const TRANSACTION_START = /^\s*(START\s+TRANSACTION|BEGIN)\b/i;
/** COMMIT alone, or as the last statement of a simple query. */
const TRANSACTION_END = /(?:^|;)\s*(COMMIT|ROLLBACK|END)\s*;?\s*$/i;
const TARGET = /\b(?:INTO|UPDATE|FROM)\s+("?[\w.]+"?)/i;
/** A SELECT of a function and nothing else: `SELECT pg_notify(...)`, `SELECT pg_try_advisory_xact_lock(...)`. */
const CALLED = /^\s*SELECT\s+([\w.]+)\s*\(/i;
const MAX_STATEMENT_LENGTH = 2000;

interface OpenTransaction {
  span: Span;
  statements: number;
}

type QueryFunction = (this: Client, ...args: unknown[]) => unknown;
type TracedState = Client & { [OPEN_TRANSACTION]?: OpenTransaction };

export class TracedPgClient extends Client {
  constructor(config?: string | ClientConfig) {
    super(config);
    // A connection's error event with no listener would throw out of its socket handler and end the
    // process. The pool listens while a client is idle and TypeORM while one is checked out, but a new
    // connection is handed over from inside its own socket handler (its ReadyForQuery), and TypeORM
    // attaches its listener a microtask later: a FATAL that Postgres sent right behind it (a backend
    // terminated as it started) is emitted in between. The client is dead either way: its queries fail
    // (not queryable) and their callers see that; this listener only keeps the process alive.
    this.on('error', ignoreUnownedError);
  }
}

function ignoreUnownedError(): void {
  // The owners (pool, TypeORM) log and discard the client when they listen; see TracedPgClient.
}

/** The traced client whose parameterised queries are named prepared statements (database/prepared-statements.ts). */
export class PreparedPgClient extends TracedPgClient {}

const driverQuery = Client.prototype.query as unknown as QueryFunction;

/** Sends a query through the driver: `[text, values]` named when the client prepares statements. */
function send(client: Client, args: unknown[]): unknown {
  coalesceWritesThisTick(client);
  const [text, values] = args;
  if (
    !(client instanceof PreparedPgClient) ||
    typeof text !== 'string' ||
    !Array.isArray(values) ||
    args.length > 2
  )
    return driverQuery.apply(client, args);
  const result = driverQuery.call(client, preparedQuery(client, text, values));
  if (result instanceof Promise)
    result.then(undefined, (error: unknown) => forgetPreparedOnResultChange(client, error));
  return result;
}

function tracedQuery(this: TracedState, ...args: unknown[]): unknown {
  const [text, values, callback] = args;
  // Traced: the promise form with SQL text, which is how TypeORM and the platform query.
  if (typeof text !== 'string' || typeof values === 'function' || callback !== undefined) {
    return send(this, args);
  }
  const open = this[OPEN_TRANSACTION];
  if (open) {
    const end = TRANSACTION_END.exec(text);
    if (end) {
      this[OPEN_TRANSACTION] = undefined;
      open.span.setAttributes({
        'paygrid.db.statements': open.statements,
        'paygrid.db.transaction.end': end[1].toUpperCase(),
      });
      return settle(send(this, args), open.span);
    }
    open.statements += 1;
    if (!open.span.isRecording()) return send(this, args);
    return statement(this, args, text, trace.setSpan(context.active(), open.span));
  }
  const parent = context.active();
  if (!trace.getSpan(parent)?.isRecording()) return send(this, args);
  if (TRANSACTION_START.test(text)) {
    const span = tracer().startSpan(
      'transaction',
      { kind: SpanKind.CLIENT, attributes: databaseAttributes(this) },
      parent,
    );
    this[OPEN_TRANSACTION] = { span, statements: 0 };
    return send(this, args);
  }
  return statement(this, args, text, parent);
}

Object.defineProperty(TracedPgClient.prototype, 'query', {
  value: tracedQuery,
  writable: true,
  configurable: true,
});

function statement(client: Client, args: unknown[], text: string, parent: Context): unknown {
  const operation = /^\s*(\w+)/.exec(text)?.[1]?.toUpperCase() ?? 'QUERY';
  const target = (TARGET.exec(text) ?? CALLED.exec(text))?.[1]?.replace(/"/g, '');
  const span = tracer().startSpan(
    target ? `${operation} ${target}` : operation,
    {
      kind: SpanKind.CLIENT,
      attributes: {
        ...databaseAttributes(client),
        'db.operation.name': operation,
        'db.query.text': scrubText(text.trim().slice(0, MAX_STATEMENT_LENGTH)),
      },
    },
    parent,
  );
  return settle(send(client, args), span);
}

/** Ends `span` when the query settles; the caller gets the driver's own promise, untouched. */
function settle(result: unknown, span: Span): unknown {
  if (!(result instanceof Promise)) {
    span.end();
    return result;
  }
  result.then(
    () => span.end(),
    (error: unknown) => {
      markFailed(span, error);
      span.end();
    },
  );
  return result;
}

function databaseAttributes(client: Client): Attributes {
  return { 'db.system.name': 'postgresql', 'db.namespace': client.database ?? '' };
}
