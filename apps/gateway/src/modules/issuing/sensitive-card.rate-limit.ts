import { CanActivate, ExecutionContext, Inject, Injectable } from '@nestjs/common';
import Redis from 'ioredis';
import { SENSITIVE_REQUESTS_PER_MINUTE } from '@paygrid/contracts';
import { ApiError, Errors, REDIS } from '@paygrid/platform';
import { AuthenticatedRequest, authOf } from '../../common/authenticated-request';

/**
 * Decisions §4: sensitive details and PAN tokens at most 10 a minute per card, in Redis so the limit holds
 * across gateway replicas. The window opens with a card's first request and lasts 60 s (INCR, then EXPIRE NX,
 * in one round trip), so eleven requests inside any minute that started with the first are never all served.
 * The eleventh answers HTTP 429 with the spec's envelope B and Retry-After: the window's remaining seconds.
 * Runs after authentication and the permission check (a key without the permission is a 403, uncounted).
 */
const WINDOW_SECONDS = 60;
const MAX_KEYED_ID = 64;

@Injectable()
export class SensitiveCardRateLimit implements CanActivate {
  constructor(@Inject(REDIS) private readonly redis: Redis) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
    const cardId = (request.params as Record<string, string | undefined>).id ?? '';
    // An id this long is refused by validation next; it must not become a Redis key.
    if (cardId.length === 0 || cardId.length > MAX_KEYED_ID) return true;
    const key = `paygrid:issuing:sensitive:${authOf(request).actor.account_id}:${cardId.toLowerCase()}`;
    const results = await this.redis.pipeline().incr(key).expire(key, WINDOW_SECONDS, 'NX').ttl(key).exec();
    if (!results || results.some(([error]) => error)) throw Errors.internal();
    const count = Number(results[0][1]);
    if (count <= SENSITIVE_REQUESTS_PER_MINUTE) return true;
    const retryAfter = Math.max(1, Number(results[2][1]));
    throw new ApiError(429, { code: 429, message: 'Request is too frequent' }, { 'retry-after': String(retryAfter) });
  }
}
