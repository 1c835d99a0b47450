import { Module } from '@nestjs/common';
import { AccountDirectoryModule } from '../account-directory/account-directory.module';
import { BankAccountModule } from '../bank-accounts/bank-account.module';
import { SandboxSeedService } from './sandbox-seed.service';

/** The sandbox accounts' settlement bank accounts, ensured at boot. */
@Module({
  imports: [AccountDirectoryModule, BankAccountModule],
  providers: [SandboxSeedService],
})
export class SandboxSeedModule {}
