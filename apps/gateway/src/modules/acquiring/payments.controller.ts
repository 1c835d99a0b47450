import { Body, Controller, Get, HttpCode, Param, Post, Query, Req } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import {
  AcquiringCommand,
  CreateRefundPayload,
  ListAttemptsPayload,
  ListRefundsPayload,
  ListSettlementsPayload,
} from '@paygrid/contracts';
import type { AuthenticatedRequest } from '../../common/authenticated-request';
import { EXAMPLES } from '../api-reference/api-examples';
import { ApiRoute } from '../api-reference/api-route.decorator';
import { ServiceCalls } from '../commands/service-calls';
import { ResourceIdParam } from './dto/acquiring.dto';

/**
 * Payment attempts, refunds and settlements (wire-compat §9.7–9.9, spec 4.10). The SDKs send
 * x-client-id here too; it is tolerated, not required (decisions §1).
 */
@Controller('v2/payment/payment_attempts')
@ApiTags('Acquiring')
export class PaymentAttemptsController {
  constructor(private readonly services: ServiceCalls) {}

  @Get()
  @ApiRoute({ kind: 'query', summary: 'List PaymentAttempts', query: ListAttemptsPayload, result: AcquiringCommand.listAttempts.type })
  list(@Req() request: AuthenticatedRequest, @Query() query: ListAttemptsPayload) {
    return this.services.execute(request, AcquiringCommand.listAttempts, query);
  }

  @Get(':id')
  @ApiRoute({
    kind: 'query',
    summary: 'Retrieve a PaymentAttempt',
    params: ResourceIdParam,
    result: AcquiringCommand.retrieveAttempt.type,
    responseExample: EXAMPLES.paymentAttempt,
  })
  retrieve(@Req() request: AuthenticatedRequest, @Param() params: ResourceIdParam) {
    return this.services.execute(request, AcquiringCommand.retrieveAttempt, { attempt_id: params.id });
  }
}

@Controller('v2/payment/refunds')
@ApiTags('Acquiring')
export class RefundsController {
  constructor(private readonly services: ServiceCalls) {}

  @Post()
  @HttpCode(200)
  @ApiRoute({
    kind: 'command',
    summary: 'Create a refund',
    description: 'The refunds of a payment never add up to more than was captured.',
    body: CreateRefundPayload,
    result: AcquiringCommand.createRefund.type,
    requestExample: EXAMPLES.createRefund,
    responseExample: EXAMPLES.refund,
  })
  create(@Req() request: AuthenticatedRequest, @Body() body: CreateRefundPayload) {
    return this.services.execute(request, AcquiringCommand.createRefund, body);
  }

  @Get()
  @ApiRoute({ kind: 'query', summary: 'List refunds', query: ListRefundsPayload, result: AcquiringCommand.listRefunds.type })
  list(@Req() request: AuthenticatedRequest, @Query() query: ListRefundsPayload) {
    return this.services.execute(request, AcquiringCommand.listRefunds, query);
  }

  @Get(':id')
  @ApiRoute({ kind: 'query', summary: 'Retrieve a refund', params: ResourceIdParam, result: AcquiringCommand.retrieveRefund.type })
  retrieve(@Req() request: AuthenticatedRequest, @Param() params: ResourceIdParam) {
    return this.services.execute(request, AcquiringCommand.retrieveRefund, { refund_id: params.id });
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
    query: ListSettlementsPayload,
    result: AcquiringCommand.listSettlements.type,
  })
  list(@Req() request: AuthenticatedRequest, @Query() query: ListSettlementsPayload) {
    return this.services.execute(request, AcquiringCommand.listSettlements, query);
  }
}
