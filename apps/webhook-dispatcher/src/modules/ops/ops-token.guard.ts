import { CanActivate, ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { Errors } from '@paygrid/platform';
import { DISPATCHER_CONFIG, DispatcherConfig } from '../../config';

/**
 * The ops routes answer only to OPS_TOKEN, given as `authorization: Bearer <token>` or `?token=<token>`
 * (for a browser). With no token configured they do not exist (404), so an unconfigured deployment
 * exposes nothing. Compared in constant time.
 */
@Injectable()
export class OpsTokenGuard implements CanActivate {
  constructor(@Inject(DISPATCHER_CONFIG) private readonly config: DispatcherConfig) {}

  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    if (this.config.OPS_TOKEN === '') throw Errors.routeNotFound(request.method, request.url.split('?')[0]);
    const given = tokenOf(request);
    if (given === undefined || !sameSecret(given, this.config.OPS_TOKEN))
      throw Errors.unauthorized('a valid ops token is required');
    return true;
  }
}

export function tokenOf(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  const bearer = typeof header === 'string' ? /^Bearer\s+(.+)$/i.exec(header)?.[1] : undefined;
  if (bearer) return bearer.trim();
  const query = request.query as Record<string, unknown> | undefined;
  if (typeof query?.token === 'string') return query.token;
  // The Bull Board UI's own asset and API requests carry the cookie set on the first visit.
  const cookie = /(?:^|;\s*)paygrid_ops=([^;]+)/.exec(request.headers.cookie ?? '')?.[1];
  return cookie ? decodeURIComponent(cookie) : undefined;
}

export function sameSecret(given: string, expected: string): boolean {
  const digest = (value: string) => createHash('sha256').update(value).digest();
  return timingSafeEqual(digest(given), digest(expected));
}
