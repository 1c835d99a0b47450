import { ChildProcess, spawn } from 'node:child_process';
import { APP_CATALOG, AppDescriptor } from '@paygrid/platform';
import { RunningApp, StackSettings } from './app-launcher';
import { AppSupervisor } from './app-supervisor';

/** Supervision as `npm start` does it, with stand-in processes instead of the compiled apps. */
async function waitFor(probe: () => boolean, { what }: { what: string }): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!probe()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const settings = {} as StackSettings;
const [first, second] = APP_CATALOG;

function standIn(
  descriptor: AppDescriptor,
  onExit: (code: number | null, signal: NodeJS.Signals | null) => void,
): RunningApp {
  // Lives until killed; exits 0 on SIGTERM, as an app's graceful shutdown does.
  const child: ChildProcess = spawn(
    process.execPath,
    ['-e', "process.on('SIGTERM', () => process.exit(0)); setInterval(() => {}, 1000)"],
    {
      stdio: 'ignore',
    },
  );
  child.on('exit', onExit);
  return { name: descriptor.name, port: descriptor.port, process: child };
}

describe('AppSupervisor', () => {
  let supervisor: AppSupervisor;
  const lines: string[] = [];

  beforeEach(() => {
    lines.length = 0;
    supervisor = new AppSupervisor(
      settings,
      (line) => lines.push(line),
      {
        initialBackoffMs: 100,
        maxBackoffMs: 300,
        stableAfterMs: 60_000,
        launch: (_settings, descriptor, onExit) =>
          standIn(descriptor, (code, signal) => onExit(descriptor.name, code, signal)),
      },
      [first, second],
    );
    supervisor.start();
  });

  afterEach(() => supervisor.stop());

  it('starts a crashed app again and leaves the others running', async () => {
    const crashed = supervisor.current(first.name).process;
    const bystander = supervisor.current(second.name).process;
    crashed.kill('SIGKILL');
    await waitFor(() => supervisor.current(first.name).process !== crashed, { what: 'a new process' });
    expect(supervisor.restarts(first.name)).toBe(1);
    expect(supervisor.current(second.name).process).toBe(bystander);
    expect(bystander.exitCode).toBeNull();
    expect(lines).toEqual([`${first.name} exited (SIGKILL); starting it again in 0.1 s`]);
  });

  it('backs off longer with every crash in a row, up to its cap', async () => {
    for (let crash = 1; crash <= 4; crash += 1) {
      const current = supervisor.current(first.name).process;
      current.kill('SIGKILL');
      await waitFor(() => supervisor.current(first.name).process !== current, { what: `restart ${crash}` });
    }
    expect(lines.map((line) => line.replace(/.* in /, ''))).toEqual(['0.1 s', '0.2 s', '0.3 s', '0.3 s']);
    expect(supervisor.restarts(first.name)).toBe(4);
  });

  it('stops every app and starts none again once stopped', async () => {
    const processes = [supervisor.current(first.name).process, supervisor.current(second.name).process];
    await supervisor.stop();
    expect(processes.every((child) => child.exitCode !== null || child.signalCode === 'SIGTERM')).toBe(true);
    expect(lines).toEqual([]);
  });
});
