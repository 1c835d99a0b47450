import { Injectable } from '@nestjs/common';
import {
  CreateWebhookEndpointPayload,
  ListWebhookEndpointsPayload,
  ReplayWebhookEndpointPayload,
  RotateWebhookSecretPayload,
  UpdateWebhookEndpointPayload,
  WebhookCommand,
  WebhookEndpointRef,
} from '@paygrid/contracts';
import { CommandContext, HandleCommand, StagedContext, WriteContext } from '@paygrid/platform';
import { EndpointService } from './endpoint.service';

/**
 * The endpoint commands (declared in libs/contracts/src/webhooks.commands.ts). Create, update, delete
 * and rotate act for a merchant (the gateway's actor); list, retrieve, enable and replay also serve
 * operators (actor null, every account).
 *
 * Create and update are staged: they resolve the URL's host (DNS, up to the resolver's timeout) with
 * no transaction open, then write under the command ledger. Resolving inside the ledger's transaction
 * would hold a pooled connection idle-in-transaction for as long as the DNS answer takes, from the pool
 * the delivery workers share; staged, a duplicate of an applied command is also answered from the
 * ledger before any lookup. Nothing outside the database happens, so a duplicate that wins the race
 * (`applied: false`) leaves nothing to compensate.
 */
@Injectable()
export class EndpointCommandHandlers {
  constructor(private readonly endpoints: EndpointService) {}

  @HandleCommand(WebhookCommand.createEndpoint, { staged: true })
  async create(payload: CreateWebhookEndpointPayload, context: StagedContext) {
    const actor = context.requireActor();
    await this.endpoints.checkUrl(payload.url);
    const { result } = await context.complete((tx) => this.endpoints.create(tx, actor, payload));
    return result;
  }

  @HandleCommand(WebhookCommand.listEndpoints)
  list(payload: ListWebhookEndpointsPayload, context: CommandContext) {
    return this.endpoints.list(context.accountScope(), payload);
  }

  @HandleCommand(WebhookCommand.retrieveEndpoint)
  retrieve(payload: WebhookEndpointRef, context: CommandContext) {
    return this.endpoints.retrieve(context.accountScope(), payload.endpoint_id);
  }

  @HandleCommand(WebhookCommand.updateEndpoint, { staged: true })
  async update(payload: UpdateWebhookEndpointPayload, context: StagedContext) {
    const { account_id } = context.requireActor();
    if (payload.url !== undefined) await this.endpoints.checkUrl(payload.url);
    const { result } = await context.complete((tx) => this.endpoints.update(tx, account_id, payload));
    return result;
  }

  @HandleCommand(WebhookCommand.deleteEndpoint)
  delete(payload: WebhookEndpointRef, context: WriteContext) {
    return this.endpoints.delete(context.tx, context.requireActor().account_id, payload.endpoint_id);
  }

  @HandleCommand(WebhookCommand.rotateSecret)
  rotate(payload: RotateWebhookSecretPayload, context: WriteContext) {
    return this.endpoints.rotateSecret(context.tx, context.requireActor().account_id, payload);
  }

  @HandleCommand(WebhookCommand.enableEndpoint)
  enable(payload: WebhookEndpointRef, context: WriteContext) {
    return this.endpoints.enable(context.tx, context.accountScope(), payload.endpoint_id);
  }

  @HandleCommand(WebhookCommand.replayEndpoint)
  replay(payload: ReplayWebhookEndpointPayload, context: WriteContext) {
    return this.endpoints.replay(context.tx, context.accountScope(), payload);
  }
}
