import { Module } from '@nestjs/common';
import { ConnectedAccountsModule } from '../accounts/accounts.module';
import { CredentialsModule } from '../credentials/credentials.module';
import { SandboxSeedService } from './sandbox-seed.service';

/** The sandbox accounts and keys, ensured at every boot unless switched off (docs/accounts.md). */
@Module({
  imports: [ConnectedAccountsModule, CredentialsModule],
  providers: [SandboxSeedService],
})
export class SeedModule {}
