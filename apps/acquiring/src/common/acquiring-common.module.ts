import { Global, Module } from '@nestjs/common';
import { APP_CONFIG } from '@paygrid/platform';
import { ACQUIRING_CONFIG } from '../config';
import { JobRepository } from '../modules/jobs/job.repository';
import { JobScheduler } from '../modules/jobs/job-scheduler';
import { DurableJobs } from './durable-jobs.adapter';
import { Transactions } from './transactions';

/**
 * What every acquiring feature stands on besides the platform: the typed configuration, transactions
 * for jobs, and durable jobs.
 */
@Global()
@Module({
  providers: [
    { provide: ACQUIRING_CONFIG, useExisting: APP_CONFIG },
    Transactions,
    JobRepository,
    JobScheduler,
    DurableJobs,
  ],
  exports: [ACQUIRING_CONFIG, Transactions, JobScheduler, DurableJobs],
})
export class AcquiringCommonModule {}
