import { Global, Module } from '@nestjs/common';
import { APP_CONFIG, COMMAND_ERROR_MAPPER } from '@paygrid/platform';
import { ACQUIRING_CONFIG } from '../config';
import { JobRepository } from '../modules/jobs/job.repository';
import { JobScheduler } from '../modules/jobs/job-scheduler';
import { mapAcquiringError } from './acquiring-errors';
import { DurableJobs } from './durable-jobs.adapter';
import { Transactions } from './transactions';

/**
 * What every acquiring feature stands on besides the platform: the typed configuration, the error
 * mapper of the command pipeline (global, because the pipeline's dispatcher lives in PlatformModule and
 * sees only global providers), transactions for jobs, and durable jobs.
 */
@Global()
@Module({
  providers: [
    { provide: ACQUIRING_CONFIG, useExisting: APP_CONFIG },
    { provide: COMMAND_ERROR_MAPPER, useValue: mapAcquiringError },
    Transactions,
    JobRepository,
    JobScheduler,
    DurableJobs,
  ],
  exports: [ACQUIRING_CONFIG, COMMAND_ERROR_MAPPER, Transactions, JobScheduler, DurableJobs],
})
export class AcquiringCommonModule {}
