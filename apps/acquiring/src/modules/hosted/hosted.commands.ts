import { Injectable } from '@nestjs/common';
import {
  AcquiringCommand,
  HostedConfirmPayload,
  HostedSessionPayload,
  HostedThreeDsPayload,
} from '@paygrid/contracts';
import { HandleCommand, StagedContext } from '@paygrid/platform';
import { HostedService } from './hosted.service';

/**
 * The hosted pages' commands (no actor: the client_secret authenticates). Paying and answering the
 * challenge are staged: the processor is called between their two writes.
 */
@Injectable()
export class HostedCommands {
  constructor(private readonly hosted: HostedService) {}

  @HandleCommand(AcquiringCommand.hostedSession)
  session(payload: HostedSessionPayload) {
    return this.hosted.session(payload);
  }

  @HandleCommand(AcquiringCommand.hostedConfirm, { staged: true })
  pay(payload: HostedConfirmPayload, context: StagedContext) {
    return this.hosted.pay(context, payload);
  }

  @HandleCommand(AcquiringCommand.hostedThreeDs, { staged: true })
  threeDs(payload: HostedThreeDsPayload, context: StagedContext) {
    return this.hosted.threeDs(context, payload);
  }
}
