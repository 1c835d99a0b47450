import { DataSource, EntityManager } from 'typeorm';
import { CommandReply } from '@paygrid/contracts';
import { ApiError } from '../errors/api-error';

/**
 * Applies a mutating command at most once (architecture rule 2).
 *
 * The `processed_commands` row is inserted first, in the same transaction as the effect. A concurrent
 * duplicate blocks on that row's unique key until the first commits, then finds it and gets the stored
 * reply; a duplicate arriving later (a gateway retry after a crash, a Kafka redelivery) gets it too.
 * Domain refusals (ApiError) are stored as well, so a repeat is answered the same way without
 * re-running; anything else rolls back and leaves no row, so the retry runs again.
 */
export async function runCommandOnce<R>(
  dataSource: DataSource,
  commandId: string | null,
  commandType: string,
  work: (manager: EntityManager) => Promise<R>,
): Promise<CommandReply<R>> {
  if (commandId === null) {
    return { ok: true, result: await dataSource.transaction(work) };
  }
  try {
    return await dataSource.transaction(async (manager) => {
      const claimed = await manager.query(
        `INSERT INTO processed_commands (command_id, command_type, reply) VALUES ($1, $2, 'null'::jsonb)
         ON CONFLICT (command_id) DO NOTHING RETURNING command_id`,
        [commandId, commandType],
      );
      if (claimed.length === 0) return storedReply<R>(manager, commandId);
      const reply: CommandReply<R> = { ok: true, result: await work(manager) };
      await manager.query('UPDATE processed_commands SET reply = $2 WHERE command_id = $1', [
        commandId,
        JSON.stringify(reply),
      ]);
      return reply;
    });
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    const refusal: CommandReply<R> = { ok: false, error: error.serialize() };
    await dataSource.query(
      `INSERT INTO processed_commands (command_id, command_type, reply) VALUES ($1, $2, $3)
       ON CONFLICT (command_id) DO NOTHING`,
      [commandId, commandType, JSON.stringify(refusal)],
    );
    return storedReply<R>(dataSource.manager, commandId);
  }
}

async function storedReply<R>(manager: EntityManager, commandId: string): Promise<CommandReply<R>> {
  const [row] = await manager.query('SELECT reply FROM processed_commands WHERE command_id = $1', [commandId]);
  return row.reply as CommandReply<R>;
}
