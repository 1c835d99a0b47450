import { randomUUID } from 'node:crypto';
import { createServer, Server } from 'node:net';
import Redis from 'ioredis';
import { testRedisUrl, waitFor } from '@paygrid/testing';
import { closeRedis } from './close-redis';

/**
 * Shutdown closes the app's Redis connection behind what is queued on it (real Redis). The apps' connection
 * auto-pipelines, so a command issued in the same turn as the close has not left the process yet.
 */
describe('closeRedis', () => {
  const reader = new Redis(testRedisUrl());
  afterAll(() => reader.disconnect());

  it('lets a write queued in the same turn reach Redis before the connection closes', async () => {
    const key = `paygrid:test:close-redis:${randomUUID()}`;
    const redis = new Redis(testRedisUrl(), { enableAutoPipelining: true, maxRetriesPerRequest: 2 });
    await redis.ping();

    const written = redis.set(key, 'settled', 'PX', 60_000);
    await closeRedis(redis);

    await expect(written).resolves.toBe('OK');
    expect(await reader.get(key)).toBe('settled');
    await waitFor(() => redis.status === 'end', { what: 'the connection to end' });
    await reader.del(key);
  });

  it('gives up on a Redis that never answers, and closes the connection anyway', async () => {
    // A server that completes ioredis' handshake (its two CLIENT SETINFO) and then never answers again:
    // without the bound, closing would wait for its PING forever.
    const silent: Server = createServer((socket) => {
      socket.on('data', (data) => {
        for (const _ of data.toString().matchAll(/SETINFO/g)) socket.write('+OK\r\n');
      });
    });
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const port = (silent.address() as { port: number }).port;
    const redis = new Redis({
      host: '127.0.0.1',
      port,
      maxRetriesPerRequest: 1,
      enableReadyCheck: false,
      lazyConnect: true,
    });
    await redis.connect();
    const unanswered = redis
      .set('paygrid:test:close-redis:never', 'x')
      .catch((error: Error) => error.message);
    try {
      await closeRedis(redis, 50);
      await waitFor(() => redis.status === 'end', { what: 'the connection to end' });
      expect(await unanswered).toMatch(/Connection is closed/);
    } finally {
      silent.close();
    }
  });
});
