import { DynamicModule, Module, Provider } from '@nestjs/common';
import { commandControllerFor, PlatformModule } from '@paygrid/platform';
import { ACCOUNTS_CONFIG, AccountsConfig } from './config';
import { AccountsAndCredentials1730000000000 } from './migrations/1730000000000-accounts-and-credentials';
import { AccountCommandHandlers } from './modules/accounts/account.commands';
import { AccountEntity } from './modules/accounts/account.entity';
import { AccountRepository } from './modules/accounts/account.repository';
import { AccountReviewPoller } from './modules/accounts/account-review.poller';
import { AccountReviewService } from './modules/accounts/account-review.service';
import { AccountService } from './modules/accounts/account.service';
import { ApiKeyHasher } from './modules/credentials/api-key.hasher';
import { CredentialCommandHandlers } from './modules/credentials/credential.commands';
import { CredentialEntity } from './modules/credentials/credential.entity';
import { CredentialRepository } from './modules/credentials/credential.repository';
import { CredentialService } from './modules/credentials/credential.service';
import { RevokedKeysSet } from './modules/credentials/revoked-keys.set';
import { RevokedKeysSync } from './modules/credentials/revoked-keys.sync';
import { SandboxSeedService } from './modules/seed/sandbox-seed.service';

/**
 * The accounts service: connected accounts (masters and sub-accounts, their sandbox review) and API
 * credentials, answering the commands of libs/contracts/src/accounts.ts on its command topic.
 */
@Module({})
export class AccountsModule {
  static register(config: AccountsConfig): DynamicModule {
    const providers: Provider[] = [
      { provide: ACCOUNTS_CONFIG, useValue: config },
      AccountRepository,
      AccountService,
      AccountReviewService,
      AccountReviewPoller,
      AccountCommandHandlers,
      { provide: ApiKeyHasher, useFactory: () => new ApiKeyHasher(config.API_KEY_PEPPER) },
      CredentialRepository,
      RevokedKeysSet,
      CredentialService,
      RevokedKeysSync,
      CredentialCommandHandlers,
      SandboxSeedService,
    ];
    return {
      module: AccountsModule,
      imports: [
        PlatformModule.forRoot({
          app: 'accounts',
          config,
          database: { entities: [AccountEntity, CredentialEntity], migrations: [AccountsAndCredentials1730000000000] },
          commands: true,
          redis: true,
        }),
      ],
      controllers: [commandControllerFor('accounts', config)],
      providers,
    };
  }
}
