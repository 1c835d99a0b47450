import { CanActivate, ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ResolvedAccount } from '@paygrid/contracts';
import { ApiError, APP_CONFIG, Errors, ipAllowed } from '@paygrid/platform';
import { AuthenticatedRequest } from '../../common/authenticated-request';
import { GatewayConfig } from '../../config';
import { IdempotencyService, PreparedClaim } from '../idempotency/idempotency.service';
import { claimRequestOf, IdempotencyGate, usableIdempotencyKeyOf } from '../idempotency/idempotency.gate';
import { OnBehalfOfResolver } from './on-behalf-of.resolver';
import { correlationOf } from '../commands/service-calls';
import { RequestAdmission } from './request-admission';
import { RouteAuth, RouteAuthCatalogue } from './route-auth';
import { TokenClaims, TokenService } from './token.service';

/**
 * Authenticates every API route that is not public, in the order the SDKs expect errors: token
 * (expired: 401 "Token expired", which the SDKs refresh silently), revocation, IP allow-list (401 "IP
 * not allowed", never retried), rate limit (429), client id and permission (403), then resolves who
 * acts (x-on-behalf-of). Revocation and the rate counter cost one Redis round trip (request-admission.ts);
 * no request waits on another service unless it names an on-behalf-of account not yet cached.
 *
 * On an idempotent command route, when every check that needs no Redis already passes and the acting
 * account is known, that same round trip also claims the idempotency key (issue 12: one round trip instead
 * of two). The script claims only when the key is not revoked and the request is within the limit, so the
 * answers keep their order. The guard's last step hands the claim to the IdempotencyGate (which makes it
 * itself when it could not ride along): the route runs with it held, or the request is answered from it.
 */
@Injectable()
export class AuthGuard implements CanActivate {
  private readonly routes: RouteAuthCatalogue;

  constructor(
    reflector: Reflector,
    private readonly tokens: TokenService,
    private readonly onBehalfOf: OnBehalfOfResolver,
    private readonly admission: RequestAdmission,
    private readonly idempotency: IdempotencyService,
    private readonly idempotencyGate: IdempotencyGate,
    @Inject(APP_CONFIG) private readonly config: GatewayConfig,
  ) {
    this.routes = new RouteAuthCatalogue(reflector);
  }

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const route = this.routes.of(context);
    const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
    if (route.policy.public || !isApiRoute(request)) return true;

    const claims = this.tokens.verify(request.headers['x-auth-token']);
    const caller = { accountId: claims.entity_id, masterAccountId: claims.mid, clientId: claims.client_id };
    const ipOk = ipAllowed(request.ip, claims.ips ?? []);
    const accessRefusal = refusalOf(route, request, claims);
    const known = ipOk && !accessRefusal ? this.onBehalfOf.resolveKnown(caller, request.headers['x-on-behalf-of']) : undefined;
    const claimsKey = route.claimsIdempotencyKey && request.method === 'POST';
    const folded = claimsKey && known ? this.foldableClaim(request, known) : undefined;

    const admitted = await this.admission.admit(claims.kid, claims.entity_id, this.config.RATE_LIMIT_PER_SECOND, folded?.record);
    if (admitted.revoked) throw Errors.unauthorized('API key revoked');
    if (!ipOk) throw Errors.unauthorized('IP not allowed');
    if (admitted.requestsThisSecond > this.config.RATE_LIMIT_PER_SECOND) throw Errors.tooManyRequests(1);
    if (accessRefusal) throw accessRefusal;
    // A folded claim was made for `known`: the acting account is not looked up again (a grant expiring in
    // between would otherwise leave the claim made for an account the request no longer acts as).
    const acting = known ?? (await this.onBehalfOf.resolve(caller, request.headers['x-on-behalf-of'], correlationOf(request)));
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
    if (claimsKey) {
      const admittedClaim = folded && admitted.claim ? { prepared: folded, result: admitted.claim } : undefined;
      // Synchronous when the admission script made the claim: no promise to wait for then.
      const holding = this.idempotencyGate.hold(request, admittedClaim);
      if (holding) await holding;
    }
    return true;
  }

  /** The claim the IdempotencyGate would make next, when it can ride on the admission round trip. */
  private foldableClaim(request: AuthenticatedRequest, acting: ResolvedAccount): PreparedClaim | undefined {
    const key = usableIdempotencyKeyOf(request);
    if (key === undefined) return undefined;
    return this.idempotency.prepare(claimRequestOf(request, key, acting.account_id));
  }
}

/** The client-id and permission refusals, which need no Redis (answered after the rate limit). */
function refusalOf(route: RouteAuth, request: AuthenticatedRequest, claims: TokenClaims): ApiError | undefined {
  const { policy } = route;
  if (policy.requiresClientId) {
    const clientId = request.headers['x-client-id'];
    if (!clientId) return Errors.unauthorized('x-client-id header is required');
    if (clientId !== claims.client_id) return Errors.unauthorized('x-client-id does not match the auth token');
  }
  if (policy.permission && !(claims.perms ?? []).includes(policy.permission)) {
    return Errors.forbidden(`the API key lacks the ${policy.permission} permission`);
  }
  return undefined;
}

function isApiRoute(request: AuthenticatedRequest): boolean {
  return /^\/api\/v\d+\//.test(request.url);
}
