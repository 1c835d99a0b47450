import { Module } from '@nestjs/common';
import { AccountDirectoryModule } from '../account-directory/account-directory.module';
import { BankAccountCommands } from './bank-account.commands';
import { BankAccountRepository } from './bank-account.repository';
import { BankAccountService } from './bank-account.service';

/** Settlement bank accounts; payouts read the one of their currency through BankAccountRepository. */
@Module({
  imports: [AccountDirectoryModule],
  providers: [BankAccountRepository, BankAccountService, BankAccountCommands],
  exports: [BankAccountRepository],
})
export class BankAccountModule {}
