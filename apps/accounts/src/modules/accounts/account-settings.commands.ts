import { Injectable } from '@nestjs/common';
import { AccountCommand, UpdateAccountSettingsPayload } from '@paygrid/contracts';
import { HandleCommand, WriteContext } from '@paygrid/platform';
import { AccountSettingsService } from './account-settings.service';

/** The operators' settings command: applied once per command id, the change and its event in one transaction. */
@Injectable()
export class AccountSettingsCommandHandlers {
  constructor(private readonly settings: AccountSettingsService) {}

  @HandleCommand(AccountCommand.updateSettings)
  updateSettings(payload: UpdateAccountSettingsPayload, context: WriteContext) {
    return this.settings.update(context.tx.manager, payload);
  }
}
