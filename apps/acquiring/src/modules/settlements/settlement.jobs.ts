import { Injectable, OnModuleInit } from '@nestjs/common';
import { JobScheduler } from '../jobs/job-scheduler';
import { SettlementService } from './settlement.service';

/** The delayed work of settlements: clearing a capture (idempotent: one settlement per attempt). */
@Injectable()
export class SettlementJobs implements OnModuleInit {
  constructor(
    private readonly scheduler: JobScheduler,
    private readonly settlements: SettlementService,
  ) {}

  onModuleInit(): void {
    this.scheduler.register('settle_capture', (id) => this.settleCapture(id));
  }

  settleCapture(attemptId: string): Promise<void> {
    return this.settlements.settle(attemptId);
  }
}
