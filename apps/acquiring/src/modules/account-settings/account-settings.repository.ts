import { Injectable } from '@nestjs/common';
import { Executor } from '@paygrid/platform';
import { AccountSettings } from './account-settings.types';

/** All SQL of account_settings: the accounts service's settings as acquiring last learnt them. */
@Injectable()
export class AccountSettingsRepository {
  /**
   * Keeps `settings` unless a version at least as new is stored: one statement, so redeliveries and
   * events arriving out of order (or two consumers racing) leave the newest setting. True when written.
   */
  async keepNewest(executor: Executor, settings: AccountSettings): Promise<boolean> {
    const rows = await executor.query(
      `INSERT INTO account_settings (account_id, capture_window_hours, settings_version, updated_at)
       VALUES ($1, $2, $3, now())
       ON CONFLICT (account_id) DO UPDATE
         SET capture_window_hours = EXCLUDED.capture_window_hours, settings_version = EXCLUDED.settings_version, updated_at = now()
         WHERE account_settings.settings_version < EXCLUDED.settings_version
       RETURNING account_id`,
      [settings.accountId, settings.captureWindowHours, settings.version],
    );
    return rows.length > 0;
  }

  async captureWindowHours(executor: Executor, accountId: string): Promise<number | undefined> {
    const [row] = await executor.query('SELECT capture_window_hours FROM account_settings WHERE account_id = $1', [accountId]);
    return row?.capture_window_hours;
  }
}
