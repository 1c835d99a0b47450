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
import { ApiOperation } from '../api-reference/api-operation.decorator';
import { AccountIdParam } from './dto/accounts.dto';

/**
 * Connected accounts (spec 4.8–4.10): one line per route; the bodies and queries are the commands'
 * payload classes (libs/contracts), and the accounts service decides visibility.
 */
@Controller('v1/accounts')
export class AccountsController {
  constructor(private readonly services: ServiceCalls) {}

  @Get()
  @ApiOperation({
    tag: 'Accounts',
    summary: 'List connected accounts',
    description: 'A master sees itself and its sub-accounts; a sub-account sees only itself.',
  })
  list(@Req() request: AuthenticatedRequest, @Query() query: ListAccountsPayload) {
    return this.services.execute(request, AccountCommand.list, query);
  }

  @Get('get_additional')
  @ApiOperation({
    tag: 'Accounts',
    summary: 'Additional documents required for a country',
    description: 'A bare array of {profile_key, profile_name, profile_option} (1 = required).',
  })
  getAdditional(@Req() request: AuthenticatedRequest, @Query() query: GetAdditionalPayload) {
    return this.services.execute(request, AccountCommand.getAdditional, query);
  }

  @Get(':id')
  @ApiOperation({
    tag: 'Accounts',
    summary: 'Retrieve an account',
    description: 'Another account is reported exactly as a missing one (account_not_found).',
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
  @ApiOperation({
    tag: 'Accounts',
    summary: 'Create a sub-account',
    description:
      'Starts PROCESSING/PENDING; the sandbox review approves it shortly after (a name containing REJECT is rejected).',
  })
  create(@Req() request: AuthenticatedRequest, @Body() body: CreateSubAccountDto) {
    return this.services.execute(request, AccountCommand.createSubAccount, body);
  }
}
