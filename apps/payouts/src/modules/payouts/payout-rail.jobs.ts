import { Injectable } from '@nestjs/common';
import { HandleJob } from '@paygrid/platform';
import { PAYOUT_STEP_JOBS, PayoutRail } from './payout-rail';

/** The bank rail's durable jobs, one kind per open status (idempotent: see PayoutRail.advance). */
@Injectable()
export class PayoutRailJobs {
  constructor(private readonly rail: PayoutRail) {}

  @HandleJob(PAYOUT_STEP_JOBS.INITIATED)
  process(payoutId: string): Promise<void> {
    return this.rail.advance(payoutId, 'INITIATED');
  }

  @HandleJob(PAYOUT_STEP_JOBS.PROCESSING)
  settle(payoutId: string): Promise<void> {
    return this.rail.advance(payoutId, 'PROCESSING');
  }

  @HandleJob(PAYOUT_STEP_JOBS.FAILED)
  refund(payoutId: string): Promise<void> {
    return this.rail.advance(payoutId, 'FAILED');
  }
}
