import { randomUUID } from 'node:crypto';
import { createServer, Server, Socket } from 'node:net';
import Redis from 'ioredis';
import pino from 'pino';
import { testRedisUrl, waitFor } from '@paygrid/testing';
import { luaScript, RedisScripts } from './redis-scripts';

const silent = pino({ level: 'silent' });
const APPEND = luaScript(`redis.call('RPUSH', KEYS[1], ARGV[1]) return redis.call('LLEN', KEYS[1])`);

/** The lean connection of the hot-path scripts, against the real Redis (and one fake server). */
describe('RedisScripts', () => {
  const reader = new Redis(testRedisUrl());
  let scripts: RedisScripts;

  beforeAll(async () => {
    scripts = RedisScripts.connect(testRedisUrl(), 'redis-scripts-it', silent);
    await scripts.whenConnected();
  });

  afterAll(async () => {
    await scripts.close();
    reader.disconnect();
  });

  it('runs scripts in the order they were issued, answering each with its own reply', async () => {
    const key = `paygrid:test:redis-scripts:${randomUUID()}`;
    const issued = Array.from({ length: 100 }, (_, index) => scripts.run(APPEND, [key], [index]));
    expect(await Promise.all(issued)).toEqual(Array.from({ length: 100 }, (_, index) => index + 1));
    expect(await reader.lrange(key, 0, -1)).toEqual(Array.from({ length: 100 }, (_, index) => String(index)));
    await reader.del(key);
  });

  it('loads a script Redis does not know ahead of its first run, so scripts issued behind it run after it', async () => {
    const key = `paygrid:test:redis-scripts:${randomUUID()}`;
    const length = luaScript(`return redis.call('LLEN', KEYS[1])`);
    expect(await scripts.run(length, [key], [])).toBe(0);
    // A body no Redis has seen, as every script is after a restart: refused by SHA alone, it would be sent
    // again as EVAL once the refusal came back, after the length script issued behind it had run.
    const fresh = luaScript(`-- ${randomUUID()}\nreturn redis.call('RPUSH', KEYS[1], ARGV[1])`);
    expect(await reader.script('EXISTS', fresh.sha)).toEqual([0]);
    const written = scripts.run(fresh, [key], ['first']);
    const read = scripts.run(length, [key], []);
    expect(await Promise.all([written, read])).toEqual([1, 1]);
    expect(await reader.script('EXISTS', fresh.sha)).toEqual([1]);
    await reader.del(key);
  });

  it('runs a script Redis forgot under a live connection by sending its text, then loads it again', async () => {
    const fake = await FakeRedis.start('forgets scripts');
    const forgetful = RedisScripts.connect(fake.url, 'redis-scripts-it-forget', silent);
    try {
      await forgetful.whenConnected();
      expect(await forgetful.run(APPEND, ['k'], ['v'])).toBe(7);
      expect(await forgetful.run(APPEND, ['k'], ['v'])).toBe(7);
      expect(fake.received).toEqual(['SCRIPT', 'EVALSHA', 'EVAL', 'SCRIPT', 'EVALSHA', 'EVAL']);
    } finally {
      await forgetful.close();
      await fake.stop();
    }
  });

  it('fails a script whose connection drops before the reply, and never sends it again', async () => {
    const fake = await FakeRedis.start();
    const dropping = RedisScripts.connect(fake.url, 'redis-scripts-it-drop', silent);
    try {
      await dropping.whenConnected();
      await expect(dropping.run(APPEND, ['k'], ['v'])).rejects.toThrow();
      // Answered only once the connection is back: anything still queued to be re-sent would go before it.
      await waitFor(
        () =>
          dropping.ping().then(
            () => true,
            () => false,
          ),
        { what: 'the reconnection' },
      );
      expect(fake.received.filter((name) => name === 'EVALSHA')).toHaveLength(1);
      // The new connection may reach a Redis that restarted: the script is loaded again before its next run.
      await expect(dropping.run(APPEND, ['k'], ['v'])).rejects.toThrow();
      expect(fake.received.filter((name) => name === 'SCRIPT')).toHaveLength(2);
    } finally {
      await dropping.close();
      await fake.stop();
    }
  });

  it('closes behind a script issued in the same turn', async () => {
    const closing = RedisScripts.connect(testRedisUrl(), 'redis-scripts-it-close', silent);
    await closing.whenConnected();
    const key = `paygrid:test:redis-scripts:${randomUUID()}`;
    const written = closing.run(APPEND, [key], ['settled']);
    await closing.close();
    await expect(written).resolves.toBe(1);
    expect(await reader.lrange(key, 0, -1)).toEqual(['settled']);
    await reader.del(key);
  });
});

type FakeRedisMode = 'drops on EVALSHA' | 'forgets scripts';

/**
 * A server that completes node-redis' handshake and answers PING and SCRIPT LOAD, and either drops the
 * connection on the first EVALSHA it reads (a Redis that went away with a script in flight) or refuses every
 * EVALSHA with NOSCRIPT and answers EVAL with 7 (a Redis whose scripts were flushed). `received` lists the
 * script commands it read, in order.
 */
class FakeRedis {
  readonly received: string[] = [];
  private readonly sockets = new Set<Socket>();

  private constructor(
    private readonly server: Server,
    private readonly mode: FakeRedisMode,
  ) {
    server.on('connection', (socket) => {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
      let pending = Buffer.alloc(0);
      socket.on('data', (data) => {
        pending = Buffer.concat([pending, data]);
        for (let command = takeCommand(pending); command; command = takeCommand(pending)) {
          pending = pending.subarray(command.length);
          if (!this.answer(socket, command.name)) return;
        }
      });
    });
  }

  static async start(mode: FakeRedisMode = 'drops on EVALSHA'): Promise<FakeRedis> {
    const fake = new FakeRedis(createServer(), mode);
    await new Promise<void>((resolve) => fake.server.listen(0, '127.0.0.1', resolve));
    return fake;
  }

  get url(): string {
    return `redis://127.0.0.1:${(this.server.address() as { port: number }).port}`;
  }

  async stop(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  /** Answers one command; false once it dropped the connection. */
  private answer(socket: Socket, name: string): boolean {
    if (['SCRIPT', 'EVALSHA', 'EVAL'].includes(name)) this.received.push(name);
    if (name === 'EVALSHA' && this.mode === 'drops on EVALSHA') {
      socket.destroy();
      return false;
    }
    if (name === 'EVALSHA') socket.write('-NOSCRIPT No matching script. Please use EVAL.\r\n');
    else if (name === 'EVAL') socket.write(':7\r\n');
    else socket.write(name === 'PING' ? '+PONG\r\n' : '+OK\r\n');
    return true;
  }
}

/**
 * The first whole command in `data` (a RESP array of bulk strings): its upper-cased name and its length in
 * bytes, or undefined while it has not all arrived (a command may come in several reads).
 */
function takeCommand(data: Buffer): { name: string; length: number } | undefined {
  const line = (from: number) => {
    const end = data.indexOf('\r\n', from);
    return end < 0 ? undefined : { text: data.toString('latin1', from, end), next: end + 2 };
  };
  const header = line(0);
  if (!header) return undefined;
  let offset = header.next;
  let name = '';
  for (let index = 0; index < Number(header.text.slice(1)); index += 1) {
    const size = line(offset);
    if (!size) return undefined;
    const end = size.next + Number(size.text.slice(1));
    if (data.length < end + 2) return undefined;
    if (index === 0) name = data.toString('latin1', size.next, end).toUpperCase();
    offset = end + 2;
  }
  return { name, length: offset };
}
