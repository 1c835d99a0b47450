import { Injectable } from '@nestjs/common';
import {
  IssuingTransactionCommand,
  SimulateAuthorizationPayload,
  SimulateChargebackPayload,
  SimulateReturnPayload,
  TransactionRef,
} from '@paygrid/contracts';
import { HandleCommand, HandleJob, StagedContext, WriteContext } from '@paygrid/platform';
import { AuthorizationService, CLEARING_JOB } from './authorization.service';

/** The sandbox simulators of card transactions (thin), and the clearing job. */
@Injectable()
export class AuthorizationCommands {
  constructor(private readonly authorizations: AuthorizationService) {}

  /** Staged: the account's decision endpoint is asked between the reads and the one writing transaction. */
  @HandleCommand(IssuingTransactionCommand.simulateAuthorization, { staged: true })
  authorize(payload: SimulateAuthorizationPayload, context: StagedContext) {
    return this.authorizations.authorize(context, context.requireActor(), payload);
  }

  @HandleCommand(IssuingTransactionCommand.simulateReversal)
  reverse(payload: TransactionRef, context: WriteContext) {
    return this.authorizations.reverse(context.tx, context.requireActor(), payload.transaction_id);
  }

  @HandleCommand(IssuingTransactionCommand.simulateRefund)
  refund(payload: SimulateReturnPayload, context: WriteContext) {
    return this.authorizations.refund(context.tx, context.requireActor(), payload);
  }

  @HandleCommand(IssuingTransactionCommand.simulateChargeback)
  chargeback(payload: SimulateChargebackPayload, context: WriteContext) {
    return this.authorizations.chargeback(context.tx, context.requireActor(), payload);
  }

  @HandleJob(CLEARING_JOB)
  clear(transactionId: string): Promise<void> {
    return this.authorizations.clear(transactionId);
  }
}
