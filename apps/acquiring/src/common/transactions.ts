import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { Logger } from 'pino';
import { LOGGER, runInTransaction, TransactionContext, TransactionOptions } from '@paygrid/platform';
import { mapAcquiringError } from './acquiring-errors';

/**
 * A transaction for work no command drives (a durable job acting on a payment): after-commit hooks as
 * in a command's, and the state machines' refusals as API errors. Command handlers never open one:
 * the pipeline gives them theirs.
 */
@Injectable()
export class Transactions {
  constructor(
    private readonly dataSource: DataSource,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  /** `options.settings`: `SET LOCAL` statements written with the BEGIN (GENERIC_PLANS, say). */
  run<R>(
    work: (tx: TransactionContext) => Promise<R>,
    options: Pick<TransactionOptions, 'settings'> = {},
  ): Promise<R> {
    return runInTransaction(
      this.dataSource,
      this.logger,
      async (tx) => {
        try {
          return await work(tx);
        } catch (error) {
          throw mapAcquiringError(error);
        }
      },
      options,
    );
  }
}
