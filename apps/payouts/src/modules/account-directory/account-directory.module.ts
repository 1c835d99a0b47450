import { Module } from '@nestjs/common';
import { AccountDirectoryListener } from './account-directory.listener';
import { AccountDirectoryRepository } from './account-directory.repository';
import { AccountDirectory } from './account-directory.service';

/** The accounts payouts knows of (names, short ids, masters), fed by the accounts service's events. */
@Module({
  providers: [AccountDirectoryRepository, AccountDirectory, AccountDirectoryListener],
  exports: [AccountDirectoryRepository, AccountDirectory],
})
export class AccountDirectoryModule {}
