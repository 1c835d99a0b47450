import { Body, Controller, Get, HttpCode, Param, Post, Query, Req, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { AccountCommands, CreateSubAccountDto, subAccountCrossFieldProblems } from '@paygrid/contracts';
import { Errors } from '@paygrid/platform';
import type { AuthenticatedRequest } from '../../common/authenticated-request';
import { ServiceCalls } from '../commands/service-calls';
import { ApiTags } from '@nestjs/swagger';
import { EXAMPLES } from '../api-reference/api-examples';
import { ApiRoute } from '../api-reference/api-route.decorator';
import {
  AccountIdParam,
  GetAdditionalQuery,
  ListAccountsQuery,
  RetrieveAccountQuery,
} from './dto/accounts.dto';

/** Connected accounts (spec 4.8–4.10): thin routes; the accounts service decides visibility. */
@Controller('v1/accounts')
@ApiTags('Accounts')
export class AccountsController {
  constructor(private readonly services: ServiceCalls) {}

  @Get()
  @ApiRoute({
    kind: 'query',
    summary: 'List connected accounts',
    description: 'A master sees itself and its sub-accounts; a sub-account sees only itself.',
    query: ListAccountsQuery,
    result: AccountCommands.list,
  })
  list(@Req() request: AuthenticatedRequest, @Query() query: ListAccountsQuery) {
    return this.services.query(request, 'accounts', AccountCommands.list, {
      page_size: query.page_size,
      page_number: query.page_number,
    });
  }

  @Get('get_additional')
  @ApiRoute({
    kind: 'query',
    summary: 'Additional documents required for a country',
    description: 'A bare array of {profile_key, profile_name, profile_option} (1 = required).',
    query: GetAdditionalQuery,
    result: AccountCommands.getAdditional,
    responseExample: EXAMPLES.additionalDocuments,
  })
  getAdditional(@Req() request: AuthenticatedRequest, @Query() query: GetAdditionalQuery) {
    return this.services.query(request, 'accounts', AccountCommands.getAdditional, {
      country: query.country,
      business_code: query.business_code,
    });
  }

  @Get(':id')
  @ApiRoute({
    kind: 'query',
    summary: 'Retrieve an account',
    description: 'Another account is reported exactly as a missing one (account_not_found).',
    params: AccountIdParam,
    query: RetrieveAccountQuery,
    result: AccountCommands.retrieve,
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
  @ApiRoute({
    kind: 'command',
    summary: 'Create a sub-account',
    description:
      'Starts PROCESSING/PENDING; the sandbox review approves it shortly after (a name containing REJECT is rejected).',
    body: CreateSubAccountDto,
    result: AccountCommands.createSubAccount,
    requestExample: EXAMPLES.createSubAccount,
    responseExample: EXAMPLES.createdSubAccount,
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
