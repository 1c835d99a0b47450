import { Body, Controller, Get, HttpCode, Param, Post, Query, Req, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { AcquiringCommands } from '@paygrid/contracts';
import type { AuthenticatedRequest } from '../../common/authenticated-request';
import { ApiTags } from '@nestjs/swagger';
import { EXAMPLES } from '../api-reference/api-examples';
import { ApiRoute } from '../api-reference/api-route.decorator';
import { ServiceCalls } from '../commands/service-calls';
import { AcquiringPayloads } from './acquiring-payloads';
import {
  CreateRefundBody,
  ListPaymentAttemptsQuery,
  ListRefundsQuery,
  ListSettlementsQuery,
  ResourceIdParam,
} from './dto/acquiring.dto';

/**
 * Payment attempts, refunds and settlements (wire-compat §9.7–9.9, spec 4.10). The SDKs send
 * x-client-id here too; it is tolerated, not required (decisions §1).
 */
@Controller('v2/payment/payment_attempts')
@ApiTags('Acquiring')
export class PaymentAttemptsController {
  constructor(private readonly services: ServiceCalls) {}

  @Get()
  @ApiRoute({ kind: 'query', summary: 'List PaymentAttempts', query: ListPaymentAttemptsQuery, result: AcquiringCommands.listAttempts })
  list(@Req() request: AuthenticatedRequest, @Query() query: ListPaymentAttemptsQuery) {
    return this.services.query(request, 'acquiring', AcquiringCommands.listAttempts, {
      page_size: query.page_size,
      page_number: query.page_number,
      payment_intent_id: query.payment_intent_id,
      attempt_status: query.attempt_status,
    });
  }

  @Get(':id')
  @ApiRoute({
    kind: 'query',
    summary: 'Retrieve a PaymentAttempt',
    params: ResourceIdParam,
    result: AcquiringCommands.retrieveAttempt,
    responseExample: EXAMPLES.paymentAttempt,
  })
  retrieve(@Req() request: AuthenticatedRequest, @Param() params: ResourceIdParam) {
    return this.services.query(request, 'acquiring', AcquiringCommands.retrieveAttempt, { attempt_id: params.id });
  }
}

@Controller('v2/payment/refunds')
@ApiTags('Acquiring')
export class RefundsController {
  constructor(
    private readonly services: ServiceCalls,
    private readonly payloads: AcquiringPayloads,
  ) {}

  @Post()
  @HttpCode(200)
  @ApiRoute({
    kind: 'command',
    summary: 'Create a refund',
    description: 'The refunds of a payment never add up to more than was captured.',
    body: CreateRefundBody,
    result: AcquiringCommands.createRefund,
    requestExample: EXAMPLES.createRefund,
    responseExample: EXAMPLES.refund,
  })
  create(@Req() request: AuthenticatedRequest, @Res({ passthrough: true }) reply: FastifyReply, @Body() body: CreateRefundBody) {
    return this.services.mutate(request, reply, 'acquiring', AcquiringCommands.createRefund, this.payloads.refund(body));
  }

  @Get()
  @ApiRoute({ kind: 'query', summary: 'List refunds', query: ListRefundsQuery, result: AcquiringCommands.listRefunds })
  list(@Req() request: AuthenticatedRequest, @Query() query: ListRefundsQuery) {
    return this.services.query(request, 'acquiring', AcquiringCommands.listRefunds, {
      page_size: query.page_size,
      page_number: query.page_number,
      start_time: query.start_time,
      end_time: query.end_time,
      payment_intent_id: query.payment_intent_id,
      merchant_order_id: query.merchant_order_id,
    });
  }

  @Get(':id')
  @ApiRoute({ kind: 'query', summary: 'Retrieve a refund', params: ResourceIdParam, result: AcquiringCommands.retrieveRefund })
  retrieve(@Req() request: AuthenticatedRequest, @Param() params: ResourceIdParam) {
    return this.services.query(request, 'acquiring', AcquiringCommands.retrieveRefund, { refund_id: params.id });
  }
}

@Controller('v2/payment/settlements')
@ApiTags('Acquiring')
export class SettlementsController {
  constructor(private readonly services: ServiceCalls) {}

  @Get()
  @ApiRoute({
    kind: 'query',
    summary: 'List settlements',
    description: 'Only successful settlements are returned.',
    query: ListSettlementsQuery,
    result: AcquiringCommands.listSettlements,
  })
  list(@Req() request: AuthenticatedRequest, @Query() query: ListSettlementsQuery) {
    return this.services.query(request, 'acquiring', AcquiringCommands.listSettlements, {
      page_size: query.page_size,
      page_number: query.page_number,
      payment_intent_id: query.payment_intent_id,
      settlement_batch_id: query.settlement_batch_id,
      settled_start_time: query.settled_start_time,
      settled_end_time: query.settled_end_time,
    });
  }
}
