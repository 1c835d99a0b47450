import { Injectable } from '@nestjs/common';
import { HandleJob, JobRunInfo } from '@paygrid/platform';
import { SettlementService } from './settlement.service';

/** The delayed work of settlements: clearing a capture (idempotent: one settlement per attempt). */
@Injectable()
export class SettlementJobs {
  constructor(private readonly settlements: SettlementService) {}

  @HandleJob('settle_capture')
  settleCapture(attemptId: string, run: JobRunInfo): Promise<void> {
    return this.settlements.settle(attemptId, run);
  }
}
