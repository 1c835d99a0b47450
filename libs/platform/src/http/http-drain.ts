import { Injectable } from '@nestjs/common';
import type { FastifyInstance } from 'fastify';
import { ApiError, envelopeA } from '../errors/api-error';
import { sendApiError } from './http-errors';

/**
 * Draining for a graceful shutdown: once `begin()` is called, every new request (probes included, so
 * readiness reads 503 at once) is answered in the API's envelope, 503 `api_error` with `Retry-After`
 * and `Connection: close`, instead of Fastify's own `{"error":"Service Unavailable"}`; the requests
 * already in flight run to their end, and `idle()` says when the last one has. Fastify's built-in
 * 503-on-close is switched off (start-app.ts) so this is the only answer a closing app gives.
 */
export const SHUTTING_DOWN_RETRY_AFTER_SECONDS = 1;

export function shuttingDown(): ApiError {
  const error = envelopeA(
    'api_error',
    'api_error',
    'The service is restarting; retry shortly with the same idempotency key',
    503,
  );
  return new ApiError(error.status, error.body, { 'retry-after': String(SHUTTING_DOWN_RETRY_AFTER_SECONDS) });
}

@Injectable()
export class HttpDrain {
  private draining = false;
  private active = 0;
  private waiters: (() => void)[] = [];

  get inFlight(): number {
    return this.active;
  }

  get isDraining(): boolean {
    return this.draining;
  }

  install(fastify: FastifyInstance): void {
    fastify.addHook('onRequest', (_request, reply, done) => {
      if (this.draining) {
        void reply.header('connection', 'close');
        sendApiError(reply, shuttingDown());
        return;
      }
      this.active += 1;
      // The response's 'close' fires once however it ends (sent, errored, client gone).
      reply.raw.once('close', () => this.finished());
      done();
    });
  }

  begin(): void {
    this.draining = true;
  }

  /** Resolves true once no request is in flight, or false when `timeoutMs` passed first. */
  idle(timeoutMs: number): Promise<boolean> {
    if (this.active === 0) return Promise.resolve(true);
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((waiter) => waiter !== done);
        resolve(false);
      }, timeoutMs);
      const done = () => {
        clearTimeout(timer);
        resolve(true);
      };
      this.waiters.push(done);
    });
  }

  private finished(): void {
    this.active -= 1;
    if (this.active > 0) return;
    for (const waiter of this.waiters.splice(0)) waiter();
  }
}
