import { Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { WebhookSecretRepository } from './webhook-secret.repository';
import { WebhookSecretVault } from './webhook-secret-vault';

/**
 * Key rotation, the second half: at boot, every secret still sealed under a retired key is opened and sealed
 * again under the active key, in batches, each row by a conditional update (several instances may boot at
 * once). When the log says none is left under a retired key, that key may leave
 * WEBHOOK_SECRETS_RETIRED_KEYS. A row no key in the ring opens is left alone and counted: the operator put
 * the wrong keys in the ring, and deliveries of that endpoint fail until the key is back.
 */
const BATCH = 500;

@Injectable()
export class WebhookSecretReseal implements OnApplicationBootstrap {
  private readonly logger = new Logger('WebhookSecretReseal');

  constructor(
    private readonly dataSource: DataSource,
    private readonly secrets: WebhookSecretRepository,
    private readonly vault: WebhookSecretVault,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const { resealed, unreadable } = await this.resealAll();
    if (resealed > 0 || unreadable > 0) {
      this.logger.log(
        `webhook secrets re-sealed under key ${this.vault.ring.activeKeyId}: ${resealed}; unreadable: ${unreadable}`,
      );
    }
  }

  async resealAll(): Promise<{ resealed: number; unreadable: number }> {
    const activeKeyId = this.vault.ring.activeKeyId ?? '';
    let resealed = 0;
    let unreadable = 0;
    let afterId = '0';
    for (;;) {
      const rows = await this.secrets.notUnderKey(this.dataSource, activeKeyId, afterId, BATCH);
      for (const row of rows) {
        let secret: string;
        try {
          secret = this.vault.open(row.endpoint_id, row.sealed_secret);
        } catch {
          unreadable += 1;
          continue;
        }
        if (await this.secrets.replace(this.dataSource, row, this.vault.seal(row.endpoint_id, secret)))
          resealed += 1;
      }
      if (rows.length < BATCH) return { resealed, unreadable };
      afterId = rows[rows.length - 1].secret_id;
    }
  }
}
