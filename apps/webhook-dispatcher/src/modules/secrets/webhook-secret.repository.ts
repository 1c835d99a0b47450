import { Injectable } from '@nestjs/common';
import { Executor, rowsOf } from '@paygrid/platform';

/** The SQL of re-sealing: rows of webhook_endpoint_secrets by their sealed value, in batches. */
export interface SealedSecretRow {
  secret_id: string;
  endpoint_id: string;
  sealed_secret: string;
}

@Injectable()
export class WebhookSecretRepository {
  /** Up to `limit` secrets not sealed under `activeKeyId`, oldest first, after `afterId`. */
  async notUnderKey(
    executor: Executor,
    activeKeyId: string,
    afterId: string,
    limit: number,
  ): Promise<SealedSecretRow[]> {
    return executor.query(
      `SELECT secret_id::text, endpoint_id, sealed_secret FROM webhook_endpoint_secrets
        WHERE secret_id > $2::bigint AND split_part(sealed_secret, '.', 2) <> $1
        ORDER BY secret_id LIMIT $3`,
      [activeKeyId, afterId, limit],
    );
  }

  /** Conditional on the value read, so two instances re-sealing at once never lose a write. */
  async replace(executor: Executor, row: SealedSecretRow, sealed: string): Promise<boolean> {
    const result = await executor.query(
      'UPDATE webhook_endpoint_secrets SET sealed_secret = $3 WHERE secret_id = $1::bigint AND sealed_secret = $2 RETURNING secret_id',
      [row.secret_id, row.sealed_secret, sealed],
    );
    return rowsOf(result).length === 1;
  }
}
