import { Body, Controller, Get, HttpCode, Param, Post, Query, Req } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { IsUUID } from 'class-validator';
import {
  IssuingTransactionCommand,
  ListCardTransactionsPayload,
  SetDecisionEndpointPayload,
  SimulateAuthorizationPayload,
  SimulateChargebackPayload,
  SimulateReturnPayload,
  TransactionRef,
} from '@paygrid/contracts';
import type { AuthenticatedRequest } from '../../common/authenticated-request';
import { ApiRoute } from '../api-reference/api-route.decorator';
import { ServiceCalls } from '../commands/service-calls';

/**
 * Card transactions (wire-compat §11.11, §11.12, §12; docs/issuing.md "Card transactions"): the list and
 * retrieve routes, the sandbox simulators that run the real authorization path, and the account's real-time
 * decision endpoint. One line each onto the issuing command family.
 */
class IdParam {
  @IsUUID() id!: string;
}

@Controller()
@ApiTags('Issuing')
export class IssuingTransactionsController {
  constructor(private readonly services: ServiceCalls) {}

  @Get('v1/issuing/transactions')
  @ApiRoute({
    kind: 'query',
    summary: 'List card transactions',
    description: 'Newest first; filters card_id and the transaction_time range [start_time, end_time].',
    query: ListCardTransactionsPayload,
    result: 'issuing.transactions.list',
  })
  list(@Req() request: AuthenticatedRequest, @Query() query: ListCardTransactionsPayload) {
    return this.services.execute(request, IssuingTransactionCommand.listTransactions, query);
  }

  @Get('v1/issuing/transactions/:id')
  @ApiRoute({ kind: 'query', summary: 'Retrieve a card transaction', params: IdParam, result: 'issuing.transactions.retrieve' })
  retrieve(@Req() request: AuthenticatedRequest, @Param() params: IdParam) {
    return this.services.execute(request, IssuingTransactionCommand.retrieveTransaction, { transaction_id: params.id });
  }

  @Post('v1/simulation/issuing/authorization') @HttpCode(200)
  @ApiRoute({
    kind: 'command',
    summary: 'Simulate a card authorization (sandbox)',
    description:
      'Runs the real authorization path: card status and expiry, risk controls (channel), spending controls, limit, balance and the ' +
      "account's decision endpoint. APPROVED holds the amount on the card at once and clears after a short delay; DECLINED says why " +
      'in failure_reason. A merchant_category_code that is not 4 digits is "MCC is error".',
    body: SimulateAuthorizationPayload,
    result: 'issuing.simulation.authorization',
  })
  authorize(@Req() request: AuthenticatedRequest, @Body() body: SimulateAuthorizationPayload) {
    return this.services.execute(request, IssuingTransactionCommand.simulateAuthorization, body);
  }

  @Post('v1/simulation/issuing/reversal') @HttpCode(200)
  @ApiRoute({
    kind: 'command',
    summary: 'Simulate the reversal of an authorization (sandbox)',
    description: 'Releases the hold of an approved authorization that has not cleared, exactly once.',
    body: TransactionRef,
    result: 'issuing.simulation.reversal',
  })
  reverse(@Req() request: AuthenticatedRequest, @Body() body: TransactionRef) {
    return this.services.execute(request, IssuingTransactionCommand.simulateReversal, body);
  }

  @Post('v1/simulation/issuing/refund') @HttpCode(200)
  @ApiRoute({
    kind: 'command',
    summary: 'Simulate a merchant refund of a cleared authorization (sandbox)',
    body: SimulateReturnPayload,
    result: 'issuing.simulation.refund',
  })
  refund(@Req() request: AuthenticatedRequest, @Body() body: SimulateReturnPayload) {
    return this.services.execute(request, IssuingTransactionCommand.simulateRefund, body);
  }

  @Post('v1/simulation/issuing/chargeback') @HttpCode(200)
  @ApiRoute({
    kind: 'command',
    summary: 'Simulate a chargeback credit (of a cleared authorization) or debit (of a credit) (sandbox)',
    body: SimulateChargebackPayload,
    result: 'issuing.simulation.chargeback',
  })
  chargeback(@Req() request: AuthenticatedRequest, @Body() body: SimulateChargebackPayload) {
    return this.services.execute(request, IssuingTransactionCommand.simulateChargeback, body);
  }

  @Post('v1/issuing/authorization_decision/endpoint') @HttpCode(200)
  @ApiRoute({
    kind: 'command',
    summary: 'Set the real-time authorization decision endpoint',
    description: 'Answers the signing secret once. Requests are signed with HMAC-SHA512 (docs/issuing.md, "Decision endpoint").',
    body: SetDecisionEndpointPayload,
    result: 'issuing.decision_endpoint.set',
  })
  setDecisionEndpoint(@Req() request: AuthenticatedRequest, @Body() body: SetDecisionEndpointPayload) {
    return this.services.execute(request, IssuingTransactionCommand.setDecisionEndpoint, body);
  }

  @Get('v1/issuing/authorization_decision/endpoint')
  @ApiRoute({ kind: 'query', summary: 'Retrieve the real-time authorization decision endpoint', result: 'issuing.decision_endpoint.retrieve' })
  retrieveDecisionEndpoint(@Req() request: AuthenticatedRequest) {
    return this.services.execute(request, IssuingTransactionCommand.retrieveDecisionEndpoint, {});
  }

  @Post('v1/issuing/authorization_decision/endpoint/delete') @HttpCode(200)
  @ApiRoute({
    kind: 'command',
    summary: 'Remove the real-time authorization decision endpoint',
    result: 'issuing.decision_endpoint.delete',
  })
  deleteDecisionEndpoint(@Req() request: AuthenticatedRequest) {
    return this.services.execute(request, IssuingTransactionCommand.deleteDecisionEndpoint, {});
  }
}
