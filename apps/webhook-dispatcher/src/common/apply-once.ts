import { DataSource, EntityManager } from 'typeorm';
import { CommandEnvelope } from '@paygrid/contracts';
import { ApiError, runCommandOnce } from '@paygrid/platform';

/**
 * The command ledger (apply a command_id at most once, answer repeats with the stored reply), for
 * handlers that must do something before the transaction (resolve a URL's host) or after it commits
 * (enqueue the deliveries it made due: a job that ran before the commit would find nothing to send).
 * `@CommandHandler(type, {mutates: true})` cannot, since it wraps the whole handler in the transaction.
 */
export async function applyOnce<R>(
  dataSource: DataSource,
  command: CommandEnvelope,
  work: (manager: EntityManager) => Promise<R>,
): Promise<R> {
  const reply = await runCommandOnce(dataSource, command.command_id, command.type, work);
  if (reply.ok) return reply.result;
  throw ApiError.from({
    status: reply.error.status,
    body: reply.error.body as never,
    headers: reply.error.headers,
  });
}
