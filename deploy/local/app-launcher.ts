import { ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { createInterface } from 'node:readline';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { APP_CATALOG, AppDescriptor, AppName, databaseUrlFor } from '@paygrid/platform';
import { APP_NODE_FLAGS } from './app-node-flags';
import { appsCgroup } from './app-cgroup';
import { underAppScheduling } from './app-scheduling';

/**
 * Runs the compiled apps as child processes for `npm start` and the e2e tier: checks their ports are
 * free first, starts each under the scheduling policy of app-scheduling.ts (SCHED_BATCH on Linux) and at
 * the nice value of app-priority.ts (the webhook dispatcher at -10 where allowed), in the apps' cpu cgroup
 * (app-cgroup.ts, where the launcher may make one),
 * prefixes and pretty-prints their JSON logs, waits until each answers /health/ready,
 * and stops exactly the processes it started.
 */
export const REPO_ROOT = findRepoRoot(__dirname);

/** The folder holding the project's package.json: this file runs from source (tests) and from dist/. */
function findRepoRoot(start: string): string {
  for (let folder = start; folder !== path.dirname(folder); folder = path.dirname(folder)) {
    if (existsSync(path.join(folder, 'package.json')) && existsSync(path.join(folder, 'nx.json'))) return folder;
  }
  throw new Error(`no repository root above ${start}`);
}

export interface StackSettings {
  kafkaBrokers: string;
  /** Any database URL on the server; each app gets its own database on it. */
  databaseServerUrl: string;
  redisUrl: string;
  /** Added to every catalog port (the e2e stack runs beside a developer's). */
  portOffset: number;
  /** Suffix of database names (e.g. `_e2e`). */
  databaseSuffix: string;
  /** The stack's KAFKA_PREFIX: its own topics and consumer groups on the shared broker. */
  kafkaPrefix: string;
  extraEnv: Record<string, string>;
  logLevel: string;
  /** Where app output goes: the terminal (pretty) or a file per app. */
  logSink: 'terminal' | { directory: string };
  /**
   * Processes of every app (default 1). Replica r listens on the app's port + r × REPLICA_PORT_STRIDE;
   * every replica shares the app's database, Redis and consumer groups, as pods of one Deployment do.
   */
  replicas?: number;
}

export interface RunningApp {
  name: AppName;
  port: number;
  process: ChildProcess;
  /** 0 for the first (or only) process of the app. */
  replica?: number;
}

/** Replica r of an app listens `r × 10` above its port: 3002 and 3012 for acquiring under `npm start`. */
export const REPLICA_PORT_STRIDE = 10;
export const MAX_REPLICAS = 5;

export function replicasOf(settings: Pick<StackSettings, 'replicas'>): number {
  const replicas = settings.replicas ?? 1;
  if (!Number.isInteger(replicas) || replicas < 1 || replicas > MAX_REPLICAS) {
    throw new Error(`replicas must be an integer from 1 to ${MAX_REPLICAS} (got ${replicas})`);
  }
  return replicas;
}

/** How logs and the supervisor name one process: `acquiring`, or `acquiring#2` when there are replicas. */
export function instanceLabel(name: AppName, replica: number, replicas: number): string {
  return replicas === 1 ? name : `${name}#${replica + 1}`;
}

export function appDatabaseUrl(settings: StackSettings, database: string): string {
  return databaseUrlFor(settings.databaseServerUrl, `${database}${settings.databaseSuffix}`);
}

/**
 * The same Redis server on another logical database: a stack beside a developer's (e2e, bench) keeps its
 * BullMQ queues, rate counters and revoked-key set apart from theirs, whose workers would otherwise take
 * its jobs.
 */
export function redisUrlOnDatabase(redisUrl: string, database: number): string {
  const url = new URL(redisUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

export function appPort(settings: Pick<StackSettings, 'portOffset'>, port: number, replica = 0): number {
  return port + settings.portOffset + replica * REPLICA_PORT_STRIDE;
}

export async function assertPortsFree(settings: StackSettings): Promise<void> {
  const replicas = replicasOf(settings);
  for (const app of APP_CATALOG) {
    for (let replica = 0; replica < replicas; replica += 1) {
      const port = appPort(settings, app.port, replica);
      if (!(await portFree(port))) {
        throw new Error(
          `port ${port} (${instanceLabel(app.name, replica, replicas)}) is already in use: is Paygrid already running? Stop it first, or free the port.`,
        );
      }
    }
  }
}

function portFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/**
 * Node flags for every app this launcher starts, from PAYGRID_APP_NODE_ARGS (space-separated), e.g.
 * `--cpu-prof --cpu-prof-dir=/tmp/prof` to profile a bench run (Node refuses --cpu-prof in NODE_OPTIONS);
 * see docs/performance.md.
 */
function profilingArgs(): string[] {
  return (process.env.PAYGRID_APP_NODE_ARGS ?? '').split(' ').filter((arg) => arg.length > 0);
}

export type OnAppExit = (app: AppName, code: number | null, signal: NodeJS.Signals | null) => void;

export function launchApps(settings: StackSettings, onExit: OnAppExit): RunningApp[] {
  const replicas = replicasOf(settings);
  return APP_CATALOG.flatMap((app) =>
    Array.from({ length: replicas }, (_, replica) => launchApp(settings, app, onExit, replica)),
  );
}

/**
 * The environment an app of the stack runs with: the caller's, the stack's extra settings, and its port,
 * own database, broker, Redis, prefix and log level. `npm run migrate` loads each app's config from it too.
 */
export function appEnvironment(settings: StackSettings, app: AppDescriptor, replica = 0): NodeJS.ProcessEnv {
  return {
    ...process.env,
    ...settings.extraEnv,
    PORT: String(appPort(settings, app.port, replica)),
    DATABASE_URL: appDatabaseUrl(settings, app.database),
    KAFKA_BROKERS: settings.kafkaBrokers,
    REDIS_URL: settings.redisUrl,
    KAFKA_PREFIX: settings.kafkaPrefix,
    LOG_LEVEL: settings.logLevel,
    KAFKAJS_NO_PARTITIONER_WARNING: '1',
  };
}

export function launchApp(
  settings: StackSettings,
  app: AppDescriptor,
  onExit: OnAppExit,
  replica = 0,
): RunningApp {
  const port = appPort(settings, app.port, replica);
  const { command, args } = underAppScheduling(
    app.name,
    process.execPath,
    [
      ...APP_NODE_FLAGS,
      ...profilingArgs(),
      '-r',
      path.join(REPO_ROOT, 'deploy/local/register-paths.js'),
      path.join(REPO_ROOT, `dist/apps/${app.name}/src/main.js`),
    ],
  );
  appsCgroup.prepare();
  const child = spawn(command, args, {
    cwd: REPO_ROOT,
    env: appEnvironment(settings, app, replica),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  // spawn returns once the child runs `nice`; it joins before node starts any work worth weighing.
  appsCgroup.join(child.pid);
  pipeLogs(app.name, instanceLabel(app.name, replica, replicasOf(settings)), child, settings.logSink);
  child.on('exit', (code, signal) => onExit(app.name, code, signal));
  return { name: app.name, port, process: child, replica };
}

export async function waitUntilReady(apps: RunningApp[], timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  const pending = new Set(apps);
  while (pending.size > 0) {
    for (const app of [...pending]) {
      if (app.process.exitCode !== null) throw new Error(`${app.name} exited with code ${app.process.exitCode}`);
      if (await answersReady(app.port)) pending.delete(app);
    }
    if (pending.size === 0) return;
    if (Date.now() > deadline) {
      throw new Error(`not ready after ${timeoutMs / 1000}s: ${[...pending].map((app) => app.name).join(', ')}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
}

export async function answersReady(port: number): Promise<boolean> {
  try {
    const response = await fetch(`http://127.0.0.1:${port}/health/ready`, { signal: AbortSignal.timeout(2500) });
    return response.status === 200;
  } catch {
    return false;
  }
}

/**
 * SIGTERM first (Nest closes consumers and the relay cleanly), SIGKILL after the grace period; then the
 * apps' cpu cgroup goes, unless another stack of this process still runs in it.
 */
export async function stopApps(apps: RunningApp[], graceMs = 10_000): Promise<void> {
  await Promise.all(
    apps.map(
      (app) =>
        new Promise<void>((resolve) => {
          if (app.process.exitCode !== null || app.process.signalCode !== null) return resolve();
          const killer = setTimeout(() => app.process.kill('SIGKILL'), graceMs);
          app.process.once('exit', () => {
            clearTimeout(killer);
            resolve();
          });
          app.process.kill('SIGTERM');
        }),
    ),
  );
  appsCgroup.removeIfEmpty();
}

const COLORS: Record<AppName, number> = {
  gateway: 36,
  accounts: 32,
  acquiring: 35,
  payouts: 33,
  issuing: 34,
  'webhook-dispatcher': 96,
};

function pipeLogs(name: AppName, label: string, child: ChildProcess, sink: StackSettings['logSink']): void {
  if (sink !== 'terminal') {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const fs = require('node:fs') as typeof import('node:fs');
    fs.mkdirSync(sink.directory, { recursive: true });
    const file = fs.createWriteStream(path.join(sink.directory, `${label.replace('#', '-')}.log`), { flags: 'a' });
    child.stdout?.pipe(file);
    child.stderr?.pipe(file);
    return;
  }
  const prefix = process.stdout.isTTY ? `\x1b[${COLORS[name]}m${label.padEnd(18)}\x1b[0m` : label.padEnd(18);
  for (const stream of [child.stdout, child.stderr]) {
    if (!stream) continue;
    createInterface({ input: stream }).on('line', (line) => process.stdout.write(`${prefix} ${readable(line)}\n`));
  }
}

/** One pino JSON line as `time LEVEL message key=value …`; anything else unchanged. */
export function readable(line: string): string {
  if (!line.startsWith('{')) return line;
  try {
    const { time, level, msg, app: _app, pid: _pid, hostname: _host, ...rest } = JSON.parse(line);
    const clock = typeof time === 'string' ? time.slice(11, 19) : '';
    const extras = Object.entries(rest)
      .map(([key, value]) => `${key}=${typeof value === 'string' ? value : JSON.stringify(value)}`)
      .join(' ');
    return `${clock} ${String(level).toUpperCase().padEnd(5)} ${msg ?? ''}${extras ? `  ${extras}` : ''}`;
  } catch {
    return line;
  }
}
