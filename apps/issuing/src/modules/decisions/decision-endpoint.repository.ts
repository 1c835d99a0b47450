import { Injectable } from '@nestjs/common';
import { DecisionDefault } from '@paygrid/contracts';
import { Executor, rowsOf } from '@paygrid/platform';

/** An account's real-time authorization decision endpoint; its signing secret only as a ciphertext. */
export interface DecisionEndpoint {
  accountId: string;
  url: string;
  defaultDecision: DecisionDefault;
  timeoutMs: number;
  secretCiphertext: string;
  createdAt: Date;
  updatedAt: Date;
}

function endpointFromRow(row: Record<string, unknown>): DecisionEndpoint {
  return {
    accountId: row.account_id as string,
    url: row.url as string,
    defaultDecision: row.default_decision as DecisionDefault,
    timeoutMs: Number(row.timeout_ms),
    secretCiphertext: row.secret_ciphertext as string,
    createdAt: row.created_at as Date,
    updatedAt: row.updated_at as Date,
  };
}

@Injectable()
export class DecisionEndpointRepository {
  /** One endpoint per account: setting it again replaces it (and its secret). */
  async upsert(executor: Executor, endpoint: Omit<DecisionEndpoint, 'createdAt' | 'updatedAt'>): Promise<DecisionEndpoint> {
    const [row] = rowsOf<Record<string, unknown>>(
      await executor.query(
        `INSERT INTO decision_endpoints (account_id, url, default_decision, timeout_ms, secret_ciphertext) VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT (account_id) DO UPDATE SET url = EXCLUDED.url, default_decision = EXCLUDED.default_decision,
           timeout_ms = EXCLUDED.timeout_ms, secret_ciphertext = EXCLUDED.secret_ciphertext, updated_at = now()
         RETURNING *`,
        [endpoint.accountId, endpoint.url, endpoint.defaultDecision, endpoint.timeoutMs, endpoint.secretCiphertext],
      ),
    );
    return endpointFromRow(row);
  }

  async find(executor: Executor, accountId: string): Promise<DecisionEndpoint | undefined> {
    const [row] = rowsOf<Record<string, unknown>>(await executor.query(`SELECT * FROM decision_endpoints WHERE account_id = $1`, [accountId]));
    return row ? endpointFromRow(row) : undefined;
  }

  async delete(executor: Executor, accountId: string): Promise<DecisionEndpoint | undefined> {
    const [row] = rowsOf<Record<string, unknown>>(await executor.query(`DELETE FROM decision_endpoints WHERE account_id = $1 RETURNING *`, [accountId]));
    return row ? endpointFromRow(row) : undefined;
  }
}
