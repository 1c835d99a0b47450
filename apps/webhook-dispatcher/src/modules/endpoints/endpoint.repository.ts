import { Injectable } from '@nestjs/common';
import { Executor, rowsOf } from '@paygrid/platform';
import { conditionalUpdateSql } from '@paygrid/state-machine';
import { Endpoint, EndpointRow } from './endpoint.types';
import { EndpointEvent, endpointMachine } from './endpoint.states';
import { WebhookSecretVault } from '../secrets/webhook-secret-vault';

/**
 * All SQL of webhook_endpoints and webhook_endpoint_secrets, raw, with a typed row mapper (toEndpoint).
 * Every method takes the executor to run on, so a command's writes share its transaction. Status is
 * written only by `transition` (a conditional update from endpoint.states.ts). A DELETED endpoint is
 * invisible to every finder.
 */

export type NewEndpoint = Pick<
  Endpoint,
  'endpointId' | 'accountId' | 'masterAccountId' | 'url' | 'description' | 'eventNames' | 'includeSubAccounts'
>;

export interface EndpointChanges {
  url?: string;
  description?: string | null;
  eventNames?: string[];
  includeSubAccounts?: boolean;
}

/** An endpoint the intake may fan an event out to, with what signing needs. */
export interface FanOutCandidate {
  endpoint: Endpoint;
  /** Active secrets in clear, newest first. */
  secrets: string[];
}

/** The sealed active secrets of the endpoint row `alias`, newest first, as one array column. */
export function activeSecretsOf(alias: string): string {
  return `ARRAY(SELECT s.sealed_secret FROM webhook_endpoint_secrets s
                 WHERE s.endpoint_id = ${alias}.endpoint_id AND (s.expires_at IS NULL OR s.expires_at > now())
                 ORDER BY s.secret_id DESC)`;
}

/** An endpoint row as `fanOutCandidatesOf` returns it: JSON, so its timestamps are strings; secrets still sealed. */
export type SealedCandidateRow = EndpointRow & { secrets: string[] };

/** Who may receive an event: its account and its master; the intake reads endpoints once per audience. */
export function audienceOf(accountId: string, masterAccountId: string): string {
  return `${accountId}\n${masterAccountId}`;
}

/**
 * The enabled endpoints that may receive an event of the row `event` (with `account_id` and `master_account_id`):
 * its account's own, and its master's that opted in to sub-accounts, each with its sealed active secrets
 * (newest first), as one JSON array column. The intake reads them in the statement that claims and stores
 * its chunk (event.repository.ts), so a fan-out costs no lookup of its own.
 */
export function fanOutCandidatesOf(event: string): string {
  return `COALESCE((SELECT jsonb_agg(to_jsonb(p) || jsonb_build_object('secrets', ${activeSecretsOf('p')})
                               ORDER BY p.created_at, p.endpoint_id)
                      FROM webhook_endpoints p
                     WHERE p.status = 'ENABLED'
                       AND (p.account_id = ${event}.account_id
                            OR (p.include_sub_accounts AND p.account_id = ${event}.master_account_id
                                AND ${event}.master_account_id <> ${event}.account_id))), '[]'::jsonb)`;
}

@Injectable()
export class EndpointRepository {
  constructor(private readonly secretVault: WebhookSecretVault) {}

  async insert(executor: Executor, endpoint: NewEndpoint): Promise<Endpoint> {
    const rows = await executor.query(
      `INSERT INTO webhook_endpoints
         (endpoint_id, account_id, master_account_id, url, description, event_names, include_sub_accounts, status)
       VALUES ($1, $2, $3, $4, $5, $6, $7, 'ENABLED') RETURNING *`,
      [
        endpoint.endpointId,
        endpoint.accountId,
        endpoint.masterAccountId,
        endpoint.url,
        endpoint.description,
        endpoint.eventNames,
        endpoint.includeSubAccounts,
      ],
    );
    return toEndpoint(rows[0]);
  }

  /** An endpoint that is not deleted and, for a merchant (`accountId`), belongs to it. */
  async findVisible(
    executor: Executor,
    endpointId: string,
    accountId: string | null,
  ): Promise<Endpoint | null> {
    const rows = await executor.query(
      `SELECT * FROM webhook_endpoints
        WHERE endpoint_id = $1 AND status <> 'DELETED' AND ($2::text IS NULL OR account_id = $2)`,
      [endpointId, accountId],
    );
    return rows.length > 0 ? toEndpoint(rows[0]) : null;
  }

  /** Locks the row for the rest of the transaction (rotation, update). */
  async lockVisible(
    executor: Executor,
    endpointId: string,
    accountId: string | null,
  ): Promise<Endpoint | null> {
    const rows = await executor.query(
      `SELECT * FROM webhook_endpoints
        WHERE endpoint_id = $1 AND status <> 'DELETED' AND ($2::text IS NULL OR account_id = $2) FOR UPDATE`,
      [endpointId, accountId],
    );
    return rows.length > 0 ? toEndpoint(rows[0]) : null;
  }

  async list(
    executor: Executor,
    accountId: string | null,
    limit: number,
    offset: number,
  ): Promise<{ endpoints: Endpoint[]; total: number }> {
    const rows: (EndpointRow & { total: string })[] = await executor.query(
      `SELECT *, count(*) OVER () AS total FROM webhook_endpoints
        WHERE status <> 'DELETED' AND ($1::text IS NULL OR account_id = $1)
        ORDER BY created_at, endpoint_id LIMIT $2 OFFSET $3`,
      [accountId, limit, offset],
    );
    const total = rows.length > 0 ? Number(rows[0].total) : await this.count(executor, accountId);
    return { endpoints: rows.map(toEndpoint), total };
  }

  /** An audience's candidates as `fanOutCandidatesOf` read them, with their secrets opened. */
  openCandidates(rows: SealedCandidateRow[]): FanOutCandidate[] {
    return rows.map((row) => ({
      endpoint: toEndpoint(row),
      secrets: row.secrets.map((sealed) => this.secretVault.open(row.endpoint_id, sealed)),
    }));
  }

  async update(executor: Executor, endpointId: string, changes: EndpointChanges): Promise<Endpoint> {
    const rows = rowsOf<EndpointRow>(
      await executor.query(
        `UPDATE webhook_endpoints SET
           url = COALESCE($2, url),
           description = CASE WHEN $3 THEN $4 ELSE description END,
           event_names = COALESCE($5, event_names),
           include_sub_accounts = COALESCE($6, include_sub_accounts),
           updated_at = now()
         WHERE endpoint_id = $1 AND status <> 'DELETED' RETURNING *`,
        [
          endpointId,
          changes.url ?? null,
          changes.description !== undefined,
          changes.description ?? null,
          changes.eventNames ?? null,
          changes.includeSubAccounts ?? null,
        ],
      ),
    );
    return toEndpoint(rows[0]);
  }

  /** The conditional status update; null when the endpoint is not in a status the event may leave. */
  async transition(
    executor: Executor,
    endpointId: string,
    event: EndpointEvent,
    set: Record<string, unknown> = {},
  ): Promise<Endpoint | null> {
    const statement = conditionalUpdateSql({
      table: 'webhook_endpoints',
      idColumn: 'endpoint_id',
      id: endpointId,
      from: endpointMachine.allowedFrom(event),
      to: endpointMachine.targetOf(event),
      set: { ...set, updated_at: new Date() },
    });
    const [row] = rowsOf<EndpointRow>(await executor.query(statement.sql, statement.params));
    return row ? toEndpoint(row) : null;
  }

  /**
   * First failure of a streak: remembered once, so "failing for 5 days" counts from there. Only that
   * first failure writes (and locks) the endpoint row; every later one reads it, so thousands of
   * deliveries retrying against a dead endpoint never queue on one hot row. Answers the endpoint as of now.
   */
  async markFailing(executor: Executor, endpointId: string, at: Date): Promise<Endpoint | null> {
    const [row] = rowsOf<EndpointRow>(
      await executor.query(
        `WITH started AS (
           UPDATE webhook_endpoints SET failing_since = $2
            WHERE endpoint_id = $1 AND failing_since IS NULL RETURNING *)
         SELECT * FROM started
         UNION ALL
         SELECT * FROM webhook_endpoints WHERE endpoint_id = $1 AND NOT EXISTS (SELECT 1 FROM started)`,
        [endpointId, at],
      ),
    );
    return row ? toEndpoint(row) : null;
  }

  /** A success ends the streak. Writes (and locks) only when there is one. */
  async clearFailing(executor: Executor, endpointId: string): Promise<void> {
    await executor.query(
      'UPDATE webhook_endpoints SET failing_since = NULL WHERE endpoint_id = $1 AND failing_since IS NOT NULL',
      [endpointId],
    );
  }

  /** Stores the secret sealed (secrets module): the clear value never reaches SQL. */
  async insertSecret(executor: Executor, endpointId: string, secret: string): Promise<void> {
    await executor.query('INSERT INTO webhook_endpoint_secrets (endpoint_id, sealed_secret) VALUES ($1, $2)', [
      endpointId,
      this.secretVault.seal(endpointId, secret),
    ]);
  }

  /** Every active secret expires at `expiresAt` at the latest (a rotation's overlap). */
  async expireActiveSecrets(executor: Executor, endpointId: string, expiresAt: Date): Promise<void> {
    await executor.query(
      `UPDATE webhook_endpoint_secrets SET expires_at = LEAST(COALESCE(expires_at, $2), $2)
        WHERE endpoint_id = $1 AND (expires_at IS NULL OR expires_at > now())`,
      [endpointId, expiresAt],
    );
  }

  private async count(executor: Executor, accountId: string | null): Promise<number> {
    const [row] = await executor.query(
      `SELECT count(*)::int AS n FROM webhook_endpoints WHERE status <> 'DELETED' AND ($1::text IS NULL OR account_id = $1)`,
      [accountId],
    );
    return row.n as number;
  }
}

/** Also reads a row that went through to_jsonb (timestamps as strings). */
export function toEndpoint(row: EndpointRow): Endpoint {
  return {
    endpointId: row.endpoint_id,
    accountId: row.account_id,
    masterAccountId: row.master_account_id,
    url: row.url,
    description: row.description,
    eventNames: row.event_names,
    includeSubAccounts: row.include_sub_accounts,
    status: row.status,
    disabledReason: row.disabled_reason,
    disabledAt: dateOrNull(row.disabled_at),
    failingSince: dateOrNull(row.failing_since),
    createdAt: new Date(row.created_at),
    updatedAt: new Date(row.updated_at),
  };
}

function dateOrNull(value: Date | string | null): Date | null {
  return value === null ? null : new Date(value);
}
