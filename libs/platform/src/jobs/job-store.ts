import { Injectable } from '@nestjs/common';
import { newId } from '@paygrid/ids';
import { Executor, rowsOf, Statement } from '../database/data-source';
import type { TransactionContext } from '../database/transaction-context';
import { flushOutboxWith, withBufferedOutbox } from '../outbox/outbox-writer';
import { JobRun, NewJob } from './job.types';

/**
 * All SQL of `durable_jobs`, the record of every job whose kind has no record of its own. A row is
 * `pending` until a run succeeds (`done`) or the last allowed run failed (`failed`, with its error, for
 * on-call). `attempts` counts the runs started; a run is claimed by moving `attempts` from n - 1 to n
 * under a lease, and every later write is conditional on `attempts = n`, so a stale or duplicated
 * BullMQ job (a stalled job redelivered, a second replica's enqueue) changes nothing.
 */
interface JobRow {
  job_id: string;
  kind: string;
  subject_id: string;
  attempts: number;
  due_at: Date;
}

/** A run to claim: its job and attempt number. */
export type RunRef = Pick<JobRun, 'id' | 'attempt'>;

export interface ClaimedJob {
  kind: string;
  subjectId: string;
}

/**
 * "Still pending", for statements that find their rows by key: written so that it does not match the predicate
 * of the partial index `durable_jobs_pending`, which the planner could otherwise pick for a key lookup. With
 * statistics taken while nothing was pending (a quiet hour, a machine without autovacuum) it believes that
 * index empty, and a full scan of an empty index looks cheaper than a probe of the primary key; with a backlog
 * the scan reads every pending job for each one it claims or finishes (docs/performance.md §30). `status` has
 * three values (its CHECK), so this is `status = 'pending'`. The due-runs read keeps the index's own predicate.
 */
const stillPending = (alias = ''): string => `${alias}status NOT IN ('done', 'failed')`;

/** What a run's success sets (JobStore.complete, completeWithin). */
const DONE = `status = 'done', last_error = NULL, completed_at = now()`;

/** A run's last write, conditional on the run ($1 job, $2 attempt; `extra` from $3): its job_id when it matched. */
function finishStatement(jobId: string, attempt: number, set: string, extra: unknown[]): Statement {
  return {
    sql: `UPDATE durable_jobs SET ${set}, lease_until = NULL, updated_at = now()
          WHERE job_id = $1 AND ${stillPending()} AND attempts = $2 RETURNING job_id`,
    params: [jobId, attempt, ...extra],
  };
}

const runOf = (row: JobRow): JobRun => ({
  kind: row.kind,
  id: row.job_id,
  attempt: row.attempts + 1,
  dueAt: new Date(row.due_at),
});

@Injectable()
export class JobStore {
  /**
   * The first run of a new job, and the statement that records it. A (kind, subject) already scheduled
   * records nothing; its run, enqueued all the same, then finds no row to claim and ends as `stale`.
   */
  planned(job: NewJob): { run: JobRun; record: Statement } {
    const run: JobRun = { kind: job.kind, id: newId('job'), attempt: 1, dueAt: job.dueAt };
    return {
      run,
      record: {
        sql: `INSERT INTO durable_jobs (job_id, kind, subject_id, due_at) VALUES ($1, $2, $3, $4)
         ON CONFLICT (kind, subject_id) DO NOTHING`,
        params: [run.id, job.kind, job.subjectId, job.dueAt],
      },
    };
  }

  /** Takes run `attempt` of a pending job under a lease; undefined if the run is stale or held by another worker. */
  async claim(
    executor: Executor,
    jobId: string,
    attempt: number,
    leaseMs: number,
  ): Promise<ClaimedJob | undefined> {
    const [claimed] = await this.claimAll(executor, [{ id: jobId, attempt }], leaseMs);
    return claimed;
  }

  /**
   * `claim` for several runs in one statement, one answer per run in their order. A run named twice (a
   * duplicated BullMQ job starting beside the local timer's) is claimed once: the first asker gets it.
   */
  async claimAll(
    executor: Executor,
    runs: readonly RunRef[],
    leaseMs: number,
  ): Promise<(ClaimedJob | undefined)[]> {
    const { last, read } = this.claimAllStatement(runs, leaseMs);
    return read(rowsOf<JobRow>(await executor.query(last.sql, last.params)));
  }

  /**
   * `claimAll` as a statement to write and a reading of its rows, for a caller that writes it with its
   * transaction's BEGIN and COMMIT (JobRunner: under generic plans, see there).
   */
  claimAllStatement(
    runs: readonly RunRef[],
    leaseMs: number,
  ): { last: Statement; read: (rows: JobRow[]) => (ClaimedJob | undefined)[] } {
    return {
      last: {
        sql: `UPDATE durable_jobs d
            SET attempts = r.attempt, lease_until = now() + $3 * interval '1 millisecond', updated_at = now()
           FROM unnest($1::text[], $2::int[]) AS r(job_id, attempt)
          WHERE d.job_id = r.job_id AND ${stillPending('d.')} AND d.attempts = r.attempt - 1
            AND (d.lease_until IS NULL OR d.lease_until < now())
          RETURNING d.job_id, d.kind, d.subject_id, d.attempts`,
        params: [runs.map((run) => run.id), runs.map((run) => run.attempt), leaseMs],
      },
      read: (rows) => {
        const claimed = new Map(rows.map((row) => [`${row.job_id}-${row.attempts}`, row]));
        return runs.map((run) => {
          const key = `${run.id}-${run.attempt}`;
          const row = claimed.get(key);
          claimed.delete(key);
          return row ? { kind: row.kind, subjectId: row.subject_id } : undefined;
        });
      },
    };
  }

  /** Keeps a long run's lease alive; false once the run is no longer this worker's. */
  async renew(executor: Executor, jobId: string, attempt: number, leaseMs: number): Promise<boolean> {
    const rows = rowsOf(
      await executor.query(
        `UPDATE durable_jobs SET lease_until = now() + $3 * interval '1 millisecond'
          WHERE job_id = $1 AND ${stillPending()} AND attempts = $2 RETURNING job_id`,
        [jobId, attempt, leaseMs],
      ),
    );
    return rows.length === 1;
  }

  async complete(executor: Executor, jobId: string, attempt: number): Promise<boolean> {
    return this.finish(executor, jobId, attempt, DONE, []);
  }

  /**
   * `complete` as part of `tx` (a handler's own last transaction, `JobRunInfo.completeIn`), with the events
   * buffered so far: sent, not awaited, so it rides with COMMIT or the next awaited statement instead of
   * costing a round trip. Resolves once answered: whether it found the run still this worker's; false too
   * when the statement failed (the transaction then fails with it, and the run with the transaction).
   */
  completeWithin(tx: TransactionContext, jobId: string, attempt: number): Promise<boolean> {
    const statement = withBufferedOutbox(tx.manager, finishStatement(jobId, attempt, DONE, []));
    return tx.sendReading(statement).then((rows) => rows?.length === 1);
  }

  /** Gives up on the job: it stays `failed` with its last error for on-call. */
  async fail(executor: Executor, jobId: string, attempt: number, error: string): Promise<boolean> {
    return this.finish(executor, jobId, attempt, `status = 'failed', last_error = $3, completed_at = now()`, [
      error,
    ]);
  }

  /** Run `attempt` failed: the next run is due after `delayMs`. Returns that run, or undefined if stale. */
  async retryLater(
    executor: Executor,
    jobId: string,
    attempt: number,
    error: string,
    delayMs: number,
  ): Promise<JobRun | undefined> {
    const [row] = rowsOf<JobRow>(
      await executor.query(
        `UPDATE durable_jobs SET lease_until = NULL, last_error = $3, due_at = now() + $4 * interval '1 millisecond',
                updated_at = now()
          WHERE job_id = $1 AND ${stillPending()} AND attempts = $2
          RETURNING job_id, kind, subject_id, attempts, due_at`,
        [jobId, attempt, error, delayMs],
      ),
    );
    return row ? runOf(row) : undefined;
  }

  /** Pending runs that are due and that no live lease holds: what Redis must hold a job for. */
  async dueRuns(executor: Executor, page: { limit: number; after?: JobRun }): Promise<JobRun[]> {
    const rows = rowsOf<JobRow>(
      await executor.query(
        `SELECT job_id, kind, subject_id, attempts, due_at FROM durable_jobs
          WHERE status = 'pending' AND due_at <= now() AND (lease_until IS NULL OR lease_until < now())
            AND ($2::timestamptz IS NULL OR (due_at, job_id) > ($2, $3))
          ORDER BY due_at, job_id LIMIT $1`,
        [page.limit, page.after?.dueAt ?? null, page.after?.id ?? null],
      ),
    );
    return rows.map(runOf);
  }

  /** Kinds that still have work to do: each needs a handler before the app may start. */
  async pendingKinds(executor: Executor): Promise<string[]> {
    const rows = rowsOf<{ kind: string }>(
      await executor.query(`SELECT DISTINCT kind FROM durable_jobs WHERE status = 'pending'`),
    );
    return rows.map((row) => row.kind);
  }

  /** For the gauges; both statuses have a partial index. */
  async countOpen(executor: Executor): Promise<{ pending: number; failed: number }> {
    const [row] = rowsOf<{ pending: number; failed: number }>(
      await executor.query(
        `SELECT (SELECT count(*)::int FROM durable_jobs WHERE status = 'pending') AS pending,
                (SELECT count(*)::int FROM durable_jobs WHERE status = 'failed') AS failed`,
      ),
    );
    return row;
  }

  /**
   * The run's last write. Inside a transaction that buffered events (a handler recording its run done in
   * its own last transaction, `JobRunInfo.completeIn`), the events are written by the same statement
   * (flushOutboxWith): a settlement's event and its run's `done` cost one round trip, not two.
   */
  private async finish(
    executor: Executor,
    jobId: string,
    attempt: number,
    set: string,
    extra: unknown[],
  ): Promise<boolean> {
    const rows = rowsOf(await flushOutboxWith(executor, finishStatement(jobId, attempt, set, extra)));
    return rows.length === 1;
  }
}
