import { Injectable } from '@nestjs/common';
import { AccountStatus, BusinessCode } from '@paygrid/contracts';
import { Executor, rowsOf } from '@paygrid/platform';
import { isUuid } from '@paygrid/ids';
import { Credential, CredentialRow } from './credential.types';

/**
 * All SQL of the api_credentials table, raw, with a typed row mapper. Nothing here ever sees a clear
 * API key: callers pass the hash.
 */
export type NewCredential = Omit<Credential, 'createdAt' | 'revokedAt'>;

/** What token issuance needs about the key's account, read in the same query as the key. */
export interface CredentialWithAccount extends Credential {
  account: {
    shortReferenceId: string;
    parentAccountId: string | null;
    businessCode: BusinessCode[];
    status: AccountStatus;
  };
}

/** The key's row with the account columns token issuance needs. */
type CredentialWithAccountRow = CredentialRow & {
  short_reference_id: string;
  parent_account_id: string | null;
  business_code: BusinessCode[];
  account_status: AccountStatus;
};

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
    const row = rows[0] as CredentialWithAccountRow;
    return {
      ...toCredential(row),
      account: {
        shortReferenceId: row.short_reference_id,
        parentAccountId: row.parent_account_id,
        businessCode: row.business_code,
        status: row.account_status,
      },
    };
  }

  async findByClientId(executor: Executor, clientId: string): Promise<Credential | null> {
    const rows = await executor.query('SELECT * FROM api_credentials WHERE client_id = $1', [clientId]);
    return rows.length > 0 ? toCredential(rows[0]) : null;
  }

  async findByKeyOrClientId(executor: Executor, ref: { keyId?: string; clientId?: string }): Promise<Credential | null> {
    const rows = await executor.query('SELECT * FROM api_credentials WHERE key_id = $1 OR client_id = $2', [
      ref.keyId ?? null,
      ref.clientId ?? null,
    ]);
    return rows.length > 0 ? toCredential(rows[0]) : null;
  }

  /** Null when the client id is taken (the caller mints another or refuses). */
  async insert(executor: Executor, credential: NewCredential): Promise<Credential | null> {
    const rows = rowsOf<CredentialRow>(
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
    return rows.length > 0 ? toCredential(rows[0]) : null;
  }

  async list(executor: Executor, accountId: string | undefined): Promise<Credential[]> {
    if (accountId !== undefined && !isUuid(accountId)) return [];
    const rows = await executor.query(
      `SELECT * FROM api_credentials WHERE ($1::uuid IS NULL OR account_id = $1::uuid)
       ORDER BY created_at, key_id LIMIT $2`,
      [accountId ?? null, LIST_LIMIT],
    );
    return rows.map(toCredential);
  }

  /** Revokes an active credential; null when there is none by that reference (or it was revoked already). */
  async revoke(executor: Executor, ref: { keyId?: string; clientId?: string }): Promise<Credential | null> {
    const rows = rowsOf<CredentialRow>(
      await executor.query(
        `UPDATE api_credentials SET revoked_at = now()
         WHERE (key_id = $1 OR client_id = $2) AND revoked_at IS NULL
         RETURNING *`,
        [ref.keyId ?? null, ref.clientId ?? null],
      ),
    );
    return rows.length > 0 ? toCredential(rows[0]) : null;
  }

  async replaceHash(executor: Executor, keyId: string, keyHash: string): Promise<void> {
    await executor.query('UPDATE api_credentials SET key_hash = $2 WHERE key_id = $1', [keyId, keyHash]);
  }

  async revokedKeyIds(executor: Executor): Promise<string[]> {
    const rows = await executor.query('SELECT key_id FROM api_credentials WHERE revoked_at IS NOT NULL ORDER BY key_id');
    return rows.map((row: { key_id: string }) => row.key_id);
  }
}

function toCredential(row: CredentialRow): Credential {
  return {
    keyId: row.key_id,
    clientId: row.client_id,
    accountId: row.account_id,
    keyHash: row.key_hash,
    ipAllowlist: row.ip_allowlist,
    permissions: row.permissions,
    label: row.label,
    createdAt: row.created_at,
    revokedAt: row.revoked_at,
  };
}
