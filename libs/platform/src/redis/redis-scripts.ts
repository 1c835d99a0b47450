import { createHash } from 'node:crypto';
import { createClient } from '@redis/client';
import type { Logger } from 'pino';
import { settledOrAfter } from '../bootstrap/settled-or-after';
import { REDIS_CLOSE_WAIT_MS } from '../nest/close-redis';

/** A Lua script and the SHA-1 Redis knows it by. */
export interface LuaScript {
  readonly lua: string;
  readonly sha: string;
}

export function luaScript(lua: string): LuaScript {
  return { lua, sha: createHash('sha1').update(lua).digest('hex') };
}

type ScriptClient = ReturnType<typeof createScriptClient>;

/**
 * The connection an app's hot-path Lua scripts run on: the gateway's admission and idempotency record, two
 * scripts a request (docs/gateway.md). It is node-redis' core client, not the app's ioredis connection,
 * because of what a script call costs the caller's one thread: measured on this VM, ~7 µs through ioredis
 * (defineCommand on an auto-pipelined connection: a Command, a Pipeline and several promises a call) against
 * ~2.8 µs here, about a fifth of an idempotent echo (docs/performance.md §35). ioredis stays for the rest
 * (BullMQ needs it).
 *
 * What it keeps of the ioredis connection, and what it changes on purpose:
 * - One socket. Commands leave in the order they are issued (each event-loop turn's in one write) and are
 *   answered in that order, so a script queued before another runs before it: the gateway's settling of a
 *   record behind its answer relies on that.
 * - A script's first run on a connection is preceded by its SCRIPT LOAD, in the same write: Redis may have
 *   restarted since the last connection, and a refused EVALSHA would be sent again as EVAL only once its
 *   refusal came back, after scripts issued behind it had run. That reordering let a retry's claim overtake
 *   the settling of the answer it retried, so the retry found the record still locked (docs/gateway.md).
 *   A script Redis forgot under a live connection (SCRIPT FLUSH) is still refused: it is sent again once, as
 *   EVAL, and every script is loaded again before its next run.
 * - No offline queue and no re-sending. A command issued while the connection is down, or in flight when
 *   it drops, fails at once. A script whose reply was lost may or may not have run, and sending it again
 *   blind (ioredis' default) could count a rate limit twice or claim a key twice. The caller decides: the
 *   gateway answers "token dependencies unavailable" and the client retries with its key.
 * - No per-command timeout. node-redis 6 arms an AbortSignal for each command by default, which doubles its
 *   cost; like the ioredis connection, a command waits for its reply or for the connection to drop.
 */
export class RedisScripts {
  private down = false;
  /** The scripts loaded on this connection since it was last ready, by SHA. */
  private readonly loaded = new Set<string>();
  private connecting: Promise<void> = Promise.resolve();

  private constructor(
    private readonly client: ScriptClient,
    private readonly logger: Logger,
  ) {
    client.on('error', (error: Error) => this.lost(error));
    client.on('ready', () => this.ready());
  }

  /** Connects in the background: until the connection is ready, `run` fails at once and `ping` too. */
  static connect(url: string, name: string, logger: Logger): RedisScripts {
    const scripts = new RedisScripts(createScriptClient(url, name), logger);
    scripts.connecting = scripts.client.connect().then(
      () => undefined,
      (error: unknown) => scripts.lost(error as Error),
    );
    return scripts;
  }

  /** Settles once the first connection is ready (or the client gave up): for tests and tools. */
  whenConnected(): Promise<void> {
    return this.connecting;
  }

  /** Runs the script by its SHA (loaded first on this connection), or by its text once when Redis has forgotten it. */
  run(script: LuaScript, keys: readonly string[], args: readonly (string | number)[]): Promise<unknown> {
    if (!this.loaded.has(script.sha)) this.load(script);
    const command = ['EVALSHA', script.sha, String(keys.length), ...keys, ...args.map(String)];
    return this.client.sendCommand(command).catch((error: unknown) => {
      if (!isNoScript(error)) throw error;
      // Rare (SCRIPT FLUSH under a live connection): the same arguments behind the script's text, and every
      // script loaded again before its next run.
      this.loaded.clear();
      return this.client.sendCommand(['EVAL', script.lua, ...command.slice(2)]);
    });
  }

  /** Queues the script's SCRIPT LOAD ahead of its run; not awaited (the run's own reply says how it went). */
  private load(script: LuaScript): void {
    this.loaded.add(script.sha);
    this.client.sendCommand(['SCRIPT', 'LOAD', script.lua]).catch(() => this.loaded.delete(script.sha));
  }

  async ping(): Promise<void> {
    await this.client.ping();
  }

  /**
   * Closes behind what is already queued, so a script issued just before shutdown still reaches Redis: the
   * PING is answered after everything sent before it. Bounded, as for the ioredis connection (close-redis.ts).
   */
  async close(waitMs = REDIS_CLOSE_WAIT_MS): Promise<void> {
    await settledOrAfter(waitMs, [this.client.ping()]);
    if (this.client.isOpen) this.client.destroy();
  }

  /** One warning an outage, not one a reconnection attempt. */
  private lost(error: Error): void {
    if (this.down) return;
    this.down = true;
    this.logger.warn({ err: error }, 'redis scripts connection lost; its scripts fail until it reconnects');
  }

  private ready(): void {
    // A new connection, perhaps to a Redis that restarted: its scripts are loaded again before their next run.
    this.loaded.clear();
    if (!this.down) return;
    this.down = false;
    this.logger.info('redis scripts connection ready again');
  }
}

function createScriptClient(url: string, name: string) {
  return createClient({ url, name, RESP: 2, disableOfflineQueue: true, commandOptions: { timeout: 0 } });
}

function isNoScript(error: unknown): boolean {
  return error instanceof Error && error.message.startsWith('NOSCRIPT');
}
