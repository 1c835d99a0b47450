import { Inject, Injectable, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { Logger } from 'pino';
import { LOGGER } from '@paygrid/platform';
import { PAYOUTS_CONFIG, PayoutsConfig } from '../../config';
import { PayoutRail } from './payout-rail';

/**
 * INTERIM timer (see payout-rail.ts): every PAYOUT_RAIL_POLL_MS, takes the payout steps that fell due.
 * One pass at a time; a failing pass is logged and the next one retries, since the due rows stay due.
 * Replaced by the platform's durable jobs once they land.
 */
@Injectable()
export class PayoutRailPoller implements OnApplicationBootstrap, OnApplicationShutdown {
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;
  private stopped = false;

  constructor(
    private readonly rail: PayoutRail,
    @Inject(PAYOUTS_CONFIG) private readonly config: PayoutsConfig,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  onApplicationBootstrap(): void {
    this.schedule();
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
  }

  private schedule(): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.running = this.pass().finally(() => this.schedule());
    }, this.config.PAYOUT_RAIL_POLL_MS);
  }

  private async pass(): Promise<void> {
    try {
      await this.rail.advanceDue();
    } catch (error) {
      this.logger.error({ err: error }, 'payout rail pass failed; due payouts stay due and are retried');
    }
  }
}
