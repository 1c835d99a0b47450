import { Body, Controller, Get, HttpCode, Param, Post, Query, Req } from '@nestjs/common';
import {
  AcquiringCommand,
  CreateRefundPayload,
  ListAttemptsPayload,
  ListRefundsPayload,
  ListSettlementsPayload,
} from '@paygrid/contracts';
import type { AuthenticatedRequest } from '../../common/authenticated-request';
import { ApiOperation } from '../api-reference/api-operation.decorator';
import { ServiceCalls } from '../commands/service-calls';
import { ResourceIdParam } from './dto/acquiring.dto';

/**
 * Payment attempts, refunds and settlements (wire-compat §9.7–9.9, spec 4.10). The SDKs send
 * x-client-id here too; it is tolerated, not required (decisions §1).
 */
@Controller('v2/payment/payment_attempts')
export class PaymentAttemptsController {
  constructor(private readonly services: ServiceCalls) {}

  @Get()
  @ApiOperation({ summary: 'List PaymentAttempts', tag: 'Acquiring' })
  list(@Req() request: AuthenticatedRequest, @Query() query: ListAttemptsPayload) {
    return this.services.execute(request, AcquiringCommand.listAttempts, query);
  }

  @Get(':id')
  @ApiOperation({ summary: 'Retrieve a PaymentAttempt', tag: 'Acquiring' })
  retrieve(@Req() request: AuthenticatedRequest, @Param() params: ResourceIdParam) {
    return this.services.execute(request, AcquiringCommand.retrieveAttempt, { attempt_id: params.id });
  }
}

@Controller('v2/payment/refunds')
export class RefundsController {
  constructor(private readonly services: ServiceCalls) {}

  @Post()
  @HttpCode(200)
  @ApiOperation({
    summary: 'Create a refund',
    description: 'The refunds of a payment never add up to more than was captured.',
    tag: 'Acquiring',
  })
  create(@Req() request: AuthenticatedRequest, @Body() body: CreateRefundPayload) {
    return this.services.execute(request, AcquiringCommand.createRefund, body);
  }

  @Get()
  @ApiOperation({ summary: 'List refunds', tag: 'Acquiring' })
  list(@Req() request: AuthenticatedRequest, @Query() query: ListRefundsPayload) {
    return this.services.execute(request, AcquiringCommand.listRefunds, query);
  }

  @Get(':id')
  @ApiOperation({ summary: 'Retrieve a refund', tag: 'Acquiring' })
  retrieve(@Req() request: AuthenticatedRequest, @Param() params: ResourceIdParam) {
    return this.services.execute(request, AcquiringCommand.retrieveRefund, { refund_id: params.id });
  }
}

@Controller('v2/payment/settlements')
export class SettlementsController {
  constructor(private readonly services: ServiceCalls) {}

  @Get()
  @ApiOperation({ summary: 'List settlements', description: 'Only successful settlements are returned.', tag: 'Acquiring' })
  list(@Req() request: AuthenticatedRequest, @Query() query: ListSettlementsPayload) {
    return this.services.execute(request, AcquiringCommand.listSettlements, query);
  }
}
