import { Injectable } from '@nestjs/common';
import {
  CreateCredentialPayload,
  CredentialCommand,
  ListCredentialsPayload,
  RevokeCredentialPayload,
  VerifyCredentialsPayload,
} from '@paygrid/contracts';
import { HandleCommand, WriteContext } from '@paygrid/platform';
import { CredentialService } from './credential.service';

/**
 * The credential commands. They come with actor = null: verify from the gateway's token issuance
 * (before anyone is authenticated), the others from operators through the CLI.
 */
@Injectable()
export class CredentialCommandHandlers {
  constructor(private readonly credentials: CredentialService) {}

  @HandleCommand(CredentialCommand.verify)
  verify(payload: VerifyCredentialsPayload) {
    return this.credentials.verify(payload);
  }

  /** Not a mutating command on purpose: see CredentialCommand.create (the reply holds the clear key). */
  @HandleCommand(CredentialCommand.create)
  create(payload: CreateCredentialPayload) {
    return this.credentials.create(payload);
  }

  @HandleCommand(CredentialCommand.list)
  list(payload: ListCredentialsPayload) {
    return this.credentials.list(payload);
  }

  @HandleCommand(CredentialCommand.revoke)
  revoke(payload: RevokeCredentialPayload, context: WriteContext) {
    return this.credentials.revoke(payload, context.tx.manager);
  }
}
