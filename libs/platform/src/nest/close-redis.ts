import Redis from 'ioredis';
import { settledOrAfter } from '../bootstrap/settled-or-after';

/** How long shutdown waits for Redis to answer what was sent before it; a Redis that is down answers nothing. */
export const REDIS_CLOSE_WAIT_MS = 1000;

/**
 * Closes a Redis connection of the app behind the commands already queued on it, so a write issued just
 * before shutdown still reaches Redis (the gateway settles its idempotency records behind its answers,
 * docs/gateway.md). `disconnect()` alone drops whatever the auto-pipeline has not sent yet, and so would QUIT:
 * ioredis never auto-pipelines it, so it would leave ahead of the queue. A PING joins the queue behind what is
 * in it, and Redis answers in order: once it answers, everything before it was executed.
 * Bounded: a Redis that does not answer within `waitMs` is disconnected anyway, so shutdown never hangs on it.
 */
export async function closeRedis(redis: Redis, waitMs = REDIS_CLOSE_WAIT_MS): Promise<void> {
  await settledOrAfter(waitMs, [redis.ping()]);
  redis.disconnect();
}
