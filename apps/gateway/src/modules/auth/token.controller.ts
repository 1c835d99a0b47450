import { Controller, HttpCode, Inject, Post, Req } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { CredentialCommand } from '@paygrid/contracts';
import { CommandBus, Errors } from '@paygrid/platform';
import { COMMAND_BUS } from '../commands/command-bus.provider';
import { correlationOf } from '../commands/service-calls';
import { Public } from './route-policy.decorator';
import { TokenService } from './token.service';
import { ApiTags } from '@nestjs/swagger';
import { EXAMPLES } from '../api-reference/api-examples';
import { ApiRoute } from '../api-reference/api-route.decorator';

/**
 * Token issuance exactly as the official SDKs call it (wire-compat §2): headers x-client-id and
 * x-api-key, no body, answer `{auth_token, expired_at}` at the top level.
 */
@Controller('v1/connect')
@ApiTags('Authentication')
export class TokenController {
  constructor(
    private readonly tokens: TokenService,
    @Inject(COMMAND_BUS) private readonly bus: CommandBus,
  ) {}

  @Post('token')
  @Public()
  @ApiRoute({
    kind: 'credentials',
    summary: 'Issue an auth token',
    description:
      'Headers x-client-id and x-api-key, no body. Answers {auth_token, expired_at} (Unix seconds, 30 minutes).',
    response: 'IssuedToken',
    responseExample: EXAMPLES.issuedToken,
  })
  @HttpCode(200)
  async issue(@Req() request: FastifyRequest) {
    const clientId = single(request.headers['x-client-id']);
    const apiKey = single(request.headers['x-api-key']);
    if (!clientId || !apiKey) throw Errors.unauthorized('x-client-id and x-api-key headers are required');
    if (clientId.length > 128 || apiKey.length > 256)
      throw Errors.unauthorized('Invalid client id or API key');
    const credential = await this.bus.execute(
      CredentialCommand.verify,
      { client_id: clientId, api_key: apiKey, ip: request.ip },
      { actor: null, key: clientId, correlationId: correlationOf(request) },
    );
    return this.tokens.issue(credential);
  }
}

function single(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
