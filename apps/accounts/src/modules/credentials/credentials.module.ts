import { Module } from '@nestjs/common';
import { ACCOUNTS_CONFIG, AccountsConfig } from '../../config';
import { ConnectedAccountsModule } from '../accounts/accounts.module';
import { ApiKeyHasher } from './api-key.hasher';
import { CredentialCommandHandlers } from './credential.commands';
import { CredentialRepository } from './credential.repository';
import { CredentialService } from './credential.service';
import { RevokedKeysSet } from './revoked-keys.set';
import { RevokedKeysSync } from './revoked-keys.sync';

/**
 * API credentials: issue, list, revoke and verify keys, and keep the gateway's Redis set of revoked
 * key ids in step with Postgres. Exports the service: the sandbox seed ensures its keys through it.
 */
@Module({
  imports: [ConnectedAccountsModule],
  providers: [
    {
      provide: ApiKeyHasher,
      inject: [ACCOUNTS_CONFIG],
      useFactory: (config: AccountsConfig) => new ApiKeyHasher(config.API_KEY_PEPPER),
    },
    CredentialRepository,
    RevokedKeysSet,
    CredentialService,
    RevokedKeysSync,
    CredentialCommandHandlers,
  ],
  exports: [CredentialService],
})
export class CredentialsModule {}
