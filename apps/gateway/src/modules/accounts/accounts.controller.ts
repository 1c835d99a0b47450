import { Body, Controller, Get, HttpCode, Param, Post, Query, Req } from '@nestjs/common';
import {
  AccountCommand,
  CreateSubAccountDto,
  GetAdditionalPayload,
  ListAccountsPayload,
  RetrieveAccountQuery,
} from '@paygrid/contracts';
import type { AuthenticatedRequest } from '../../common/authenticated-request';
import { ServiceCalls } from '../commands/service-calls';
import { ApiTags } from '@nestjs/swagger';
import { EXAMPLES } from '../api-reference/api-examples';
import { ApiRoute } from '../api-reference/api-route.decorator';
import { AccountIdParam } from './dto/accounts.dto';

/**
 * Connected accounts (spec 4.8–4.10): one line per route; the bodies and queries are the commands'
 * payload classes (libs/contracts), and the accounts service decides visibility.
 */
@Controller('v1/accounts')
@ApiTags('Accounts')
export class AccountsController {
  constructor(private readonly services: ServiceCalls) {}

  @Get()
  @ApiRoute({
    kind: 'query',
    summary: 'List connected accounts',
    description: 'A master sees itself and its sub-accounts; a sub-account sees only itself.',
    query: ListAccountsPayload,
    result: AccountCommand.list.type,
  })
  list(@Req() request: AuthenticatedRequest, @Query() query: ListAccountsPayload) {
    return this.services.execute(request, AccountCommand.list, query);
  }

  @Get('get_additional')
  @ApiRoute({
    kind: 'query',
    summary: 'Additional documents required for a country',
    description: 'A bare array of {profile_key, profile_name, profile_option} (1 = required).',
    query: GetAdditionalPayload,
    result: AccountCommand.getAdditional.type,
    responseExample: EXAMPLES.additionalDocuments,
  })
  getAdditional(@Req() request: AuthenticatedRequest, @Query() query: GetAdditionalPayload) {
    return this.services.execute(request, AccountCommand.getAdditional, query);
  }

  @Get(':id')
  @ApiRoute({
    kind: 'query',
    summary: 'Retrieve an account',
    description: 'Another account is reported exactly as a missing one (account_not_found).',
    params: AccountIdParam,
    query: RetrieveAccountQuery,
    result: AccountCommand.retrieve.type,
  })
  retrieve(
    @Req() request: AuthenticatedRequest,
    @Param() params: AccountIdParam,
    @Query() query: RetrieveAccountQuery,
  ) {
    return this.services.execute(request, AccountCommand.retrieve, {
      ...query,
      account_id: params.id.toLowerCase(),
    });
  }

  @Post('create_accounts')
  @HttpCode(200)
  @ApiRoute({
    kind: 'command',
    summary: 'Create a sub-account',
    description:
      'Starts PROCESSING/PENDING; the sandbox review approves it shortly after (a name containing REJECT is rejected).',
    body: CreateSubAccountDto,
    result: AccountCommand.createSubAccount.type,
    requestExample: EXAMPLES.createSubAccount,
    responseExample: EXAMPLES.createdSubAccount,
  })
  create(@Req() request: AuthenticatedRequest, @Body() body: CreateSubAccountDto) {
    return this.services.execute(request, AccountCommand.createSubAccount, body);
  }
}
