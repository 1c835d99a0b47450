import { CanActivate, ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import Redis from 'ioredis';
import { REVOKED_KEYS_REDIS_KEY } from '@paygrid/contracts';
import { APP_CONFIG, Errors, ipAllowed, REDIS } from '@paygrid/platform';
import { AuthenticatedRequest } from '../../common/authenticated-request';
import { GatewayConfig } from '../../config';
import { OnBehalfOfResolver } from './on-behalf-of.resolver';
import { correlationOf } from '../commands/service-calls';
import { ROUTE_POLICY, RoutePolicy } from './route-policy.decorator';
import { TokenService } from './token.service';

/**
 * Authenticates every API route that is not public, in the order the SDKs expect errors: token
 * (expired: 401 "Token expired", which the SDKs refresh silently), revocation, IP allow-list (401 "IP
 * not allowed", never retried), rate limit (429), client id and permission (403), then resolves who
 * acts (x-on-behalf-of). Revocation and the rate counter cost one pipelined Redis round trip; no
 * request waits on another service unless it names an on-behalf-of account not yet cached.
 */
@Injectable()
export class AuthGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly tokens: TokenService,
    private readonly onBehalfOf: OnBehalfOfResolver,
    @Inject(REDIS) private readonly redis: Redis,
    @Inject(APP_CONFIG) private readonly config: GatewayConfig,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const policy =
      this.reflector.getAllAndOverride<RoutePolicy | undefined>(ROUTE_POLICY, [
        context.getHandler(),
        context.getClass(),
      ]) ?? {};
    const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
    if (policy.public || !isApiRoute(request)) return true;

    const claims = this.tokens.verify(request.headers['x-auth-token']);
    const { revoked, requestsThisSecond } = await this.countAndCheckRevocation(claims.kid, claims.entity_id);
    if (revoked) throw Errors.unauthorized('API key revoked');
    if (!ipAllowed(request.ip, claims.ips ?? [])) throw Errors.unauthorized('IP not allowed');
    if (requestsThisSecond > this.config.RATE_LIMIT_PER_SECOND) throw Errors.tooManyRequests(1);
    if (policy.requiresClientId) {
      const clientId = request.headers['x-client-id'];
      if (!clientId) throw Errors.unauthorized('x-client-id header is required');
      if (clientId !== claims.client_id)
        throw Errors.unauthorized('x-client-id does not match the auth token');
    }
    if (policy.permission && !(claims.perms ?? []).includes(policy.permission)) {
      throw Errors.forbidden(`the API key lacks the ${policy.permission} permission`);
    }
    const caller = { accountId: claims.entity_id, masterAccountId: claims.mid, clientId: claims.client_id };
    const acting = await this.onBehalfOf.resolve(caller, request.headers['x-on-behalf-of'], correlationOf(request));
    request.auth = {
      keyId: claims.kid,
      clientId: claims.client_id,
      accountId: claims.entity_id,
      masterAccountId: claims.mid,
      shortReferenceId: claims.short_entity_id,
      permissions: claims.perms ?? [],
      actor: {
        account_id: acting.account_id,
        master_account_id: acting.master_account_id,
        caller_account_id: claims.entity_id,
        client_id: claims.client_id,
        permissions: claims.perms ?? [],
      },
    };
    return true;
  }

  /** Fixed one-second window per account (decisions §4), in the same round trip as the revocation check. */
  private async countAndCheckRevocation(keyId: string, accountId: string) {
    const windowKey = `paygrid:ratelimit:${accountId}:${Math.floor(Date.now() / 1000)}`;
    const results = await this.redis
      .pipeline()
      .sismember(REVOKED_KEYS_REDIS_KEY, keyId)
      .incr(windowKey)
      .expire(windowKey, 2)
      .exec();
    if (!results || results.some(([error]) => error))
      throw Errors.unauthorized('token dependencies unavailable');
    return { revoked: results[0][1] === 1, requestsThisSecond: Number(results[1][1]) };
  }
}

function isApiRoute(request: AuthenticatedRequest): boolean {
  return /^\/api\/v\d+\//.test(request.url);
}
