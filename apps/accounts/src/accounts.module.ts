import { DynamicModule, Module } from '@nestjs/common';
import { commandControllerFor, PlatformModule } from '@paygrid/platform';
import { AccountsConfig } from './config';
import { accountsMigrations } from './migrations';
import { ConnectedAccountsModule } from './modules/accounts/accounts.module';
import { CredentialsModule } from './modules/credentials/credentials.module';
import { SeedModule } from './modules/seed/seed.module';

/**
 * The accounts service: connected accounts (masters and sub-accounts, their sandbox review) and API
 * credentials, answering the commands of libs/contracts/src/accounts.commands.ts on its command topic.
 * One feature module per folder of modules/; the platform provides the rest (its config as
 * ACCOUNTS_CONFIG, the database, Redis, the command pipeline).
 */
@Module({})
export class AccountsModule {
  static register(config: AccountsConfig): DynamicModule {
    return {
      module: AccountsModule,
      imports: [
        PlatformModule.forRoot({
          app: 'accounts',
          config,
          database: accountsMigrations(),
          commands: true,
          redis: true,
        }),
        ConnectedAccountsModule,
        CredentialsModule,
        SeedModule,
      ],
      controllers: [commandControllerFor('accounts', config)],
    };
  }
}
