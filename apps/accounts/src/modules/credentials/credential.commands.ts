import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import {
  AccountCommands,
  CommandEnvelope,
  CreatedCredential,
  CredentialView,
  VerifiedCredential,
} from '@paygrid/contracts';
import { CommandHandler } from '@paygrid/platform';
import { parsePayload } from '../../common/payload';
import { CredentialService } from './credential.service';
import {
  CreateCredentialDto,
  ListCredentialsDto,
  RevokeCredentialDto,
  VerifyCredentialsDto,
} from './dto/credential-commands.dto';

/**
 * The credential commands. They come with actor = null: verify from the gateway's token issuance
 * (before anyone is authenticated), the others from operators through the CLI.
 */
@Injectable()
export class CredentialCommandHandlers {
  constructor(private readonly credentials: CredentialService) {}

  @CommandHandler(AccountCommands.verifyCredentials)
  verify(command: CommandEnvelope): Promise<VerifiedCredential> {
    return this.credentials.verify(parsePayload(VerifyCredentialsDto, command));
  }

  /** Deliberately not `mutates`: see CredentialService.create (the reply holds the clear key). */
  @CommandHandler(AccountCommands.createCredential)
  create(command: CommandEnvelope): Promise<CreatedCredential> {
    return this.credentials.create(parsePayload(CreateCredentialDto, command));
  }

  @CommandHandler(AccountCommands.listCredentials)
  list(command: CommandEnvelope): Promise<CredentialView[]> {
    return this.credentials.list(parsePayload(ListCredentialsDto, command));
  }

  @CommandHandler(AccountCommands.revokeCredential, { mutates: true })
  revoke(command: CommandEnvelope, manager: EntityManager): Promise<CredentialView> {
    return this.credentials.revoke(parsePayload(RevokeCredentialDto, command), manager);
  }
}
