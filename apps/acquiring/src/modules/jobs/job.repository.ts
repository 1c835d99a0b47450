import { Injectable } from '@nestjs/common';
import { newId } from '@paygrid/ids';
import { Executor, rowsOf } from '@paygrid/platform';
import { JobKind, ScheduledJob } from './job.types';

/** All SQL of `scheduled_jobs`. */
interface JobRow {
  job_id: string;
  kind: JobKind;
  subject_id: string;
  due_at: Date;
  state: 'pending' | 'done';
  attempts: number;
}

function toJob(row: JobRow): ScheduledJob {
  return {
    jobId: row.job_id,
    kind: row.kind,
    subjectId: row.subject_id,
    dueAt: new Date(row.due_at),
    state: row.state,
    attempts: row.attempts,
  };
}

@Injectable()
export class JobRepository {
  /** One job per (kind, subject): scheduling the same work twice keeps the first. */
  async schedule(executor: Executor, kind: JobKind, subjectId: string, dueAt: Date): Promise<ScheduledJob> {
    const inserted = rowsOf<JobRow>(
      await executor.query(
        `INSERT INTO scheduled_jobs (job_id, kind, subject_id, due_at, state)
         VALUES ($1, $2, $3, $4, 'pending')
         ON CONFLICT (kind, subject_id) DO NOTHING RETURNING *`,
        [newId('job'), kind, subjectId, dueAt],
      ),
    );
    if (inserted[0]) return toJob(inserted[0]);
    const [existing] = rowsOf<JobRow>(
      await executor.query('SELECT * FROM scheduled_jobs WHERE kind = $1 AND subject_id = $2', [kind, subjectId]),
    );
    return toJob(existing);
  }

  async find(executor: Executor, jobId: string): Promise<ScheduledJob | undefined> {
    const [row] = rowsOf<JobRow>(await executor.query('SELECT * FROM scheduled_jobs WHERE job_id = $1', [jobId]));
    return row ? toJob(row) : undefined;
  }

  async findBySubject(executor: Executor, kind: JobKind, subjectId: string): Promise<ScheduledJob | undefined> {
    const [row] = rowsOf<JobRow>(
      await executor.query('SELECT * FROM scheduled_jobs WHERE kind = $1 AND subject_id = $2', [kind, subjectId]),
    );
    return row ? toJob(row) : undefined;
  }

  async markDone(executor: Executor, jobId: string): Promise<void> {
    await executor.query(
      `UPDATE scheduled_jobs SET state = 'done', updated_at = now(), last_error = NULL WHERE job_id = $1 AND state = 'pending'`,
      [jobId],
    );
  }

  async recordFailure(executor: Executor, jobId: string, message: string): Promise<void> {
    await executor.query(
      `UPDATE scheduled_jobs SET attempts = attempts + 1, last_error = $2, updated_at = now() WHERE job_id = $1`,
      [jobId, message.slice(0, 500)],
    );
  }

  /**
   * Pending work that may be missing from Redis: never enqueued, or past due for longer than `graceMs`
   * (a lost or failed BullMQ job). Oldest first, bounded per pass.
   */
  async needingEnqueue(executor: Executor, graceMs: number, limit: number): Promise<ScheduledJob[]> {
    const rows = rowsOf<JobRow>(
      await executor.query(
        `SELECT * FROM scheduled_jobs
          WHERE state = 'pending'
            AND (enqueued_at IS NULL
                 OR (due_at < now() - make_interval(secs => $1 / 1000.0)
                     AND enqueued_at < now() - make_interval(secs => $1 / 1000.0)))
          ORDER BY due_at LIMIT $2`,
        [graceMs, limit],
      ),
    );
    return rows.map(toJob);
  }

  async markEnqueued(executor: Executor, jobIds: string[]): Promise<void> {
    if (jobIds.length === 0) return;
    await executor.query('UPDATE scheduled_jobs SET enqueued_at = now() WHERE job_id = ANY($1)', [jobIds]);
  }
}
