import {
  IssuingTransactionCommand,
  SimulateAuthorizationPayload,
  SimulateChargebackPayload,
  SimulateReturnPayload,
  TransactionRef,
} from '@paygrid/contracts';
import { Inject, Injectable } from '@nestjs/common';
import { Errors, HandleCommand, HandleJob, JobRunInfo, StagedContext, WriteContext } from '@paygrid/platform';
import { ISSUING_CONFIG, IssuingConfig } from '../../config';
import { AuthorizationService, CLEARING_JOB } from './authorization.service';

/** The sandbox simulators of card transactions (thin; refused in production), and the clearing job. */
@Injectable()
export class AuthorizationCommands {
  constructor(
    private readonly authorizations: AuthorizationService,
    @Inject(ISSUING_CONFIG) private readonly config: Pick<IssuingConfig, 'NODE_ENV'>,
  ) {}

  /** Simulators move sandbox money only: a production process answers them as not available. */
  private sandboxOnly(context: { type: string }): void {
    if (this.config.NODE_ENV === 'production') throw Errors.operationNotAvailable(context.type);
  }

  /** Staged: the account's decision endpoint is asked between the reads and the one writing transaction. */
  @HandleCommand(IssuingTransactionCommand.simulateAuthorization, { staged: true })
  authorize(payload: SimulateAuthorizationPayload, context: StagedContext) {
    this.sandboxOnly(context);
    return this.authorizations.authorize(context, context.requireActor(), payload);
  }

  @HandleCommand(IssuingTransactionCommand.simulateReversal)
  reverse(payload: TransactionRef, context: WriteContext) {
    this.sandboxOnly(context);
    return this.authorizations.reverse(context.tx, context.requireActor(), payload.transaction_id);
  }

  @HandleCommand(IssuingTransactionCommand.simulateRefund)
  refund(payload: SimulateReturnPayload, context: WriteContext) {
    this.sandboxOnly(context);
    return this.authorizations.refund(context.tx, context.requireActor(), payload);
  }

  @HandleCommand(IssuingTransactionCommand.simulateChargeback)
  chargeback(payload: SimulateChargebackPayload, context: WriteContext) {
    this.sandboxOnly(context);
    return this.authorizations.chargeback(context.tx, context.requireActor(), payload);
  }

  @HandleJob(CLEARING_JOB)
  clear(transactionId: string, run: JobRunInfo): Promise<void> {
    return this.authorizations.clear(transactionId, run);
  }
}
