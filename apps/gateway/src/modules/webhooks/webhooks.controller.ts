import { Body, Controller, Get, HttpCode, Param, Post, Query, Req, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { WebhookCommands } from '@paygrid/contracts';
import type { AuthenticatedRequest } from '../../common/authenticated-request';
import { ServiceCalls } from '../commands/service-calls';
import {
  CreateEndpointBody,
  IdParam,
  ListAttemptsQuery,
  ListDeliveriesQuery,
  ListEndpointsQuery,
  ReplayBody,
  RotateSecretBody,
  UpdateEndpointBody,
} from './dto/webhooks.dto';

/**
 * Webhook endpoints and deliveries for merchants (docs/webhooks.md): thin routes onto the `webhooks`
 * command family. The dispatcher scopes everything to the acting account (x-on-behalf-of included) and
 * reports another account's endpoint or delivery exactly like a missing one. Writes are POSTs with
 * x-idempotency-key, like the rest of the API.
 */
@Controller('v1/webhooks')
export class WebhooksController {
  constructor(private readonly services: ServiceCalls) {}

  @Post('endpoints')
  @HttpCode(200)
  createEndpoint(
    @Req() request: AuthenticatedRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
    @Body() body: CreateEndpointBody,
  ) {
    return this.services.mutate(request, reply, 'webhooks', WebhookCommands.createEndpoint, { ...body });
  }

  @Get('endpoints')
  listEndpoints(@Req() request: AuthenticatedRequest, @Query() query: ListEndpointsQuery) {
    return this.services.query(request, 'webhooks', WebhookCommands.listEndpoints, {
      page_size: query.page_size,
      page_number: query.page_number,
    });
  }

  @Get('endpoints/:id')
  retrieveEndpoint(@Req() request: AuthenticatedRequest, @Param() params: IdParam) {
    return this.services.query(request, 'webhooks', WebhookCommands.retrieveEndpoint, {
      endpoint_id: params.id,
    });
  }

  @Post('endpoints/:id')
  @HttpCode(200)
  updateEndpoint(
    @Req() request: AuthenticatedRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
    @Param() params: IdParam,
    @Body() body: UpdateEndpointBody,
  ) {
    return this.services.mutate(request, reply, 'webhooks', WebhookCommands.updateEndpoint, {
      ...body,
      endpoint_id: params.id,
    });
  }

  @Post('endpoints/:id/delete')
  @HttpCode(200)
  deleteEndpoint(
    @Req() request: AuthenticatedRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
    @Param() params: IdParam,
  ) {
    return this.services.mutate(request, reply, 'webhooks', WebhookCommands.deleteEndpoint, {
      endpoint_id: params.id,
    });
  }

  @Post('endpoints/:id/rotate_secret')
  @HttpCode(200)
  rotateSecret(
    @Req() request: AuthenticatedRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
    @Param() params: IdParam,
    @Body() body: RotateSecretBody,
  ) {
    return this.services.mutate(request, reply, 'webhooks', WebhookCommands.rotateSecret, {
      ...body,
      endpoint_id: params.id,
    });
  }

  @Post('endpoints/:id/enable')
  @HttpCode(200)
  enableEndpoint(
    @Req() request: AuthenticatedRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
    @Param() params: IdParam,
  ) {
    return this.services.mutate(request, reply, 'webhooks', WebhookCommands.enableEndpoint, {
      endpoint_id: params.id,
    });
  }

  @Post('endpoints/:id/replay')
  @HttpCode(200)
  replayEndpoint(
    @Req() request: AuthenticatedRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
    @Param() params: IdParam,
    @Body() body: ReplayBody,
  ) {
    return this.services.mutate(request, reply, 'webhooks', WebhookCommands.replayEndpoint, {
      endpoint_id: params.id,
      since: body.since,
    });
  }

  @Get('deliveries')
  listDeliveries(@Req() request: AuthenticatedRequest, @Query() query: ListDeliveriesQuery) {
    return this.services.query(request, 'webhooks', WebhookCommands.listDeliveries, { ...query });
  }

  @Get('deliveries/:id')
  retrieveDelivery(@Req() request: AuthenticatedRequest, @Param() params: IdParam) {
    return this.services.query(request, 'webhooks', WebhookCommands.retrieveDelivery, {
      delivery_id: params.id,
    });
  }

  @Post('deliveries/:id/retry')
  @HttpCode(200)
  retryDelivery(
    @Req() request: AuthenticatedRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
    @Param() params: IdParam,
  ) {
    return this.services.mutate(request, reply, 'webhooks', WebhookCommands.retryDelivery, {
      delivery_id: params.id,
    });
  }

  @Get('events/:id/attempts')
  listEventAttempts(
    @Req() request: AuthenticatedRequest,
    @Param() params: IdParam,
    @Query() query: ListAttemptsQuery,
  ) {
    return this.services.query(request, 'webhooks', WebhookCommands.listEventAttempts, {
      event_id: params.id,
      page_size: query.page_size,
      page_number: query.page_number,
    });
  }
}
