import { Body, Controller, Get, HttpCode, Param, Post, Query, Req } from '@nestjs/common';
import {
  CreateWebhookEndpointPayload,
  ListWebhookDeliveriesQuery,
  PagePayload,
  ReplayWebhookEndpointBody,
  RotateWebhookSecretBody,
  UpdateWebhookEndpointBody,
  WebhookCommand,
} from '@paygrid/contracts';
import { ApiTags } from '@nestjs/swagger';
import type { AuthenticatedRequest } from '../../common/authenticated-request';
import { EXAMPLES } from '../api-reference/api-examples';
import { ApiRoute } from '../api-reference/api-route.decorator';
import { ServiceCalls } from '../commands/service-calls';
import { IdParam } from './dto/webhooks.dto';

/**
 * Webhook endpoints and deliveries for merchants (docs/webhooks.md): one line per route onto the
 * `webhooks` command family. The dispatcher scopes everything to the acting account (x-on-behalf-of
 * included) and reports another account's endpoint or delivery exactly like a missing one. Writes are
 * POSTs with x-idempotency-key, like the rest of the API.
 */
@Controller('v1/webhooks')
@ApiTags('Webhooks')
export class WebhooksController {
  constructor(private readonly services: ServiceCalls) {}

  @Post('endpoints')
  @HttpCode(200)
  @ApiRoute({
    kind: 'command',
    summary: 'Create an endpoint',
    description: 'Answers the signing secret, this once.',
    body: CreateWebhookEndpointPayload,
    result: WebhookCommand.createEndpoint.type,
    requestExample: EXAMPLES.createWebhookEndpoint,
    responseExample: EXAMPLES.createdWebhookEndpoint,
  })
  createEndpoint(@Req() request: AuthenticatedRequest, @Body() body: CreateWebhookEndpointPayload) {
    return this.services.execute(request, WebhookCommand.createEndpoint, body);
  }

  @Get('endpoints')
  @ApiRoute({
    kind: 'query',
    summary: 'List endpoints',
    query: PagePayload,
    result: WebhookCommand.listEndpoints.type,
  })
  listEndpoints(@Req() request: AuthenticatedRequest, @Query() query: PagePayload) {
    return this.services.execute(request, WebhookCommand.listEndpoints, query);
  }

  @Get('endpoints/:id')
  @ApiRoute({
    kind: 'query',
    summary: 'Retrieve an endpoint',
    params: IdParam,
    result: WebhookCommand.retrieveEndpoint.type,
  })
  retrieveEndpoint(@Req() request: AuthenticatedRequest, @Param() params: IdParam) {
    return this.services.execute(request, WebhookCommand.retrieveEndpoint, { endpoint_id: params.id });
  }

  @Post('endpoints/:id')
  @HttpCode(200)
  @ApiRoute({
    kind: 'command',
    summary: 'Update an endpoint',
    description: 'Only the fields given change; description null clears it.',
    params: IdParam,
    body: UpdateWebhookEndpointBody,
    result: WebhookCommand.updateEndpoint.type,
  })
  updateEndpoint(
    @Req() request: AuthenticatedRequest,
    @Param() params: IdParam,
    @Body() body: UpdateWebhookEndpointBody,
  ) {
    return this.services.execute(request, WebhookCommand.updateEndpoint, { ...body, endpoint_id: params.id });
  }

  @Post('endpoints/:id/delete')
  @HttpCode(200)
  @ApiRoute({
    kind: 'command',
    summary: 'Delete an endpoint',
    description: 'Its pending deliveries are cancelled.',
    params: IdParam,
    result: WebhookCommand.deleteEndpoint.type,
  })
  deleteEndpoint(@Req() request: AuthenticatedRequest, @Param() params: IdParam) {
    return this.services.execute(request, WebhookCommand.deleteEndpoint, { endpoint_id: params.id });
  }

  @Post('endpoints/:id/rotate_secret')
  @HttpCode(200)
  @ApiRoute({
    kind: 'command',
    summary: 'Rotate the signing secret',
    description: 'The previous secret keeps signing for overlap_seconds.',
    params: IdParam,
    body: RotateWebhookSecretBody,
    result: WebhookCommand.rotateSecret.type,
  })
  rotateSecret(
    @Req() request: AuthenticatedRequest,
    @Param() params: IdParam,
    @Body() body: RotateWebhookSecretBody,
  ) {
    return this.services.execute(request, WebhookCommand.rotateSecret, { ...body, endpoint_id: params.id });
  }

  @Post('endpoints/:id/enable')
  @HttpCode(200)
  @ApiRoute({
    kind: 'command',
    summary: 'Re-enable an endpoint',
    description: 'After the dispatcher disabled it (410 Gone, or failing for days).',
    params: IdParam,
    result: WebhookCommand.enableEndpoint.type,
  })
  enableEndpoint(@Req() request: AuthenticatedRequest, @Param() params: IdParam) {
    return this.services.execute(request, WebhookCommand.enableEndpoint, { endpoint_id: params.id });
  }

  @Post('endpoints/:id/replay')
  @HttpCode(200)
  @ApiRoute({
    kind: 'command',
    summary: 'Replay failed deliveries',
    description: 'Sends every failed delivery of the endpoint since a time once more.',
    params: IdParam,
    body: ReplayWebhookEndpointBody,
    result: WebhookCommand.replayEndpoint.type,
  })
  replayEndpoint(
    @Req() request: AuthenticatedRequest,
    @Param() params: IdParam,
    @Body() body: ReplayWebhookEndpointBody,
  ) {
    return this.services.execute(request, WebhookCommand.replayEndpoint, { ...body, endpoint_id: params.id });
  }

  @Get('deliveries')
  @ApiRoute({
    kind: 'query',
    summary: 'List deliveries',
    query: ListWebhookDeliveriesQuery,
    result: WebhookCommand.listDeliveries.type,
  })
  listDeliveries(@Req() request: AuthenticatedRequest, @Query() query: ListWebhookDeliveriesQuery) {
    return this.services.execute(request, WebhookCommand.listDeliveries, query);
  }

  @Get('deliveries/:id')
  @ApiRoute({
    kind: 'query',
    summary: 'Retrieve a delivery',
    description: 'With all its attempts.',
    params: IdParam,
    result: WebhookCommand.retrieveDelivery.type,
  })
  retrieveDelivery(@Req() request: AuthenticatedRequest, @Param() params: IdParam) {
    return this.services.execute(request, WebhookCommand.retrieveDelivery, { delivery_id: params.id });
  }

  @Post('deliveries/:id/retry')
  @HttpCode(200)
  @ApiRoute({
    kind: 'command',
    summary: 'Retry a delivery now',
    params: IdParam,
    result: WebhookCommand.retryDelivery.type,
  })
  retryDelivery(@Req() request: AuthenticatedRequest, @Param() params: IdParam) {
    return this.services.execute(request, WebhookCommand.retryDelivery, { delivery_id: params.id });
  }

  @Get('events/:id/attempts')
  @ApiRoute({
    kind: 'query',
    summary: "List an event's delivery attempts",
    description: "Across the acting account's endpoints.",
    params: IdParam,
    query: PagePayload,
    result: WebhookCommand.listEventAttempts.type,
  })
  listEventAttempts(
    @Req() request: AuthenticatedRequest,
    @Param() params: IdParam,
    @Query() query: PagePayload,
  ) {
    return this.services.execute(request, WebhookCommand.listEventAttempts, {
      ...query,
      event_id: params.id,
    });
  }
}
