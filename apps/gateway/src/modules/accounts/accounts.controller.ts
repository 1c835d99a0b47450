import { Body, Controller, Get, HttpCode, Param, Post, Query, Req, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { AccountCommands, CreateSubAccountDto, subAccountCrossFieldProblems } from '@paygrid/contracts';
import { Errors } from '@paygrid/platform';
import type { AuthenticatedRequest } from '../../common/authenticated-request';
import { ServiceCalls } from '../commands/service-calls';
import { ApiOperation } from '../api-reference/api-operation.decorator';
import {
  AccountIdParam,
  GetAdditionalQuery,
  ListAccountsQuery,
  RetrieveAccountQuery,
} from './dto/accounts.dto';

/** Connected accounts (spec 4.8–4.10): thin routes; the accounts service decides visibility. */
@Controller('v1/accounts')
export class AccountsController {
  constructor(private readonly services: ServiceCalls) {}

  @Get()
  @ApiOperation({
    tag: 'Accounts',
    summary: 'List connected accounts',
    description: 'A master sees itself and its sub-accounts; a sub-account sees only itself.',
  })
  list(@Req() request: AuthenticatedRequest, @Query() query: ListAccountsQuery) {
    return this.services.query(request, 'accounts', AccountCommands.list, {
      page_size: query.page_size,
      page_number: query.page_number,
    });
  }

  @Get('get_additional')
  @ApiOperation({
    tag: 'Accounts',
    summary: 'Additional documents required for a country',
    description: 'A bare array of {profile_key, profile_name, profile_option} (1 = required).',
  })
  getAdditional(@Req() request: AuthenticatedRequest, @Query() query: GetAdditionalQuery) {
    return this.services.query(request, 'accounts', AccountCommands.getAdditional, {
      country: query.country,
      business_code: query.business_code,
    });
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
    return this.services.query(request, 'accounts', AccountCommands.retrieve, {
      account_id: params.id.toLowerCase(),
      business_code: query.business_code,
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
  create(
    @Req() request: AuthenticatedRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
    @Body() body: CreateSubAccountDto,
  ) {
    // Refused here, before idempotency: a request rejected by validation stores nothing (decisions §3).
    const problems = subAccountCrossFieldProblems(body);
    if (problems.length > 0) throw Errors.invalidRequest(problems.join('; '));
    return this.services.mutate(request, reply, 'accounts', AccountCommands.createSubAccount, request.body);
  }
}
