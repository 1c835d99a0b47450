import { Injectable, OnModuleInit } from '@nestjs/common';
import { JobScheduler } from '../jobs/job-scheduler';
import { RefundService } from './refund.service';

/** The delayed work of refunds: submitting a new refund to the processor (idempotent: it re-reads the refund). */
@Injectable()
export class RefundJobs implements OnModuleInit {
  constructor(
    private readonly scheduler: JobScheduler,
    private readonly refunds: RefundService,
  ) {}

  onModuleInit(): void {
    this.scheduler.register('process_refund', (id) => this.processRefund(id));
  }

  processRefund(refundId: string): Promise<void> {
    return this.refunds.process(refundId);
  }
}
