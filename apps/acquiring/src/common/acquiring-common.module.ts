import { Global, Module } from '@nestjs/common';
import { APP_CONFIG } from '@paygrid/platform';
import { ACQUIRING_CONFIG } from '../config';
import { Transactions } from './transactions';

/**
 * What every acquiring feature stands on besides the platform: the typed configuration and
 * transactions for jobs.
 */
@Global()
@Module({
  providers: [
    { provide: ACQUIRING_CONFIG, useExisting: APP_CONFIG },
    Transactions,
  ],
  exports: [ACQUIRING_CONFIG, Transactions],
})
export class AcquiringCommonModule {}
