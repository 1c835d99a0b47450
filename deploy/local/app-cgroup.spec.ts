import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { AppsCgroup, appCpuShares, CPU_CGROUP_ROOT, DEFAULT_APP_CPU_SHARES } from './app-cgroup';

/** The cpu controller's line of `pid`'s /proc/<pid>/cgroup: `/` outside any group. */
function cpuCgroupOf(pid: number): string | undefined {
  const line = readFileSync(`/proc/${pid}/cgroup`, 'utf8')
    .split('\n')
    .find((entry) => /^\d+:cpu:/.test(entry));
  return line?.slice(line.indexOf(':cpu:') + ':cpu:'.length);
}

describe('the apps cpu cgroup', () => {
  it('weighs 3072 shares by default, none with "none", and reads an integer from 2 to 262144', () => {
    expect(appCpuShares(undefined)).toBe(DEFAULT_APP_CPU_SHARES);
    expect(DEFAULT_APP_CPU_SHARES).toBe(3072);
    expect(appCpuShares(' ')).toBe(3072);
    expect(appCpuShares('none')).toBeNull();
    expect(appCpuShares('1024')).toBe(1024);
    expect(appCpuShares('2')).toBe(2);
    expect(appCpuShares('262144')).toBe(262_144);
  });

  it.each(['1', '262145', '-5', '1.5', '3k', 'half'])('refuses %s, naming the range', (raw) => {
    expect(() => appCpuShares(raw)).toThrow(
      `PAYGRID_APP_CPU_SHARES must be "none" or an integer from 2 to 262144 (got "${raw}")`,
    );
  });

  it('leaves a process where it is without a cpu controller, or with "none", and makes no folder', () => {
    const root = mkdtempSync(path.join(tmpdir(), 'paygrid-cgroup-'));
    try {
      const noController = new AppsCgroup(root, 42, () => 3072);
      expect(noController.join(process.pid)).toBe(false);
      expect(noController.activeShares()).toBeNull();
      expect(existsSync(noController.directory)).toBe(false);

      const none = new AppsCgroup(CPU_CGROUP_ROOT, 42, () => null);
      expect(none.join(process.pid)).toBe(false);
      expect(none.activeShares()).toBeNull();
      expect(existsSync(none.directory)).toBe(false);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  // A group made and removed here tells whether this machine lets a launcher make one (root, cgroup v1).
  it('throws a malformed setting from prepare, where the launcher calls it before any app is spawned', () => {
    const group = new AppsCgroup(CPU_CGROUP_ROOT, 42, () => appCpuShares('lots'));
    expect(() => group.prepare()).toThrow('PAYGRID_APP_CPU_SHARES must be "none" or an integer');
    expect(existsSync(group.directory)).toBe(false);
  });

  const probe = new AppsCgroup(CPU_CGROUP_ROOT, process.pid, () => 1024);
  const canMake = probe.activeShares() !== null;
  probe.removeIfEmpty();
  (canMake ? it : it.skip)(
    'moves a real child into its group at the configured shares, and removes the group only once it is empty',
    async () => {
      const group = new AppsCgroup(CPU_CGROUP_ROOT, process.pid, () => 512);
      // The child lives until its stdin closes: the test ends it, no timer decides.
      const child = spawn(
        process.execPath,
        ['-e', "process.stdin.on('end', () => process.exit(0)).resume()"],
        {
          stdio: ['pipe', 'ignore', 'ignore'],
        },
      );
      const exited = new Promise((resolve) => child.once('exit', resolve));
      try {
        expect(group.join(child.pid)).toBe(true);
        expect(cpuCgroupOf(child.pid as number)).toBe(`/paygrid-apps-${process.pid}`);
        expect(readFileSync(path.join(group.directory, 'cpu.shares'), 'utf8').trim()).toBe('512');
        expect(group.activeShares()).toBe(512);

        group.removeIfEmpty();
        expect(existsSync(group.directory)).toBe(true);
      } finally {
        child.stdin?.end();
        await exited;
      }
      group.removeIfEmpty();
      expect(existsSync(group.directory)).toBe(false);
    },
  );

  (canMake ? it : it.skip)(
    'removes the empty group a dead launcher left behind when it makes its own',
    () => {
      const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], {
        encoding: 'utf8',
      });
      const orphan = path.join(CPU_CGROUP_ROOT, `paygrid-apps-${dead.stdout}`);
      mkdirSync(orphan);
      const group = new AppsCgroup(CPU_CGROUP_ROOT, process.pid, () => 1024);
      try {
        expect(group.activeShares()).toBe(1024);
        expect(existsSync(orphan)).toBe(false);
        expect(existsSync(group.directory)).toBe(true);
      } finally {
        group.removeIfEmpty();
        if (existsSync(orphan)) rmdirSync(orphan);
      }
      expect(existsSync(group.directory)).toBe(false);
    },
  );
});
