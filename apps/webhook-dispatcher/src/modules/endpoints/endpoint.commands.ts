import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import {
  CommandEnvelope,
  CreatedWebhookEndpointView,
  DeletedWebhookEndpointView,
  RotatedWebhookSecretView,
  WebhookCommands,
  WebhookEndpointView,
  WebhookPage,
} from '@paygrid/contracts';
import { CommandHandler } from '@paygrid/platform';
import { applyOnce } from '../../common/apply-once';
import { accountScopeOf, parsePayload, requireActor } from '../../common/payload';
import {
  CreateEndpointDto,
  EndpointRefDto,
  ListEndpointsDto,
  RotateSecretDto,
  UpdateEndpointDto,
} from './dto/endpoint-commands.dto';
import { EndpointService } from './endpoint.service';

/**
 * The endpoint commands. Create, update, delete and rotate act for a merchant (the gateway's actor);
 * list, retrieve and enable also serve operators (actor null, every account). Writes go through the
 * command ledger; create and update check the URL's host before their transaction opens.
 */
@Injectable()
export class EndpointCommandHandlers {
  constructor(
    private readonly dataSource: DataSource,
    private readonly endpoints: EndpointService,
  ) {}

  @CommandHandler(WebhookCommands.createEndpoint)
  async create(command: CommandEnvelope): Promise<CreatedWebhookEndpointView> {
    const actor = requireActor(command);
    const request = parsePayload(CreateEndpointDto, command);
    await this.endpoints.checkUrl(request.url);
    return applyOnce(this.dataSource, command, (manager) => this.endpoints.create(actor, request, manager));
  }

  @CommandHandler(WebhookCommands.listEndpoints)
  list(command: CommandEnvelope): Promise<WebhookPage<WebhookEndpointView>> {
    return this.endpoints.list(accountScopeOf(command), parsePayload(ListEndpointsDto, command));
  }

  @CommandHandler(WebhookCommands.retrieveEndpoint)
  retrieve(command: CommandEnvelope): Promise<WebhookEndpointView> {
    return this.endpoints.retrieve(
      accountScopeOf(command),
      parsePayload(EndpointRefDto, command).endpoint_id,
    );
  }

  @CommandHandler(WebhookCommands.updateEndpoint)
  async update(command: CommandEnvelope): Promise<WebhookEndpointView> {
    const actor = requireActor(command);
    const request = parsePayload(UpdateEndpointDto, command);
    if (request.url !== undefined) await this.endpoints.checkUrl(request.url);
    return applyOnce(this.dataSource, command, (manager) =>
      this.endpoints.update(actor.account_id, request, manager),
    );
  }

  @CommandHandler(WebhookCommands.deleteEndpoint)
  delete(command: CommandEnvelope): Promise<DeletedWebhookEndpointView> {
    const actor = requireActor(command);
    const request = parsePayload(EndpointRefDto, command);
    return applyOnce(this.dataSource, command, (manager) =>
      this.endpoints.delete(actor.account_id, request.endpoint_id, manager),
    );
  }

  @CommandHandler(WebhookCommands.rotateSecret)
  rotate(command: CommandEnvelope): Promise<RotatedWebhookSecretView> {
    const actor = requireActor(command);
    const request = parsePayload(RotateSecretDto, command);
    return applyOnce(this.dataSource, command, (manager) =>
      this.endpoints.rotateSecret(actor.account_id, request, manager),
    );
  }

  @CommandHandler(WebhookCommands.enableEndpoint)
  enable(command: CommandEnvelope): Promise<WebhookEndpointView> {
    const scope = accountScopeOf(command);
    const request = parsePayload(EndpointRefDto, command);
    return applyOnce(this.dataSource, command, (manager) =>
      this.endpoints.enable(scope, request.endpoint_id, manager),
    );
  }
}
