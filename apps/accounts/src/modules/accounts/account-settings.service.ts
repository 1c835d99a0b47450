import { Injectable } from '@nestjs/common';
import { AccountEvents, AccountSettingsView, EventTopics, UpdateAccountSettingsPayload } from '@paygrid/contracts';
import { appendToOutbox, Executor } from '@paygrid/platform';
import { AccountErrors } from './account.errors';
import { AccountRepository, AccountSettingsRow } from './account.repository';

/**
 * An account's platform settings (decisions §7: the manual-capture window, 1–24 hours), set by operators.
 * Acquiring applies the window, so every change is announced on the accounts event stream as
 * account.settings.updated (OPERATIONS: never a merchant webhook) with the account's settings_version, in
 * the transaction of the change. Setting the value it already has changes and announces nothing.
 */
@Injectable()
export class AccountSettingsService {
  constructor(private readonly accounts: AccountRepository) {}

  async update(executor: Executor, payload: UpdateAccountSettingsPayload): Promise<AccountSettingsView> {
    const changed = await this.accounts.updateCaptureWindow(executor, payload.account_id, payload.capture_window_hours);
    if (!changed) {
      const current = await this.accounts.findSettings(executor, payload.account_id);
      if (!current) throw AccountErrors.notFound();
      return presentSettings(current);
    }
    const settings = presentSettings(changed);
    await appendToOutbox(executor, {
      topic: EventTopics.accounts,
      event_name: AccountEvents.settingsUpdated,
      event_type: 'OPERATIONS',
      source_id: changed.account_id,
      account_id: changed.account_id,
      master_account_id: changed.parent_account_id ?? changed.account_id,
      data: settings,
    });
    return settings;
  }
}

function presentSettings(row: AccountSettingsRow): AccountSettingsView {
  return {
    account_id: row.account_id,
    capture_window_hours: row.capture_window_hours,
    settings_version: row.settings_version,
  };
}
