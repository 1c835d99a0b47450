import { Controller, HttpCode, Post, Req } from '@nestjs/common';
import type { AuthenticatedRequest } from '../../common/authenticated-request';
import { authOf } from '../../common/authenticated-request';
import { ApiTags } from '@nestjs/swagger';
import { EXAMPLES } from '../api-reference/api-examples';
import { ApiRoute } from '../api-reference/api-route.decorator';

/**
 * `POST /v1/diagnostics/echo`: lets an integrator check credentials, on-behalf-of and idempotency
 * without touching money, and lets `npm run bench` measure the gateway's own cost per request
 * (authentication, rate limit, idempotency record) apart from any service's.
 */
/** Who is acting, as the gateway established it. */
export interface EchoView {
  account_id: string;
  caller_account_id: string;
  client_id: string;
  received_at: string;
}

@Controller('v1/diagnostics')
@ApiTags('Diagnostics')
export class DiagnosticsController {
  @Post('echo')
  @HttpCode(200)
  @ApiRoute({
    kind: 'command',
    summary: 'Echo the authenticated caller (no domain effect)',
    description: 'Authenticated and idempotent like every POST; answers who is acting. Replays carry x-idempotent-replayed.',
    response: 'EchoView',
    responseExample: EXAMPLES.echo,
  })
  echo(@Req() request: AuthenticatedRequest) {
    const auth = authOf(request);
    const echo: EchoView = {
      account_id: auth.actor.account_id,
      caller_account_id: auth.actor.caller_account_id,
      client_id: auth.clientId,
      received_at: new Date().toISOString(),
    };
    return echo;
  }
}
