import { Body, Controller, Get, HttpCode, Param, Post, Query, Req } from '@nestjs/common';
import {
  BalanceCurrencyPayload,
  BankAccountIdPayload,
  CreateBankAccountPayload,
  CreatePayoutPayload,
  ListBalancesPayload,
  ListBankAccountsPayload,
  ListPayoutsPayload,
  PayoutCommand,
  PayoutIdPayload,
  UpdateBankAccountBody,
} from '@paygrid/contracts';
import type { AuthenticatedRequest } from '../../common/authenticated-request';
import { ApiOperation } from '../api-reference/api-operation.decorator';
import { ServiceCalls } from '../commands/service-calls';

/**
 * Settlement bank accounts, payouts and payment balances (spec 4.3, 4.4, 4.10; wire-compat §9.10–9.12):
 * one line per route onto the payouts command family. The body, query and path classes are the
 * contract's own (the service validates the same classes again). The SDKs send x-client-id here too;
 * it is tolerated, not required (decisions §1). Everything acts for the acting account (x-on-behalf-of).
 */
@Controller('v2/payment')
export class PayoutsController {
  constructor(private readonly services: ServiceCalls) {}

  @Post('bankaccount/create')
  @HttpCode(200)
  @ApiOperation({ summary: 'Create a settlement bank account', description: 'One per currency; bank_code_type and bank_branch_code as spec 4.3 requires per currency and country.', tag: 'Payouts' })
  createBankAccount(@Req() request: AuthenticatedRequest, @Body() body: CreateBankAccountPayload) {
    return this.services.execute(request, PayoutCommand.createBankAccount, body);
  }

  @Get('bankaccount')
  @ApiOperation({ summary: 'List settlement bank accounts', tag: 'Payouts' })
  listBankAccounts(@Req() request: AuthenticatedRequest, @Query() query: ListBankAccountsPayload) {
    return this.services.execute(request, PayoutCommand.listBankAccounts, query);
  }

  @Get('bankaccount/:id')
  @ApiOperation({ summary: 'Retrieve a settlement bank account', tag: 'Payouts' })
  retrieveBankAccount(@Req() request: AuthenticatedRequest, @Param() params: BankAccountIdPayload) {
    return this.services.execute(request, PayoutCommand.retrieveBankAccount, params);
  }

  @Post('bankaccount/:id')
  @HttpCode(200)
  @ApiOperation({ summary: 'Update a settlement bank account', description: 'The rules of spec 4.3 apply with the account\'s own currency.', tag: 'Payouts' })
  updateBankAccount(@Req() request: AuthenticatedRequest, @Param() params: BankAccountIdPayload, @Body() body: UpdateBankAccountBody) {
    return this.services.execute(request, PayoutCommand.updateBankAccount, { ...body, id: params.id });
  }

  @Post('payout/create')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Create a payout',
    description: 'Reserves the amount from the available balance at once (refused above it); to the settlement bank account of the currency, or internally with payout_account_id. Sandbox: an amount ending in .13 fails and is refunded.',
    tag: 'Payouts',
  })
  createPayout(@Req() request: AuthenticatedRequest, @Body() body: CreatePayoutPayload) {
    return this.services.execute(request, PayoutCommand.createPayout, body);
  }

  @Get(['payout', 'payouts'])
  @ApiOperation({ summary: 'List payouts', tag: 'Payouts' })
  listPayouts(@Req() request: AuthenticatedRequest, @Query() query: ListPayoutsPayload) {
    return this.services.execute(request, PayoutCommand.listPayouts, query);
  }

  @Get(['payout/:id', 'payouts/:id'])
  @ApiOperation({ summary: 'Retrieve a payout', tag: 'Payouts' })
  retrievePayout(@Req() request: AuthenticatedRequest, @Param() params: PayoutIdPayload) {
    return this.services.execute(request, PayoutCommand.retrievePayout, params);
  }

  @Get('balances')
  @ApiOperation({ summary: 'List payment balances', description: 'Every currency the account holds.', tag: 'Payouts' })
  listBalances(@Req() request: AuthenticatedRequest, @Query() query: ListBalancesPayload) {
    return this.services.execute(request, PayoutCommand.listBalances, query);
  }

  @Get('balances/:currency')
  @ApiOperation({ summary: 'Retrieve a payment balance', description: 'Zeros for a currency the account never held.', tag: 'Payouts' })
  retrieveBalance(@Req() request: AuthenticatedRequest, @Param() params: BalanceCurrencyPayload) {
    return this.services.execute(request, PayoutCommand.retrieveBalance, params);
  }
}
