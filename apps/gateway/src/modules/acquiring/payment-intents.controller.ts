import { Body, Controller, Get, HttpCode, Param, Post, Query, Req, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { AcquiringCommands } from '@paygrid/contracts';
import type { AuthenticatedRequest } from '../../common/authenticated-request';
import { ApiTags } from '@nestjs/swagger';
import { EXAMPLES } from '../api-reference/api-examples';
import { ApiRoute } from '../api-reference/api-route.decorator';
import { RequiresClientId } from '../auth/route-policy.decorator';
import { ServiceCalls } from '../commands/service-calls';
import { AcquiringPayloads } from './acquiring-payloads';
import {
  CancelPaymentIntentBody,
  CapturePaymentIntentBody,
  ConfirmPaymentIntentBody,
  CreatePaymentIntentBody,
  ListPaymentIntentsQuery,
  ResourceIdParam,
  UpdatePaymentIntentBody,
} from './dto/acquiring.dto';

/**
 * PaymentIntents (spec 4.1, 4.2, 4.10; wire-compat §9.1–9.6). Payment-intent operations require an
 * x-client-id equal to the token's (spec 5). Thin routes: the acquiring service decides; the card is
 * sealed before it leaves the gateway.
 */
@Controller('v2/payment_intents')
@RequiresClientId()
@ApiTags('Acquiring')
export class PaymentIntentsController {
  constructor(
    private readonly services: ServiceCalls,
    private readonly payloads: AcquiringPayloads,
  ) {}

  @Post('create')
  @HttpCode(200)
  @ApiRoute({
    kind: 'command',
    summary: 'Create a PaymentIntent',
    description: 'Confirmed at once when payment_method.card is given (sandbox outcomes by test card number, see Acquiring).',
    body: CreatePaymentIntentBody,
    result: AcquiringCommands.createIntent,
    requestExample: EXAMPLES.createIntent,
    responseExample: EXAMPLES.paymentIntent,
  })
  create(@Req() request: AuthenticatedRequest, @Res({ passthrough: true }) reply: FastifyReply, @Body() body: CreatePaymentIntentBody) {
    return this.services.mutate(request, reply, 'acquiring', AcquiringCommands.createIntent, this.payloads.createIntent(body));
  }

  @Get()
  @ApiRoute({ kind: 'query', summary: 'List PaymentIntents', query: ListPaymentIntentsQuery, result: AcquiringCommands.listIntents })
  list(@Req() request: AuthenticatedRequest, @Query() query: ListPaymentIntentsQuery) {
    return this.services.query(request, 'acquiring', AcquiringCommands.listIntents, {
      page_size: query.page_size,
      page_number: query.page_number,
      intent_status: query.intent_status,
      create_start_time: query.create_start_time,
      create_end_time: query.create_end_time,
    });
  }

  @Get(':id')
  @ApiRoute({
    kind: 'query',
    summary: 'Retrieve a PaymentIntent',
    params: ResourceIdParam,
    result: AcquiringCommands.retrieveIntent,
    responseExample: EXAMPLES.paymentIntent,
  })
  retrieve(@Req() request: AuthenticatedRequest, @Param() params: ResourceIdParam) {
    return this.services.query(request, 'acquiring', AcquiringCommands.retrieveIntent, { payment_intent_id: params.id });
  }

  @Post(':id')
  @HttpCode(200)
  @ApiRoute({
    kind: 'command',
    summary: 'Update a PaymentIntent',
    description: 'Only while it requires a payment method.',
    params: ResourceIdParam,
    body: UpdatePaymentIntentBody,
    result: AcquiringCommands.updateIntent,
  })
  update(
    @Req() request: AuthenticatedRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
    @Param() params: ResourceIdParam,
    @Body() body: UpdatePaymentIntentBody,
  ) {
    return this.services.mutate(request, reply, 'acquiring', AcquiringCommands.updateIntent, this.payloads.updateIntent(params.id, body));
  }

  @Post(':id/confirm')
  @HttpCode(200)
  @ApiRoute({
    kind: 'command',
    summary: 'Confirm a PaymentIntent with a card',
    description: 'The sandbox outcome follows the test card number (see Acquiring).',
    params: ResourceIdParam,
    body: ConfirmPaymentIntentBody,
    result: AcquiringCommands.confirmIntent,
    requestExample: EXAMPLES.confirmIntent,
  })
  confirm(
    @Req() request: AuthenticatedRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
    @Param() params: ResourceIdParam,
    @Body() body: ConfirmPaymentIntentBody,
  ) {
    return this.services.mutate(request, reply, 'acquiring', AcquiringCommands.confirmIntent, this.payloads.confirmIntent(params.id, body));
  }

  @Post(':id/capture')
  @HttpCode(200)
  @ApiRoute({
    kind: 'command',
    summary: 'Capture an authorised PaymentIntent',
    description: 'All of it, or amount_to_capture; once.',
    params: ResourceIdParam,
    body: CapturePaymentIntentBody,
    result: AcquiringCommands.captureIntent,
    requestExample: EXAMPLES.captureIntent,
  })
  capture(
    @Req() request: AuthenticatedRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
    @Param() params: ResourceIdParam,
    @Body() body: CapturePaymentIntentBody,
  ) {
    return this.services.mutate(request, reply, 'acquiring', AcquiringCommands.captureIntent, {
      payment_intent_id: params.id,
      amount_to_capture: body.amount_to_capture,
    });
  }

  @Post(':id/cancel')
  @HttpCode(200)
  @ApiRoute({
    kind: 'command',
    summary: 'Cancel a PaymentIntent',
    description: 'From REQUIRES_PAYMENT_METHOD, REQUIRES_CUSTOMER_ACTION or REQUIRES_CAPTURE.',
    params: ResourceIdParam,
    body: CancelPaymentIntentBody,
    result: AcquiringCommands.cancelIntent,
    requestExample: EXAMPLES.cancelIntent,
  })
  cancel(
    @Req() request: AuthenticatedRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
    @Param() params: ResourceIdParam,
    @Body() body: CancelPaymentIntentBody,
  ) {
    return this.services.mutate(request, reply, 'acquiring', AcquiringCommands.cancelIntent, {
      payment_intent_id: params.id,
      cancellation_reason: body.cancellation_reason,
    });
  }
}
