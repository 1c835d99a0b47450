import { BeforeApplicationShutdown, Inject, Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { Logger } from 'pino';
import { LOGGER } from '@paygrid/platform';
import { ACCOUNTS_CONFIG, AccountsConfig } from '../../config';
import { AccountReviewService } from './account-review.service';

/**
 * Drives AccountReviewService every ACCOUNT_REVIEW_POLL_MS. Only a trigger: the schedule itself is
 * in Postgres, so this loop keeps no state worth losing. A full batch polls again at once; a failure
 * is logged and retried on the next tick.
 */
@Injectable()
export class AccountReviewPoller implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private running = false;
  private timer?: NodeJS.Timeout;
  private inFlight?: Promise<void>;
  private static readonly BATCH = 20;

  constructor(
    private readonly reviews: AccountReviewService,
    @Inject(ACCOUNTS_CONFIG) private readonly config: Pick<AccountsConfig, 'ACCOUNT_REVIEW_POLL_MS'>,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  onApplicationBootstrap(): void {
    this.running = true;
    this.schedule(0);
  }

  /** Before the platform closes the database pool, so no tick runs on a closed pool. */
  async beforeApplicationShutdown(): Promise<void> {
    this.running = false;
    clearTimeout(this.timer);
    await this.inFlight;
  }

  private schedule(delayMs: number): void {
    if (!this.running) return;
    this.timer = setTimeout(() => {
      this.inFlight = this.tick().finally(() => (this.inFlight = undefined));
    }, delayMs);
  }

  private async tick(): Promise<void> {
    let handled = 0;
    try {
      handled = await this.reviews.reviewDue(AccountReviewPoller.BATCH);
    } catch (error) {
      this.logger.error({ err: error }, 'account review poll failed');
    }
    this.schedule(handled === AccountReviewPoller.BATCH ? 0 : this.config.ACCOUNT_REVIEW_POLL_MS);
  }
}
