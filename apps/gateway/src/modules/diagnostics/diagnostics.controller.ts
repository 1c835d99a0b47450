import { Controller, HttpCode, Post, Req } from '@nestjs/common';
import type { AuthenticatedRequest } from '../../common/authenticated-request';
import { authOf } from '../../common/authenticated-request';
import { ApiOperation } from '../api-reference/api-operation.decorator';

/**
 * `POST /v1/diagnostics/echo`: lets an integrator check credentials, on-behalf-of and idempotency
 * without touching money, and lets `npm run bench` measure the gateway's own cost per request
 * (authentication, rate limit, idempotency record) apart from any service's.
 */
@Controller('v1/diagnostics')
export class DiagnosticsController {
  @Post('echo')
  @HttpCode(200)
  @ApiOperation({
    tag: 'Diagnostics',
    summary: 'Echo the authenticated caller (no domain effect)',
    description: 'Authenticated and idempotent like every POST; answers who is acting. Replays carry x-idempotent-replayed.',
  })
  echo(@Req() request: AuthenticatedRequest) {
    const auth = authOf(request);
    return {
      account_id: auth.actor.account_id,
      caller_account_id: auth.actor.caller_account_id,
      client_id: auth.clientId,
      received_at: new Date().toISOString(),
    };
  }
}
