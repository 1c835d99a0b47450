import { APP_CATALOG, AppDescriptor, AppName } from '@paygrid/platform';
import { answersReady, launchApp, RunningApp, StackSettings, stopApps } from './app-launcher';

/**
 * Keeps the apps of a local stack running, as Kubernetes keeps pods running: an app that exits by
 * itself (a crash, the process guard's exit, a SIGKILL) is started again after a backoff, and the other
 * apps keep serving meanwhile. The backoff doubles from 1 s to 30 s and starts over once an app stayed up
 * for a minute, so a crash loop does not burn the machine and a rare crash costs a second. `npm start`
 * and the chaos suite run their stacks under it; `stop()` ends the supervision and stops every app.
 */
export interface SupervisorOptions {
  initialBackoffMs: number;
  maxBackoffMs: number;
  /** An app up this long has its backoff reset. */
  stableAfterMs: number;
  /** Longer than an app's own shutdown deadline (22 s), so `stop` never cuts a drain short. */
  stopGraceMs: number;
  /** How an app is started (tests start stand-ins). */
  launch: typeof launchApp;
}

export const SUPERVISOR_DEFAULTS: SupervisorOptions = {
  initialBackoffMs: 1_000,
  maxBackoffMs: 30_000,
  stableAfterMs: 60_000,
  stopGraceMs: 25_000,
  launch: launchApp,
};

interface Supervised {
  descriptor: AppDescriptor;
  running: RunningApp;
  startedAt: number;
  failures: number;
  restarts: number;
  timer?: NodeJS.Timeout;
}

export class AppSupervisor {
  private readonly apps = new Map<AppName, Supervised>();
  private stopping = false;
  private readonly options: SupervisorOptions;

  constructor(
    private readonly settings: StackSettings,
    private readonly say: (line: string) => void,
    options: Partial<SupervisorOptions> = {},
    private readonly catalog: readonly AppDescriptor[] = APP_CATALOG,
  ) {
    this.options = { ...SUPERVISOR_DEFAULTS, ...options };
  }

  /** Launches every app of the catalog. */
  start(): void {
    for (const descriptor of this.catalog) this.launch(descriptor, 0, 0);
  }

  /** The app's current process (a new one after each restart). */
  current(name: AppName): RunningApp {
    const app = this.apps.get(name);
    if (!app) throw new Error(`${name} is not supervised here`);
    return app.running;
  }

  restarts(name: AppName): number {
    return this.apps.get(name)?.restarts ?? 0;
  }

  /** Resolves once every app's current process answers /health/ready (restarts included). */
  async waitUntilReady(timeoutMs: number, names: AppName[] = [...this.apps.keys()]): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    const pending = new Set(names);
    while (pending.size > 0) {
      for (const name of [...pending]) if (await answersReady(this.current(name).port)) pending.delete(name);
      if (pending.size === 0) return;
      if (Date.now() > deadline)
        throw new Error(`not ready after ${timeoutMs / 1000}s: ${[...pending].join(', ')}`);
      await new Promise((resolve) => setTimeout(resolve, 300));
    }
  }

  async stop(): Promise<void> {
    this.stopping = true;
    for (const app of this.apps.values()) clearTimeout(app.timer);
    await stopApps(
      [...this.apps.values()].map((app) => app.running),
      this.options.stopGraceMs,
    );
  }

  private launch(descriptor: AppDescriptor, failures: number, restarts: number): void {
    const running = this.options.launch(this.settings, descriptor, (name, code, signal) =>
      this.exited(name, code, signal),
    );
    this.apps.set(descriptor.name, { descriptor, running, startedAt: Date.now(), failures, restarts });
  }

  private exited(name: AppName, code: number | null, signal: NodeJS.Signals | null): void {
    const app = this.apps.get(name);
    if (this.stopping || !app) return;
    const stable = Date.now() - app.startedAt >= this.options.stableAfterMs;
    const failures = stable ? 0 : app.failures;
    const delayMs = Math.min(this.options.initialBackoffMs * 2 ** failures, this.options.maxBackoffMs);
    this.say(
      `${name} exited (${signal ?? `code ${code}`}); starting it again in ${(delayMs / 1000).toFixed(1)} s`,
    );
    app.timer = setTimeout(() => {
      if (!this.stopping) this.launch(app.descriptor, failures + 1, app.restarts + 1);
    }, delayMs);
  }
}
