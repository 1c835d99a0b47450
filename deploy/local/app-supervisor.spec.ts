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
  replica = 0,
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
  return { name: descriptor.name, port: descriptor.port + 10 * replica, process: child, replica };
}

function supervisorOf(stackSettings: StackSettings, lines: string[]): AppSupervisor {
  return new AppSupervisor(
    stackSettings,
    (line) => lines.push(line),
    {
      initialBackoffMs: 100,
      maxBackoffMs: 300,
      stableAfterMs: 60_000,
      launch: (_settings, descriptor, onExit, replica) =>
        standIn(descriptor, (code, signal) => onExit(descriptor.name, code, signal), replica),
    },
    [first, second],
  );
}

describe('AppSupervisor', () => {
  let supervisor: AppSupervisor;
  const lines: string[] = [];

  beforeEach(() => {
    lines.length = 0;
    supervisor = supervisorOf(settings, lines);
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

describe('AppSupervisor with replicas', () => {
  let supervisor: AppSupervisor;
  const lines: string[] = [];

  beforeEach(() => {
    lines.length = 0;
    supervisor = supervisorOf({ replicas: 2 } as StackSettings, lines);
    supervisor.start();
  });

  afterEach(() => supervisor.stop());

  it('runs every replica of every app on its own port', () => {
    expect(supervisor.instances().map((app) => `${app.name}:${app.port}`)).toEqual([
      `${first.name}:${first.port}`,
      `${first.name}:${first.port + 10}`,
      `${second.name}:${second.port}`,
      `${second.name}:${second.port + 10}`,
    ]);
  });

  it('restarts only the replica that died', async () => {
    const crashed = supervisor.current(first.name, 1).process;
    const sibling = supervisor.current(first.name, 0).process;
    crashed.kill('SIGKILL');
    await waitFor(() => supervisor.current(first.name, 1).process !== crashed, { what: 'a new replica' });
    expect(supervisor.current(first.name, 0).process).toBe(sibling);
    expect([supervisor.restarts(first.name, 0), supervisor.restarts(first.name, 1)]).toEqual([0, 1]);
    expect(lines).toEqual([`${first.name}#2 exited (SIGKILL); starting it again in 0.1 s`]);
  });

  it('keeps a held replica down until it is released', async () => {
    const held = supervisor.current(first.name, 0).process;
    supervisor.hold(first.name, 0);
    held.kill('SIGKILL');
    await waitFor(() => lines.length === 1, { what: 'the exit to be seen' });
    expect(lines).toEqual([`${first.name}#1 exited (SIGKILL); held down until released`]);
    expect(supervisor.current(first.name, 0).process).toBe(held);
    supervisor.release(first.name, 0);
    expect(supervisor.current(first.name, 0).process).not.toBe(held);
    expect(supervisor.restarts(first.name, 0)).toBe(1);
  });
});
