import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { CommandEnvelope, CommandReply } from '@paygrid/contracts';
import { ApiError, runCommandOnce, SerializedApiError } from '@paygrid/platform';
import { JobScheduler } from '../modules/jobs/job-scheduler';
import { JobKind, ScheduledJob } from '../modules/jobs/job.types';
import { AcquiringResource, asApiError } from './acquiring-errors';

/**
 * A database transaction of the acquiring service, with the two things every write needs: delayed work
 * recorded in the same transaction (and handed to BullMQ only after commit), and the state-machine
 * library's refusals turned into API errors while still inside, so the command ledger stores them.
 */
export class Tx {
  readonly scheduled: ScheduledJob[] = [];

  constructor(
    readonly manager: EntityManager,
    private readonly scheduler: JobScheduler,
  ) {}

  async schedule(kind: JobKind, subjectId: string, dueAt: Date): Promise<void> {
    this.scheduled.push(await this.scheduler.schedule(this.manager, kind, subjectId, dueAt));
  }
}

@Injectable()
export class UnitOfWork {
  constructor(
    private readonly dataSource: DataSource,
    private readonly scheduler: JobScheduler,
  ) {}

  /**
   * Applies `work` at most once per command id (the platform's command ledger, in the same transaction);
   * a repeat gets the stored reply. `applied` tells whether this call did the work.
   */
  async once<R>(
    command: Pick<CommandEnvelope, 'command_id' | 'type'>,
    resource: AcquiringResource,
    work: (tx: Tx) => Promise<R>,
  ): Promise<{ result: R; applied: boolean }> {
    let tx: Tx | undefined;
    const reply = await runCommandOnce(this.dataSource, command.command_id, command.type, async (manager) => {
      tx = new Tx(manager, this.scheduler);
      try {
        return await work(tx);
      } catch (error) {
        throw asApiError(error, resource);
      }
    });
    if (!reply.ok) throw ApiError.from(reply.error as SerializedApiError);
    const committed = tx as Tx | undefined;
    if (committed) await this.scheduler.enqueue(committed.scheduled);
    return { result: reply.result, applied: committed !== undefined };
  }

  /** A plain transaction for work that no command id guards (jobs, the first step of a payment). */
  async transaction<R>(resource: AcquiringResource, work: (tx: Tx) => Promise<R>): Promise<R> {
    let tx: Tx | undefined;
    const result = await this.dataSource.transaction(async (manager) => {
      tx = new Tx(manager, this.scheduler);
      try {
        return await work(tx);
      } catch (error) {
        throw asApiError(error, resource);
      }
    });
    const committed = tx as Tx | undefined;
    if (committed) await this.scheduler.enqueue(committed.scheduled);
    return result;
  }

  /** The stored reply of a command already applied, or undefined. */
  async storedReply<R>(commandId: string | null): Promise<CommandReply<R> | undefined> {
    if (commandId === null) return undefined;
    const [row] = await this.dataSource.query('SELECT reply FROM processed_commands WHERE command_id = $1', [commandId]);
    const reply = row?.reply as CommandReply<R> | null | undefined;
    return reply ?? undefined;
  }
}

/** A stored reply as the handler's own outcome: its result, or its refusal thrown again. */
export function replayOf<R>(reply: CommandReply<R>): R {
  if (!reply.ok) throw ApiError.from(reply.error as SerializedApiError);
  return reply.result;
}
