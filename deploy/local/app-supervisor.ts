import { APP_CATALOG, AppDescriptor, AppName } from '@paygrid/platform';
import {
  answersReady,
  instanceLabel,
  launchApp,
  replicasOf,
  RunningApp,
  StackSettings,
  stopApps,
} from './app-launcher';

/**
 * Keeps the apps of a local stack running, as Kubernetes keeps pods running: an app that exits by
 * itself (a crash, the process guard's exit, a SIGKILL) is started again after a backoff, and the other
 * apps keep serving meanwhile. The backoff doubles from 1 s to 30 s and starts over once an app stayed up
 * for a minute, so a crash loop does not burn the machine and a rare crash costs a second. `npm start`
 * and the chaos suite run their stacks under it; `stop()` ends the supervision and stops every app.
 *
 * With `replicas` > 1 in the settings every app runs that many processes (replica r on port + 10 r),
 * each supervised on its own. `hold` keeps one replica down after its next exit until `release`, which is
 * how the chaos suite shows the other replicas carrying the load alone.
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
  replica: number;
  running: RunningApp;
  startedAt: number;
  failures: number;
  restarts: number;
  timer?: NodeJS.Timeout;
  /** Not restarted while held; `exitedWhileHeld` remembers that `release` must start it. */
  held?: boolean;
  exitedWhileHeld?: boolean;
}

export class AppSupervisor {
  private readonly apps = new Map<string, Supervised>();
  private stopping = false;
  private readonly options: SupervisorOptions;
  readonly replicas: number;

  constructor(
    private readonly settings: StackSettings,
    private readonly say: (line: string) => void,
    options: Partial<SupervisorOptions> = {},
    private readonly catalog: readonly AppDescriptor[] = APP_CATALOG,
  ) {
    this.options = { ...SUPERVISOR_DEFAULTS, ...options };
    this.replicas = replicasOf(settings);
  }

  /** Launches every replica of every app of the catalog. */
  start(): void {
    for (const descriptor of this.catalog) {
      for (let replica = 0; replica < this.replicas; replica += 1) this.launch(descriptor, replica, 0, 0);
    }
  }

  /** The current process of one replica of the app (a new one after each restart). */
  current(name: AppName, replica = 0): RunningApp {
    return this.supervised(name, replica).running;
  }

  /** The current process of every replica of every app. */
  instances(): RunningApp[] {
    return [...this.apps.values()].map((app) => app.running);
  }

  restarts(name: AppName, replica = 0): number {
    return this.apps.get(keyOf(name, replica))?.restarts ?? 0;
  }

  /** The replica is not started again after its next exit, until `release`. */
  hold(name: AppName, replica: number): void {
    this.supervised(name, replica).held = true;
  }

  /** Ends a `hold`: a replica that exited meanwhile starts now. */
  release(name: AppName, replica: number): void {
    const app = this.supervised(name, replica);
    app.held = false;
    if (app.exitedWhileHeld && !this.stopping) {
      app.exitedWhileHeld = false;
      this.launch(app.descriptor, replica, app.failures, app.restarts + 1);
    }
  }

  /** Resolves once every replica's current process answers /health/ready (restarts included). */
  async waitUntilReady(timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    const pending = new Set(this.apps.keys());
    while (pending.size > 0) {
      for (const key of [...pending]) {
        const app = this.apps.get(key);
        if (app && (await answersReady(app.running.port))) pending.delete(key);
      }
      if (pending.size === 0) return;
      if (Date.now() > deadline)
        throw new Error(`not ready after ${timeoutMs / 1000}s: ${[...pending].map(this.labelOf).join(', ')}`);
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

  private supervised(name: AppName, replica: number): Supervised {
    const app = this.apps.get(keyOf(name, replica));
    if (!app) throw new Error(`${instanceLabel(name, replica, this.replicas)} is not supervised here`);
    return app;
  }

  private readonly labelOf = (key: string): string => {
    const app = this.apps.get(key);
    return app ? instanceLabel(app.descriptor.name, app.replica, this.replicas) : key;
  };

  private launch(descriptor: AppDescriptor, replica: number, failures: number, restarts: number): void {
    const key = keyOf(descriptor.name, replica);
    const previous = this.apps.get(key);
    const running = this.options.launch(
      this.settings,
      descriptor,
      (_name, code, signal) => this.exited(key, code, signal),
      replica,
    );
    this.apps.set(key, {
      descriptor,
      replica,
      running,
      startedAt: Date.now(),
      failures,
      restarts,
      held: previous?.held,
    });
  }

  private exited(key: string, code: number | null, signal: NodeJS.Signals | null): void {
    const app = this.apps.get(key);
    if (this.stopping || !app) return;
    const label = this.labelOf(key);
    const stable = Date.now() - app.startedAt >= this.options.stableAfterMs;
    const failures = stable ? 0 : app.failures;
    if (app.held) {
      app.exitedWhileHeld = true;
      app.failures = failures;
      this.say(`${label} exited (${signal ?? `code ${code}`}); held down until released`);
      return;
    }
    const delayMs = Math.min(this.options.initialBackoffMs * 2 ** failures, this.options.maxBackoffMs);
    this.say(
      `${label} exited (${signal ?? `code ${code}`}); starting it again in ${(delayMs / 1000).toFixed(1)} s`,
    );
    app.timer = setTimeout(() => {
      if (!this.stopping) this.launch(app.descriptor, app.replica, failures + 1, app.restarts + 1);
    }, delayMs);
  }
}

function keyOf(name: AppName, replica: number): string {
  return `${name}#${replica}`;
}
