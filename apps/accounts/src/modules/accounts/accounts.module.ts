import { Module } from '@nestjs/common';
import { AccountCommandHandlers } from './account.commands';
import { AccountSettingsCommandHandlers } from './account-settings.commands';
import { AccountSettingsService } from './account-settings.service';
import { AccountRepository } from './account.repository';
import { AccountReviewPoller } from './account-review.poller';
import { AccountReviewService } from './account-review.service';
import { AccountService } from './account.service';

/**
 * Connected accounts: masters and their sub-accounts, the sandbox review that decides new ones, and the
 * account commands. Exports the repository: credentials and the sandbox seed read and write accounts.
 */
@Module({
  providers: [
    AccountRepository,
    AccountService,
    AccountReviewService,
    AccountReviewPoller,
    AccountCommandHandlers,
    AccountSettingsService,
    AccountSettingsCommandHandlers,
  ],
  exports: [AccountRepository],
})
export class ConnectedAccountsModule {}
