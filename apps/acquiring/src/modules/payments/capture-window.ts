import { Inject, Injectable } from '@nestjs/common';
import { Executor } from '@paygrid/platform';
import { ACQUIRING_CONFIG, AcquiringConfig } from '../../config';
import { AccountSettingsRepository } from '../account-settings/account-settings.repository';

/**
 * How long a manual-capture authorisation waits for the merchant before it is captured automatically
 * (decisions §7): the account's own setting (1–24 h, learnt from the accounts service's
 * account.settings.updated), else CAPTURE_WINDOW_HOURS. Sandbox tests that cannot wait hours run a faster
 * clock (CAPTURE_WINDOW_HOUR_MS: the length of one window hour) or give accounts without a setting a
 * window in ms (CAPTURE_WINDOW_OVERRIDE_MS).
 */
@Injectable()
export class CaptureWindow {
  constructor(
    private readonly settings: AccountSettingsRepository,
    @Inject(ACQUIRING_CONFIG)
    private readonly config: Pick<AcquiringConfig, 'CAPTURE_WINDOW_HOURS' | 'CAPTURE_WINDOW_OVERRIDE_MS' | 'CAPTURE_WINDOW_HOUR_MS'>,
  ) {}

  async closesAt(executor: Executor, accountId: string, authorizedAt: Date): Promise<Date> {
    return new Date(authorizedAt.getTime() + (await this.lengthMs(executor, accountId)));
  }

  async lengthMs(executor: Executor, accountId: string): Promise<number> {
    const hours = await this.settings.captureWindowHours(executor, accountId);
    if (hours !== undefined) return hours * this.config.CAPTURE_WINDOW_HOUR_MS;
    if (this.config.CAPTURE_WINDOW_OVERRIDE_MS > 0) return this.config.CAPTURE_WINDOW_OVERRIDE_MS;
    return this.config.CAPTURE_WINDOW_HOURS * this.config.CAPTURE_WINDOW_HOUR_MS;
  }
}
