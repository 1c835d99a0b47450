import { Body, Controller, Get, HttpCode, Param, Post, Query, Req } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
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
import { ApiRoute } from '../api-reference/api-route.decorator';
import { ServiceCalls } from '../commands/service-calls';
import { PAYOUT_EXAMPLES } from './payout-examples';

/**
 * Settlement bank accounts, payouts and payment balances (spec 4.3, 4.4, 4.10; wire-compat §9.10–9.12):
 * one line per route onto the payouts command family. The body, query and path classes are the
 * contract's own (the service validates the same classes again). The SDKs send x-client-id here too;
 * it is tolerated, not required (decisions §1). Everything acts for the acting account (x-on-behalf-of).
 * Payouts answer on the SDK's paths (`/payout`, wire-compat §9.11) and on the plural ones.
 */
@Controller('v2/payment')
@ApiTags('Payouts')
export class PayoutsController {
  constructor(private readonly services: ServiceCalls) {}

  @Post('bankaccount/create')
  @HttpCode(200)
  @ApiRoute({
    kind: 'command',
    summary: 'Create a settlement bank account',
    description: 'One per currency. bank_code_type and bank_code_value as spec 4.3 requires for the currency and bank country; bank_branch_code for CAD.',
    body: CreateBankAccountPayload,
    result: PayoutCommand.createBankAccount.type,
    requestExample: PAYOUT_EXAMPLES.createBankAccount,
    responseExample: PAYOUT_EXAMPLES.bankAccount,
  })
  createBankAccount(@Req() request: AuthenticatedRequest, @Body() body: CreateBankAccountPayload) {
    return this.services.execute(request, PayoutCommand.createBankAccount, body);
  }

  @Get('bankaccount')
  @ApiRoute({ kind: 'query', summary: 'List settlement bank accounts', query: ListBankAccountsPayload, result: PayoutCommand.listBankAccounts.type })
  listBankAccounts(@Req() request: AuthenticatedRequest, @Query() query: ListBankAccountsPayload) {
    return this.services.execute(request, PayoutCommand.listBankAccounts, query);
  }

  @Get('bankaccount/:id')
  @ApiRoute({ kind: 'query', summary: 'Retrieve a settlement bank account', params: BankAccountIdPayload, result: PayoutCommand.retrieveBankAccount.type })
  retrieveBankAccount(@Req() request: AuthenticatedRequest, @Param() params: BankAccountIdPayload) {
    return this.services.execute(request, PayoutCommand.retrieveBankAccount, params);
  }

  @Post('bankaccount/:id')
  @HttpCode(200)
  @ApiRoute({
    kind: 'command',
    summary: 'Update a settlement bank account',
    description: "The rules of spec 4.3 apply with the account's own currency.",
    params: BankAccountIdPayload,
    body: UpdateBankAccountBody,
    result: PayoutCommand.updateBankAccount.type,
  })
  updateBankAccount(@Req() request: AuthenticatedRequest, @Param() params: BankAccountIdPayload, @Body() body: UpdateBankAccountBody) {
    return this.services.execute(request, PayoutCommand.updateBankAccount, { ...body, id: params.id });
  }

  @Post('payout/create')
  @HttpCode(200)
  @ApiRoute({
    kind: 'command',
    summary: 'Create a payout',
    description:
      'Reserves the amount from the available balance at once (refused above it, `account_balance_error`); to the settlement bank account of the currency, or internally with payout_account_id. Sandbox: an amount ending in .13 fails and is refunded.',
    body: CreatePayoutPayload,
    result: PayoutCommand.createPayout.type,
    requestExample: PAYOUT_EXAMPLES.createPayout,
    responseExample: PAYOUT_EXAMPLES.payout,
  })
  createPayout(@Req() request: AuthenticatedRequest, @Body() body: CreatePayoutPayload) {
    return this.services.execute(request, PayoutCommand.createPayout, body);
  }

  @Get(['payout', 'payouts'])
  @ApiRoute({ kind: 'query', summary: 'List payouts', query: ListPayoutsPayload, result: PayoutCommand.listPayouts.type })
  listPayouts(@Req() request: AuthenticatedRequest, @Query() query: ListPayoutsPayload) {
    return this.services.execute(request, PayoutCommand.listPayouts, query);
  }

  @Get(['payout/:id', 'payouts/:id'])
  @ApiRoute({ kind: 'query', summary: 'Retrieve a payout', params: PayoutIdPayload, result: PayoutCommand.retrievePayout.type })
  retrievePayout(@Req() request: AuthenticatedRequest, @Param() params: PayoutIdPayload) {
    return this.services.execute(request, PayoutCommand.retrievePayout, params);
  }

  @Get('balances')
  @ApiRoute({ kind: 'query', summary: 'List payment balances', description: 'Every currency the account holds.', query: ListBalancesPayload, result: PayoutCommand.listBalances.type })
  listBalances(@Req() request: AuthenticatedRequest, @Query() query: ListBalancesPayload) {
    return this.services.execute(request, PayoutCommand.listBalances, query);
  }

  @Get('balances/:currency')
  @ApiRoute({
    kind: 'query',
    summary: 'Retrieve a payment balance',
    description: 'Zeros for a currency the account never held.',
    params: BalanceCurrencyPayload,
    result: PayoutCommand.retrieveBalance.type,
    responseExample: PAYOUT_EXAMPLES.balance,
  })
  retrieveBalance(@Req() request: AuthenticatedRequest, @Param() params: BalanceCurrencyPayload) {
    return this.services.execute(request, PayoutCommand.retrieveBalance, params);
  }
}
