import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * account_settings is written from the accounts service's account.settings.updated events: each row keeps
 * the settings_version it came with, so an older or repeated event never overwrites a newer setting.
 */
export class AccountSettingsVersion1760000000000 implements MigrationInterface {
  name = 'AccountSettingsVersion1760000000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query('ALTER TABLE account_settings ADD COLUMN settings_version integer NOT NULL DEFAULT 0');
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('ALTER TABLE account_settings DROP COLUMN settings_version');
  }
}
