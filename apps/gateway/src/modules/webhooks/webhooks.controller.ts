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
import type { AuthenticatedRequest } from '../../common/authenticated-request';
import { ServiceCalls } from '../commands/service-calls';
import { IdParam } from './dto/webhooks.dto';

/**
 * Webhook endpoints and deliveries for merchants (docs/webhooks.md): one line per route onto the
 * `webhooks` command family. The dispatcher scopes everything to the acting account (x-on-behalf-of
 * included) and reports another account's endpoint or delivery exactly like a missing one. Writes are
 * POSTs with x-idempotency-key, like the rest of the API.
 */
@Controller('v1/webhooks')
export class WebhooksController {
  constructor(private readonly services: ServiceCalls) {}

  @Post('endpoints')
  @HttpCode(200)
  createEndpoint(@Req() request: AuthenticatedRequest, @Body() body: CreateWebhookEndpointPayload) {
    return this.services.execute(request, WebhookCommand.createEndpoint, body);
  }

  @Get('endpoints')
  listEndpoints(@Req() request: AuthenticatedRequest, @Query() query: PagePayload) {
    return this.services.execute(request, WebhookCommand.listEndpoints, query);
  }

  @Get('endpoints/:id')
  retrieveEndpoint(@Req() request: AuthenticatedRequest, @Param() params: IdParam) {
    return this.services.execute(request, WebhookCommand.retrieveEndpoint, { endpoint_id: params.id });
  }

  @Post('endpoints/:id')
  @HttpCode(200)
  updateEndpoint(
    @Req() request: AuthenticatedRequest,
    @Param() params: IdParam,
    @Body() body: UpdateWebhookEndpointBody,
  ) {
    return this.services.execute(request, WebhookCommand.updateEndpoint, { ...body, endpoint_id: params.id });
  }

  @Post('endpoints/:id/delete')
  @HttpCode(200)
  deleteEndpoint(@Req() request: AuthenticatedRequest, @Param() params: IdParam) {
    return this.services.execute(request, WebhookCommand.deleteEndpoint, { endpoint_id: params.id });
  }

  @Post('endpoints/:id/rotate_secret')
  @HttpCode(200)
  rotateSecret(
    @Req() request: AuthenticatedRequest,
    @Param() params: IdParam,
    @Body() body: RotateWebhookSecretBody,
  ) {
    return this.services.execute(request, WebhookCommand.rotateSecret, { ...body, endpoint_id: params.id });
  }

  @Post('endpoints/:id/enable')
  @HttpCode(200)
  enableEndpoint(@Req() request: AuthenticatedRequest, @Param() params: IdParam) {
    return this.services.execute(request, WebhookCommand.enableEndpoint, { endpoint_id: params.id });
  }

  @Post('endpoints/:id/replay')
  @HttpCode(200)
  replayEndpoint(
    @Req() request: AuthenticatedRequest,
    @Param() params: IdParam,
    @Body() body: ReplayWebhookEndpointBody,
  ) {
    return this.services.execute(request, WebhookCommand.replayEndpoint, { ...body, endpoint_id: params.id });
  }

  @Get('deliveries')
  listDeliveries(@Req() request: AuthenticatedRequest, @Query() query: ListWebhookDeliveriesQuery) {
    return this.services.execute(request, WebhookCommand.listDeliveries, query);
  }

  @Get('deliveries/:id')
  retrieveDelivery(@Req() request: AuthenticatedRequest, @Param() params: IdParam) {
    return this.services.execute(request, WebhookCommand.retrieveDelivery, { delivery_id: params.id });
  }

  @Post('deliveries/:id/retry')
  @HttpCode(200)
  retryDelivery(@Req() request: AuthenticatedRequest, @Param() params: IdParam) {
    return this.services.execute(request, WebhookCommand.retryDelivery, { delivery_id: params.id });
  }

  @Get('events/:id/attempts')
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
