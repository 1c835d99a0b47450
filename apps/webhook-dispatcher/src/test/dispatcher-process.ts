import { ChildProcess, execFileSync, spawn } from 'node:child_process';
import path from 'node:path';
import { waitFor } from '@paygrid/testing';

/**
 * The compiled dispatcher (`dist/apps/webhook-dispatcher/src/main.js`) as a child process, for tests and
 * benchmarks that must kill it with SIGKILL mid-run, exactly as a crashed pod dies: no shutdown hook runs,
 * BullMQ jobs stay locked, Kafka offsets stay uncommitted.
 */
const fourUp = path.resolve(__dirname, '../../../..');
/** The repository root, whether this runs from the sources (jest) or from dist/ (the bench). */
export const REPO_ROOT = path.basename(fourUp) === 'dist' ? path.dirname(fourUp) : fourUp;

/** `npm run -s build`: the SWC output the child runs (about a second). */
export function buildDist(): void {
  execFileSync('npm', ['run', '-s', 'build'], { cwd: REPO_ROOT, stdio: 'inherit' });
}

export class DispatcherProcess {
  private child?: ChildProcess;
  /** The last lines the process wrote, shown when a test fails. */
  readonly output: string[] = [];
  starts = 0;

  constructor(private readonly env: Record<string, string>) {}

  get port(): number {
    return Number(this.env.PORT);
  }

  async start(): Promise<void> {
    const child = spawn(
      process.execPath,
      [
        '-r',
        path.join(REPO_ROOT, 'deploy/local/register-paths.js'),
        path.join(REPO_ROOT, 'dist/apps/webhook-dispatcher/src/main.js'),
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
          throw new Error(`dispatcher exited with ${child.exitCode}:\n${this.output.slice(-20).join('\n')}`);
        const response = await fetch(`http://127.0.0.1:${this.port}/health/ready`).catch(() => undefined);
        return response?.status === 200;
      },
      { timeoutMs: 60_000, intervalMs: 100, what: 'the dispatcher process to be ready' },
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

  async restart(): Promise<void> {
    await this.kill();
    await this.start();
  }
}
