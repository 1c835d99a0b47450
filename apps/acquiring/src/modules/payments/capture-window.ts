import { Inject, Injectable } from '@nestjs/common';
import { Executor } from '@paygrid/platform';
import { ACQUIRING_CONFIG, AcquiringConfig } from '../../config';

/**
 * How long a manual-capture authorisation waits for the merchant before it is captured automatically
 * (decisions §7): the account's own setting (1–24 h), else CAPTURE_WINDOW_HOURS; CAPTURE_WINDOW_OVERRIDE_MS
 * replaces both in sandbox tests that cannot wait an hour.
 */
@Injectable()
export class CaptureWindow {
  constructor(
    @Inject(ACQUIRING_CONFIG)
    private readonly config: Pick<AcquiringConfig, 'CAPTURE_WINDOW_HOURS' | 'CAPTURE_WINDOW_OVERRIDE_MS'>,
  ) {}

  async closesAt(executor: Executor, accountId: string, authorizedAt: Date): Promise<Date> {
    return new Date(authorizedAt.getTime() + (await this.lengthMs(executor, accountId)));
  }

  async lengthMs(executor: Executor, accountId: string): Promise<number> {
    if (this.config.CAPTURE_WINDOW_OVERRIDE_MS > 0) return this.config.CAPTURE_WINDOW_OVERRIDE_MS;
    const [row] = await executor.query('SELECT capture_window_hours FROM account_settings WHERE account_id = $1', [accountId]);
    const hours: number = row?.capture_window_hours ?? this.config.CAPTURE_WINDOW_HOURS;
    return hours * 3_600_000;
  }
}
