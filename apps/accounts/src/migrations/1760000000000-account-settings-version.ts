import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Versions an account's platform settings (capture_window_hours): every change bumps settings_version
 * and is announced as account.settings.updated with it, so the services applying a setting keep the
 * newest one whatever order or how many times the events arrive.
 */
export class AccountSettingsVersion1760000000000 implements MigrationInterface {
  name = 'AccountSettingsVersion1760000000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query('ALTER TABLE accounts ADD COLUMN settings_version integer NOT NULL DEFAULT 0');
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('ALTER TABLE accounts DROP COLUMN settings_version');
  }
}
