import { Body, Controller, Get, HttpCode, Param, Post, Query, Req, Res } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { IsUUID } from 'class-validator';
import {
  CreateIssuingReportPayload,
  CreateIssuingTransferPayload,
  IssuingFundsCommand,
  ListBalanceTransactionsPayload,
  ListIssuingBalancesPayload,
  ListIssuingTransfersPayload,
  RetrieveIssuingBalancePayload,
  SimulateDepositPayload,
} from '@paygrid/contracts';
import type { AuthenticatedRequest } from '../../common/authenticated-request';
import { ApiRoute } from '../api-reference/api-route.decorator';
import { ServiceCalls } from '../commands/service-calls';
import { ReadOnlyPost } from '../idempotency/idempotency.gate';

/**
 * The issuing money routes (wire-compat §11.10, §11.11 reports, §12 deposits; docs/issuing.md "Balances, transfers
 * and reports"): one line each onto the issuing command family. Retrieving a balance is a POST that only reads,
 * whatever idempotency key it carries.
 */
class IdParam {
  @IsUUID() id!: string;
}

@Controller('v1')
@ApiTags('Issuing')
export class IssuingFundsController {
  constructor(private readonly services: ServiceCalls) {}

  @Get('issuing/balances')
  @ApiRoute({ kind: 'query', summary: 'List issuing balances', query: ListIssuingBalancesPayload, result: 'issuing.balances.list' })
  listBalances(@Req() request: AuthenticatedRequest, @Query() query: ListIssuingBalancesPayload) {
    return this.services.execute(request, IssuingFundsCommand.listBalances, query);
  }

  @Post('issuing/balances') @HttpCode(200) @ReadOnlyPost()
  @ApiRoute({
    kind: 'query',
    summary: 'Retrieve an issuing balance',
    description: 'A read sent as a POST (as the official SDK sends it); a currency the account holds no balance in is account_balance_error.',
    body: RetrieveIssuingBalancePayload,
    result: 'issuing.balances.retrieve',
  })
  retrieveBalance(@Req() request: AuthenticatedRequest, @Body() body: RetrieveIssuingBalancePayload) {
    return this.services.execute(request, IssuingFundsCommand.retrieveBalance, body);
  }

  @Get('issuing/balances/transactions')
  @ApiRoute({
    kind: 'query',
    summary: 'List issuing balance transactions',
    description: 'Newest first; start_time inclusive, end_time exclusive.',
    query: ListBalanceTransactionsPayload,
    result: 'issuing.balances.transactions',
  })
  listBalanceTransactions(@Req() request: AuthenticatedRequest, @Query() query: ListBalanceTransactionsPayload) {
    return this.services.execute(request, IssuingFundsCommand.listBalanceTransactions, query);
  }

  @Post('issuing/transfers') @HttpCode(200)
  @ApiRoute({
    kind: 'command',
    summary: 'Transfer between a master account and a sub-account',
    description: 'Reserved on the source at once (refused if it cannot cover it), PENDING, then COMPLETED or FAILED (sandbox: cents 13 fail).',
    body: CreateIssuingTransferPayload,
    result: 'issuing.transfers.create',
  })
  createTransfer(@Req() request: AuthenticatedRequest, @Body() body: CreateIssuingTransferPayload) {
    return this.services.execute(request, IssuingFundsCommand.createTransfer, body);
  }

  @Get('issuing/transfers')
  @ApiRoute({ kind: 'query', summary: 'List issuing transfers', query: ListIssuingTransfersPayload, result: 'issuing.transfers.list' })
  listTransfers(@Req() request: AuthenticatedRequest, @Query() query: ListIssuingTransfersPayload) {
    return this.services.execute(request, IssuingFundsCommand.listTransfers, query);
  }

  @Get('issuing/transfers/:id')
  @ApiRoute({ kind: 'query', summary: 'Retrieve an issuing transfer', params: IdParam, result: 'issuing.transfers.retrieve' })
  retrieveTransfer(@Req() request: AuthenticatedRequest, @Param() params: IdParam) {
    return this.services.execute(request, IssuingFundsCommand.retrieveTransfer, { transfer_id: params.id });
  }

  @Post('issuing/reports') @HttpCode(200)
  @ApiRoute({
    kind: 'command',
    summary: 'Request an issuing report',
    description: 'SETTLEMENT or BALANCE_TRANSACTION over [start_time, end_time); produced in the background, announced by issuing.report.succeeded.',
    body: CreateIssuingReportPayload,
    result: 'issuing.reports.create',
  })
  createReport(@Req() request: AuthenticatedRequest, @Body() body: CreateIssuingReportPayload) {
    return this.services.execute(request, IssuingFundsCommand.createReport, body);
  }

  @Get('issuing/reports/:id')
  @ApiRoute({ kind: 'query', summary: 'Download an issuing report (CSV)', params: IdParam, file: 'text/csv' })
  async downloadReport(@Req() request: AuthenticatedRequest, @Param() params: IdParam, @Res({ passthrough: true }) reply: FastifyReply) {
    const file = await this.services.execute(request, IssuingFundsCommand.downloadReport, { report_id: params.id });
    void reply.header('content-type', `${file.content_type}; charset=utf-8`).header('content-disposition', `attachment; filename="${file.file_name}"`);
    return file.content;
  }

  @Post('simulation/deposit') @HttpCode(200)
  @ApiRoute({
    kind: 'command',
    summary: 'Simulate a deposit (sandbox)',
    description: 'Credits the acting account\'s issuing balance in the currency at once.',
    body: SimulateDepositPayload,
    result: 'issuing.simulation.deposit',
  })
  simulateDeposit(@Req() request: AuthenticatedRequest, @Body() body: SimulateDepositPayload) {
    return this.services.execute(request, IssuingFundsCommand.simulateDeposit, body);
  }
}
