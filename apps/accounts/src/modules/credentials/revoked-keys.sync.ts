import { Inject, Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { Logger } from 'pino';
import { LOGGER } from '@paygrid/platform';
import { CredentialService } from './credential.service';

/**
 * At boot, re-publishes every revoked key id from Postgres to the gateway's Redis set, so a flushed
 * or replaced Redis cannot bring a revoked key back. A failure stops the boot: serving while the
 * gateway may accept revoked keys is worse than not serving.
 */
@Injectable()
export class RevokedKeysSync implements OnApplicationBootstrap {
  constructor(
    private readonly credentials: CredentialService,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const count = await this.credentials.syncRevokedSet();
    this.logger.info({ revoked_keys: count }, 'revoked key ids re-synced to Redis');
  }
}
