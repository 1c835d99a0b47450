import { ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { AppName } from '@paygrid/platform';
import { TestStack } from './test-stack';
import { waitFor } from './wait-for';

/**
 * A compiled app (`dist/apps/<app>/src/main.js`) as a child process, for tests and benchmarks that must
 * kill it with SIGKILL mid-run, exactly as a crashed pod dies (no shutdown hook runs, BullMQ jobs stay
 * locked, Kafka offsets stay uncommitted), or that run an app beside the one they boot in-process. Give
 * it a stack's environment (TestStack.env) so it stays on that stack's topics.
 */
function findRepoRoot(start: string): string {
  for (let folder = start; folder !== path.dirname(folder); folder = path.dirname(folder)) {
    if (existsSync(path.join(folder, 'nx.json'))) return folder;
  }
  throw new Error(`no repository root above ${start}`);
}

/** The repository root, whether this runs from the sources (jest) or from dist/ (the bench). */
export const REPO_ROOT = findRepoRoot(__dirname);

/** `npm run -s build`: the SWC output the child runs (a second or two). */
export function buildDist(): void {
  execFileSync('npm', ['run', '-s', 'build'], { cwd: REPO_ROOT, stdio: 'inherit' });
}

/** A port nobody listens on right now, for a child app's HTTP server. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

export class AppProcess {
  private child?: ChildProcess;
  /** The last lines the process wrote, shown when a test fails. */
  readonly output: string[] = [];
  starts = 0;

  /** `env` must set PORT (see freePort); the rest of the app's configuration comes from it too. */
  constructor(
    readonly app: AppName,
    private readonly env: Record<string, string>,
  ) {}

  /** The app on a test stack and database, on a free port; `env` holds its own settings. */
  static async on(
    stack: TestStack,
    app: AppName,
    databaseUrl: string,
    env: Record<string, string>,
  ): Promise<AppProcess> {
    return new AppProcess(app, { ...stack.appEnv(databaseUrl), PORT: String(await freePort()), ...env });
  }

  get port(): number {
    return Number(this.env.PORT);
  }

  async start(): Promise<void> {
    const child = spawn(
      process.execPath,
      [
        '-r',
        path.join(REPO_ROOT, 'deploy/local/register-paths.js'),
        path.join(REPO_ROOT, `dist/apps/${this.app}/src/main.js`),
      ],
      { cwd: REPO_ROOT, env: { ...process.env, ...this.env }, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    const keep = (chunk: Buffer) => {
      this.output.push(...chunk.toString('utf8').split('\n').filter(Boolean));
      this.output.splice(0, Math.max(0, this.output.length - 200));
    };
    child.stdout?.on('data', keep);
    child.stderr?.on('data', keep);
    this.child = child;
    this.starts += 1;
    await waitFor(
      async () => {
        if (child.exitCode !== null)
          throw new Error(`${this.app} exited with ${child.exitCode}:\n${this.output.slice(-20).join('\n')}`);
        const response = await fetch(`http://127.0.0.1:${this.port}/health/ready`).catch(() => undefined);
        return response?.status === 200;
      },
      { timeoutMs: 60_000, intervalMs: 100, what: `the ${this.app} process to be ready` },
    );
  }

  /** SIGKILL: the process gets no chance to clean up. */
  async kill(): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill('SIGKILL');
    await exited;
  }

  /** SIGTERM, as an orchestrator stops a pod: the app shuts down cleanly (SIGKILL after `graceMs`). */
  async stop(graceMs = 10_000): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    const killer = setTimeout(() => child.kill('SIGKILL'), graceMs);
    child.kill('SIGTERM');
    await exited;
    clearTimeout(killer);
  }

  async restart(): Promise<void> {
    await this.kill();
    await this.start();
  }
}
