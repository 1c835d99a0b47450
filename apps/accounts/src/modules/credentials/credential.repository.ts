import { Injectable } from '@nestjs/common';
import { AccountStatus, BusinessCode } from '@paygrid/contracts';
import { Executor, rowsOf } from '@paygrid/platform';
import { isUuid } from '@paygrid/ids';
import { CredentialEntity } from './credential.entity';

/**
 * All SQL of the api_credentials table. Nothing here ever sees a clear API key: callers pass the hash.
 */
export type NewCredential = Omit<CredentialEntity, 'createdAt' | 'revokedAt'>;

/** What token issuance needs about the key's account, read in the same query as the key. */
export interface CredentialWithAccount extends CredentialEntity {
  account: {
    shortReferenceId: string;
    parentAccountId: string | null;
    businessCode: BusinessCode[];
    status: AccountStatus;
  };
}

type Row = Record<string, unknown>;

/** Enough for an operator's screen; the CLI filters by account for more. */
const LIST_LIMIT = 1000;

@Injectable()
export class CredentialRepository {
  async findByClientIdWithAccount(executor: Executor, clientId: string): Promise<CredentialWithAccount | null> {
    const rows = await executor.query(
      `SELECT c.*, a.short_reference_id, a.parent_account_id, a.business_code, a.status AS account_status
       FROM api_credentials c JOIN accounts a ON a.account_id = c.account_id
       WHERE c.client_id = $1`,
      [clientId],
    );
    if (rows.length === 0) return null;
    const row = rows[0] as Row;
    return Object.assign(toEntity(row), {
      account: {
        shortReferenceId: row.short_reference_id as string,
        parentAccountId: (row.parent_account_id as string | null) ?? null,
        businessCode: row.business_code as BusinessCode[],
        status: row.account_status as AccountStatus,
      },
    });
  }

  async findByClientId(executor: Executor, clientId: string): Promise<CredentialEntity | null> {
    const rows = await executor.query('SELECT * FROM api_credentials WHERE client_id = $1', [clientId]);
    return rows.length > 0 ? toEntity(rows[0]) : null;
  }

  async findByKeyOrClientId(executor: Executor, ref: { keyId?: string; clientId?: string }): Promise<CredentialEntity | null> {
    const rows = await executor.query('SELECT * FROM api_credentials WHERE key_id = $1 OR client_id = $2', [
      ref.keyId ?? null,
      ref.clientId ?? null,
    ]);
    return rows.length > 0 ? toEntity(rows[0]) : null;
  }

  /** Null when the client id is taken (the caller mints another or refuses). */
  async insert(executor: Executor, credential: NewCredential): Promise<CredentialEntity | null> {
    const rows = rowsOf<Row>(
      await executor.query(
        `INSERT INTO api_credentials (key_id, client_id, account_id, key_hash, ip_allowlist, permissions, label)
         VALUES ($1, $2, $3, $4, $5, $6, $7)
         ON CONFLICT (client_id) DO NOTHING
         RETURNING *`,
        [
          credential.keyId,
          credential.clientId,
          credential.accountId,
          credential.keyHash,
          credential.ipAllowlist,
          credential.permissions,
          credential.label,
        ],
      ),
    );
    return rows.length > 0 ? toEntity(rows[0]) : null;
  }

  async list(executor: Executor, accountId: string | undefined): Promise<CredentialEntity[]> {
    if (accountId !== undefined && !isUuid(accountId)) return [];
    const rows = await executor.query(
      `SELECT * FROM api_credentials WHERE ($1::uuid IS NULL OR account_id = $1::uuid)
       ORDER BY created_at, key_id LIMIT $2`,
      [accountId ?? null, LIST_LIMIT],
    );
    return rows.map(toEntity);
  }

  /** Revokes an active credential; null when there is none by that reference (or it was revoked already). */
  async revoke(executor: Executor, ref: { keyId?: string; clientId?: string }): Promise<CredentialEntity | null> {
    const rows = rowsOf<Row>(
      await executor.query(
        `UPDATE api_credentials SET revoked_at = now()
         WHERE (key_id = $1 OR client_id = $2) AND revoked_at IS NULL
         RETURNING *`,
        [ref.keyId ?? null, ref.clientId ?? null],
      ),
    );
    return rows.length > 0 ? toEntity(rows[0]) : null;
  }

  async replaceHash(executor: Executor, keyId: string, keyHash: string): Promise<void> {
    await executor.query('UPDATE api_credentials SET key_hash = $2 WHERE key_id = $1', [keyId, keyHash]);
  }

  async revokedKeyIds(executor: Executor): Promise<string[]> {
    const rows = await executor.query('SELECT key_id FROM api_credentials WHERE revoked_at IS NOT NULL ORDER BY key_id');
    return rows.map((row: { key_id: string }) => row.key_id);
  }
}

function toEntity(row: Row): CredentialEntity {
  return Object.assign(new CredentialEntity(), {
    keyId: row.key_id as string,
    clientId: row.client_id as string,
    accountId: row.account_id as string,
    keyHash: row.key_hash as string,
    ipAllowlist: row.ip_allowlist as string[],
    permissions: row.permissions as string[],
    label: (row.label as string | null) ?? null,
    createdAt: row.created_at as Date,
    revokedAt: (row.revoked_at as Date | null) ?? null,
  });
}
