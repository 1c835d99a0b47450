import { Injectable } from '@nestjs/common';
import { HandleJob } from '@paygrid/platform';
import { RefundService } from './refund.service';

/** The delayed work of refunds: submitting a new refund to the processor (idempotent: it re-reads the refund). */
@Injectable()
export class RefundJobs {
  constructor(private readonly refunds: RefundService) {}

  @HandleJob('process_refund')
  processRefund(refundId: string): Promise<void> {
    return this.refunds.process(refundId);
  }
}
