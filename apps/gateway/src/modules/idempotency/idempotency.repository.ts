import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { rowsOf } from '@paygrid/platform';

/** All SQL of the idempotency records. */
export interface IdempotencyRecord {
  idempotency_key: string;
  account_id: string;
  method: string;
  path: string;
  request_hash: string;
  command_id: string;
  state: 'processing' | 'completed';
  response_status: number | null;
  response_body: string | null;
}

export interface NewRecord {
  key: string;
  accountId: string;
  method: string;
  path: string;
  requestHash: string;
  commandId: string;
  lockMs: number;
}

@Injectable()
export class IdempotencyRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** Inserts a processing record; false when the key already has one. One statement, one commit. */
  async insertProcessing(record: NewRecord): Promise<boolean> {
    const inserted = await this.dataSource.query(
      `INSERT INTO idempotency_records
         (idempotency_key, account_id, method, path, request_hash, command_id, state, locked_until)
       VALUES ($1, $2, $3, $4, $5, $6, 'processing', now() + make_interval(secs => $7 / 1000.0))
       ON CONFLICT (idempotency_key) DO NOTHING RETURNING idempotency_key`,
      [
        record.key,
        record.accountId,
        record.method,
        record.path,
        record.requestHash,
        record.commandId,
        record.lockMs,
      ],
    );
    return inserted.length === 1;
  }

  /**
   * Reuses a record older than the retention period (not yet pruned) for a new request with the
   * same key, as if it had been deleted. Only the conflict path pays for this check.
   */
  async reclaimExpired(record: NewRecord, retentionHours: number): Promise<boolean> {
    const result = await this.dataSource.query(
      `UPDATE idempotency_records
          SET account_id = $2, method = $3, path = $4, request_hash = $5, command_id = $6, state = 'processing',
              locked_until = now() + make_interval(secs => $7 / 1000.0), response_status = NULL,
              response_body = NULL, created_at = now(), completed_at = NULL
        WHERE idempotency_key = $1 AND created_at < now() - make_interval(hours => $8)
        RETURNING idempotency_key`,
      [record.key, record.accountId, record.method, record.path, record.requestHash, record.commandId, record.lockMs, retentionHours],
    );
    return rowsOf(result).length === 1;
  }

  async find(key: string): Promise<IdempotencyRecord | undefined> {
    const [row] = await this.dataSource.query(
      'SELECT * FROM idempotency_records WHERE idempotency_key = $1',
      [key],
    );
    return row;
  }

  /** Takes over a processing record whose holder gave up or died (its lock expired). */
  async takeOver(key: string, lockMs: number): Promise<boolean> {
    const result = await this.dataSource.query(
      `UPDATE idempotency_records SET locked_until = now() + make_interval(secs => $2 / 1000.0)
        WHERE idempotency_key = $1 AND state = 'processing' AND locked_until <= now()
        RETURNING idempotency_key`,
      [key, lockMs],
    );
    return rowsOf(result).length === 1;
  }

  async complete(key: string, status: number, body: string): Promise<void> {
    await this.dataSource.query(
      `UPDATE idempotency_records
          SET state = 'completed', response_status = $2, response_body = $3, completed_at = now(), locked_until = NULL
        WHERE idempotency_key = $1`,
      [key, status, body],
    );
  }

  /** Lets the next retry take over at once (the command's outcome is unknown, not final). */
  async release(key: string): Promise<void> {
    await this.dataSource.query(
      `UPDATE idempotency_records SET locked_until = now() WHERE idempotency_key = $1 AND state = 'processing'`,
      [key],
    );
  }

  /** Removes a claim under which nothing ran (the request failed validation): the key is free again. */
  async forget(key: string): Promise<void> {
    await this.dataSource.query(`DELETE FROM idempotency_records WHERE idempotency_key = $1 AND state = 'processing'`, [key]);
  }

  async pruneOlderThan(hours: number): Promise<number> {
    const result = await this.dataSource.query(
      'DELETE FROM idempotency_records WHERE created_at < now() - make_interval(hours => $1)',
      [hours],
    );
    return Array.isArray(result) && typeof result[1] === 'number' ? result[1] : 0;
  }
}
