import { Body, Controller, Get, HttpCode, Param, Post, Query, Req, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { WebhookCommands } from '@paygrid/contracts';
import { ApiTags } from '@nestjs/swagger';
import type { AuthenticatedRequest } from '../../common/authenticated-request';
import { EXAMPLES } from '../api-reference/api-examples';
import { ApiRoute } from '../api-reference/api-route.decorator';
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
@ApiTags('Webhooks')
export class WebhooksController {
  constructor(private readonly services: ServiceCalls) {}

  @Post('endpoints')
  @HttpCode(200)
  @ApiRoute({
    kind: 'command',
    summary: 'Create an endpoint',
    description: 'Answers the signing secret, this once.',
    body: CreateEndpointBody,
    result: WebhookCommands.createEndpoint,
    requestExample: EXAMPLES.createWebhookEndpoint,
    responseExample: EXAMPLES.createdWebhookEndpoint,
  })
  createEndpoint(
    @Req() request: AuthenticatedRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
    @Body() body: CreateEndpointBody,
  ) {
    return this.services.mutate(request, reply, 'webhooks', WebhookCommands.createEndpoint, { ...body });
  }

  @Get('endpoints')
  @ApiRoute({
    kind: 'query',
    summary: 'List endpoints',
    query: ListEndpointsQuery,
    result: WebhookCommands.listEndpoints,
  })
  listEndpoints(@Req() request: AuthenticatedRequest, @Query() query: ListEndpointsQuery) {
    return this.services.query(request, 'webhooks', WebhookCommands.listEndpoints, {
      page_size: query.page_size,
      page_number: query.page_number,
    });
  }

  @Get('endpoints/:id')
  @ApiRoute({
    kind: 'query',
    summary: 'Retrieve an endpoint',
    params: IdParam,
    result: WebhookCommands.retrieveEndpoint,
  })
  retrieveEndpoint(@Req() request: AuthenticatedRequest, @Param() params: IdParam) {
    return this.services.query(request, 'webhooks', WebhookCommands.retrieveEndpoint, {
      endpoint_id: params.id,
    });
  }

  @Post('endpoints/:id')
  @HttpCode(200)
  @ApiRoute({
    kind: 'command',
    summary: 'Update an endpoint',
    description: 'Only the fields given change; description null clears it.',
    params: IdParam,
    body: UpdateEndpointBody,
    result: WebhookCommands.updateEndpoint,
  })
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
  @ApiRoute({
    kind: 'command',
    summary: 'Delete an endpoint',
    description: 'Its pending deliveries are cancelled.',
    params: IdParam,
    result: WebhookCommands.deleteEndpoint,
  })
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
  @ApiRoute({
    kind: 'command',
    summary: 'Rotate the signing secret',
    description: 'The previous secret keeps signing for overlap_seconds.',
    params: IdParam,
    body: RotateSecretBody,
    result: WebhookCommands.rotateSecret,
  })
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
  @ApiRoute({
    kind: 'command',
    summary: 'Re-enable an endpoint',
    description: 'After the dispatcher disabled it (410 Gone, or failing for days).',
    params: IdParam,
    result: WebhookCommands.enableEndpoint,
  })
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
  @ApiRoute({
    kind: 'command',
    summary: 'Replay failed deliveries',
    description: 'Sends every failed delivery of the endpoint since a time once more.',
    params: IdParam,
    body: ReplayBody,
    result: WebhookCommands.replayEndpoint,
  })
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
  @ApiRoute({
    kind: 'query',
    summary: 'List deliveries',
    query: ListDeliveriesQuery,
    result: WebhookCommands.listDeliveries,
  })
  listDeliveries(@Req() request: AuthenticatedRequest, @Query() query: ListDeliveriesQuery) {
    return this.services.query(request, 'webhooks', WebhookCommands.listDeliveries, { ...query });
  }

  @Get('deliveries/:id')
  @ApiRoute({
    kind: 'query',
    summary: 'Retrieve a delivery',
    description: 'With all its attempts.',
    params: IdParam,
    result: WebhookCommands.retrieveDelivery,
  })
  retrieveDelivery(@Req() request: AuthenticatedRequest, @Param() params: IdParam) {
    return this.services.query(request, 'webhooks', WebhookCommands.retrieveDelivery, {
      delivery_id: params.id,
    });
  }

  @Post('deliveries/:id/retry')
  @HttpCode(200)
  @ApiRoute({
    kind: 'command',
    summary: 'Retry a delivery now',
    params: IdParam,
    result: WebhookCommands.retryDelivery,
  })
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
  @ApiRoute({
    kind: 'query',
    summary: "List an event's delivery attempts",
    description: "Across the acting account's endpoints.",
    params: IdParam,
    query: ListAttemptsQuery,
    result: WebhookCommands.listEventAttempts,
  })
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
