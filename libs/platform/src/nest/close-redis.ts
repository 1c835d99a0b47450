import Redis from 'ioredis';

/** How long shutdown waits for Redis to answer what was sent before it; a Redis that is down answers nothing. */
export const REDIS_QUIT_WAIT_MS = 1000;

/**
 * Closes an app's Redis connection behind the commands already queued on it, so a write issued just before
 * shutdown still reaches Redis (the gateway settles its idempotency records behind its answers,
 * docs/gateway.md). `disconnect()` alone drops whatever the auto-pipeline has not sent yet, and so does QUIT:
 * ioredis never auto-pipelines it, so it would leave ahead of the queue. A PING does join the queue, behind
 * what is in it, and Redis answers in order: once it answers, everything before it was executed.
 * Bounded: a Redis that does not answer within `waitMs` is disconnected anyway, so shutdown never hangs on it.
 */
export async function closeRedis(redis: Redis, waitMs = REDIS_QUIT_WAIT_MS): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const gaveUp = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, waitMs);
  });
  const drained = redis
    .ping()
    .then(() => redis.quit())
    .then(
      () => undefined,
      () => undefined,
    );
  await Promise.race([drained, gaveUp]);
  clearTimeout(timer);
  redis.disconnect();
}
