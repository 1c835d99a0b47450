import { Body, Controller, Get, HttpCode, Param, Post, Query, Req } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import {
  AcquiringCommand,
  CancelPaymentIntentBody,
  CapturePaymentIntentBody,
  ConfirmPaymentIntentBody,
  CreatePaymentIntentBody,
  ListIntentsPayload,
  UpdatePaymentIntentBody,
} from '@paygrid/contracts';
import type { AuthenticatedRequest } from '../../common/authenticated-request';
import { EXAMPLES } from '../api-reference/api-examples';
import { ApiRoute } from '../api-reference/api-route.decorator';
import { RequiresClientId } from '../auth/route-policy.decorator';
import { ServiceCalls } from '../commands/service-calls';
import { CardSealer } from './card-sealer';
import { ResourceIdParam } from './dto/acquiring.dto';

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
    private readonly sealer: CardSealer,
  ) {}

  @Post('create')
  @HttpCode(200)
  @ApiRoute({
    kind: 'command',
    summary: 'Create a PaymentIntent',
    description: 'Confirmed at once when payment_method.card is given (sandbox outcomes by test card number, see Acquiring).',
    body: CreatePaymentIntentBody,
    result: AcquiringCommand.createIntent.type,
    requestExample: EXAMPLES.createIntent,
    responseExample: EXAMPLES.paymentIntent,
  })
  create(@Req() request: AuthenticatedRequest, @Body() body: CreatePaymentIntentBody) {
    return this.services.execute(request, AcquiringCommand.createIntent, this.sealer.sealed(body));
  }

  @Get()
  @ApiRoute({ kind: 'query', summary: 'List PaymentIntents', query: ListIntentsPayload, result: AcquiringCommand.listIntents.type })
  list(@Req() request: AuthenticatedRequest, @Query() query: ListIntentsPayload) {
    return this.services.execute(request, AcquiringCommand.listIntents, query);
  }

  @Get(':id')
  @ApiRoute({
    kind: 'query',
    summary: 'Retrieve a PaymentIntent',
    params: ResourceIdParam,
    result: AcquiringCommand.retrieveIntent.type,
    responseExample: EXAMPLES.paymentIntent,
  })
  retrieve(@Req() request: AuthenticatedRequest, @Param() params: ResourceIdParam) {
    return this.services.execute(request, AcquiringCommand.retrieveIntent, { payment_intent_id: params.id });
  }

  @Post(':id')
  @HttpCode(200)
  @ApiRoute({
    kind: 'command',
    summary: 'Update a PaymentIntent',
    description: 'Only while it requires a payment method.',
    params: ResourceIdParam,
    body: UpdatePaymentIntentBody,
    result: AcquiringCommand.updateIntent.type,
  })
  update(@Req() request: AuthenticatedRequest, @Param() params: ResourceIdParam, @Body() body: UpdatePaymentIntentBody) {
    return this.services.execute(request, AcquiringCommand.updateIntent, { ...body, payment_intent_id: params.id });
  }

  @Post(':id/confirm')
  @HttpCode(200)
  @ApiRoute({
    kind: 'command',
    summary: 'Confirm a PaymentIntent',
    description:
      'With payment_method.card, or with `{}`: the card the intent is attached to, else its customer\'s latest saved card ' +
      '(400 when it has none). The sandbox outcome follows the test card number (see Acquiring).',
    params: ResourceIdParam,
    body: ConfirmPaymentIntentBody,
    result: AcquiringCommand.confirmIntent.type,
    requestExample: EXAMPLES.confirmIntent,
  })
  confirm(@Req() request: AuthenticatedRequest, @Param() params: ResourceIdParam, @Body() body: ConfirmPaymentIntentBody) {
    return this.services.execute(request, AcquiringCommand.confirmIntent, { ...this.sealer.sealed(body), payment_intent_id: params.id });
  }

  @Post(':id/capture')
  @HttpCode(200)
  @ApiRoute({
    kind: 'command',
    summary: 'Capture an authorised PaymentIntent',
    description: 'All of it, or amount_to_capture; once.',
    params: ResourceIdParam,
    body: CapturePaymentIntentBody,
    result: AcquiringCommand.captureIntent.type,
    requestExample: EXAMPLES.captureIntent,
  })
  capture(@Req() request: AuthenticatedRequest, @Param() params: ResourceIdParam, @Body() body: CapturePaymentIntentBody) {
    return this.services.execute(request, AcquiringCommand.captureIntent, { ...body, payment_intent_id: params.id });
  }

  @Post(':id/cancel')
  @HttpCode(200)
  @ApiRoute({
    kind: 'command',
    summary: 'Cancel a PaymentIntent',
    description: 'From REQUIRES_PAYMENT_METHOD, REQUIRES_CUSTOMER_ACTION or REQUIRES_CAPTURE.',
    params: ResourceIdParam,
    body: CancelPaymentIntentBody,
    result: AcquiringCommand.cancelIntent.type,
    requestExample: EXAMPLES.cancelIntent,
  })
  cancel(@Req() request: AuthenticatedRequest, @Param() params: ResourceIdParam, @Body() body: CancelPaymentIntentBody) {
    return this.services.execute(request, AcquiringCommand.cancelIntent, { ...body, payment_intent_id: params.id });
  }
}
