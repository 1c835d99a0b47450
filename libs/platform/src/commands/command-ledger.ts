import { DataSource } from 'typeorm';
import { Logger } from 'pino';
import { CommandReply } from '@paygrid/contracts';
import { ApiError } from '../errors/api-error';
import { Executor } from '../database/data-source';
import { runInTransaction, TransactionContext } from '../database/transaction-context';

/**
 * Applies a mutating command at most once (architecture rule 2), with one ledger write per command.
 *
 * The effect runs first and the `processed_commands` row, reply included, is inserted last in the
 * same transaction. A concurrent duplicate blocks on that row's unique key (or earlier, on a domain
 * row's) until the first commits, fails on the key, which rolls its own work back, and answers the
 * stored reply; a duplicate arriving later (a gateway retry after a crash, a Kafka redelivery) gets it too.
 * Domain refusals (ApiError) are stored as well, so a repeat is answered the same way without
 * re-running; anything else rolls back and leaves no row, so the retry runs again.
 *
 * Round trips for a first application: the effect's own statements (BEGIN rides with the first), then
 * one INSERT, which also writes the effect's buffered outbox rows, sent with COMMIT
 * (TransactionContext.finishWith).
 */
export interface LedgerOutcome<R> {
  reply: CommandReply<R>;
  /** Whether this call did the work (false: the stored reply of an earlier or concurrent run). */
  applied: boolean;
}

export interface CommandIdentity {
  command_id: string | null;
  type: string;
}

/** Turns a service's domain errors (a refused transition, say) into the ApiError clients see. */
export type ErrorMapper = (error: unknown) => unknown;
const unmapped: ErrorMapper = (error) => error;

export async function applyCommandOnce<R>(
  dataSource: DataSource,
  logger: Logger,
  command: CommandIdentity,
  work: (tx: TransactionContext) => Promise<R>,
  mapError: ErrorMapper = unmapped,
): Promise<LedgerOutcome<R>> {
  const commandId = command.command_id;
  try {
    const result = await runInTransaction(dataSource, logger, async (tx) => {
      let value: R;
      try {
        value = await work(tx);
      } catch (error) {
        throw mapError(error);
      }
      if (commandId !== null) {
        const reply: CommandReply<R> = { ok: true, result: value };
        // Sent with the effect's events and COMMIT, in one round trip. A duplicate that got here first
        // fails it on the key, which rolls the effect back (answered from the winner's row below).
        tx.finishWith({
          sql: `INSERT INTO processed_commands (command_id, command_type, reply) VALUES ($1, $2, $3)`,
          params: [commandId, command.type, JSON.stringify(reply)],
        });
      }
      return value;
    });
    return { reply: { ok: true, result }, applied: true };
  } catch (error) {
    if (commandId === null) {
      if (error instanceof ApiError) return { reply: { ok: false, error: error.serialize() }, applied: true };
      throw error;
    }
    if (error instanceof ApiError) {
      await dataSource.query(
        `INSERT INTO processed_commands (command_id, command_type, reply) VALUES ($1, $2, $3)
         ON CONFLICT (command_id) DO NOTHING`,
        [commandId, command.type, JSON.stringify({ ok: false, error: error.serialize() })],
      );
    }
    // A duplicate that lost the race (on the ledger row or on a domain row's unique key) answers what
    // the winner stored; a failure with nothing stored propagates, and a retry runs the command again.
    const stored = await storedCommandReply<R>(dataSource, commandId);
    if (stored) return { reply: stored, applied: false };
    throw error;
  }
}

/** The stored reply of a command already applied, or undefined. */
export async function storedCommandReply<R>(
  executor: Executor,
  commandId: string | null,
): Promise<CommandReply<R> | undefined> {
  if (commandId === null) return undefined;
  const [row] = await executor.query('SELECT reply FROM processed_commands WHERE command_id = $1', [
    commandId,
  ]);
  return (row?.reply as CommandReply<R> | undefined) ?? undefined;
}

/** A reply as the handler's own outcome: its result, or its refusal thrown again. */
export function resultOrThrow<R>(reply: CommandReply<R>): R {
  if (reply.ok) return reply.result;
  throw ApiError.from({
    status: reply.error.status,
    body: reply.error.body as never,
    headers: reply.error.headers,
  });
}
