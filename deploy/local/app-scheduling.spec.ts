import { spawnSync } from 'node:child_process';
import {
  appSchedPolicy,
  appsPolicyName,
  batchChrt,
  findChrt,
  appsSchedulingName,
  underAppScheduling,
  underBatch,
  usableChrt,
  workingChrt,
} from './app-scheduling';
import { usableNice } from './app-priority';
import { NICE, POLICY, threadStatScript } from './thread-stat.testing';

describe('app scheduling policy', () => {
  it('is batch unless PAYGRID_APP_SCHED says normal, and refuses anything else', () => {
    expect(appSchedPolicy(undefined)).toBe('batch');
    expect(appSchedPolicy(' ')).toBe('batch');
    expect(appSchedPolicy('batch')).toBe('batch');
    expect(appSchedPolicy('normal')).toBe('normal');
    expect(() => appSchedPolicy('fifo')).toThrow(
      'PAYGRID_APP_SCHED must be "batch" or "normal" (got "fifo")',
    );
  });

  it('finds chrt only on Linux, where it exists', () => {
    expect(findChrt('darwin', () => true)).toBeNull();
    expect(findChrt('linux', () => false)).toBeNull();
    expect(findChrt('linux', (candidate) => candidate === '/bin/chrt')).toBe('/bin/chrt');
  });

  it('uses chrt only where it may set the policy', () => {
    expect(
      workingChrt(
        () => '/usr/bin/chrt',
        () => false,
      ),
    ).toBeNull();
    expect(
      workingChrt(
        () => '/usr/bin/chrt',
        () => true,
      ),
    ).toBe('/usr/bin/chrt');
    expect(
      workingChrt(
        () => null,
        () => true,
      ),
    ).toBeNull();
  });

  it('starts the apps through chrt only for batch, and tries chrt only then', () => {
    const found = jest.fn(() => '/usr/bin/chrt');
    expect(batchChrt('normal', found)).toBeNull();
    expect(found).not.toHaveBeenCalled();
    expect(batchChrt('batch', found)).toBe('/usr/bin/chrt');
    expect(batchChrt('batch', () => null)).toBeNull();
  });

  it('names the policy the apps get: SCHED_BATCH only with a chrt to start them through', () => {
    expect(appsPolicyName('/usr/bin/chrt')).toBe('SCHED_BATCH');
    expect(appsPolicyName(null)).toBe('SCHED_OTHER');
  });

  it('runs the command through chrt --batch 0 when given one, and as it is otherwise', () => {
    expect(underBatch('/node', ['app.js'], '/usr/bin/chrt')).toEqual({
      command: '/usr/bin/chrt',
      args: ['--batch', '0', '/node', 'app.js'],
    });
    expect(underBatch('/node', ['app.js'], null)).toEqual({ command: '/node', args: ['app.js'] });
  });

  const chrt = usableChrt();
  (chrt ? it : it.skip)('gives the started process, every thread of it, SCHED_BATCH (policy 3)', () => {
    const { command, args } = underBatch(process.execPath, ['-e', threadStatScript([POLICY])], chrt);
    expect(new Set(spawnSync(command, args, { encoding: 'utf8' }).stdout.split(','))).toEqual(new Set(['3']));
  });

  const canRaise = chrt !== null && usableNice()?.mayRaise === true;
  (canRaise ? it : it.skip)(
    "starts an app as the launcher does: the dispatcher's every thread at nice -10 under SCHED_BATCH, the gateway's at 5, others at 0",
    () => {
      // Each thread prints nice/policy.
      const script = threadStatScript([NICE, POLICY]);
      const threadsOf = (app: 'webhook-dispatcher' | 'gateway' | 'acquiring') => {
        const { command, args } = underAppScheduling(app, process.execPath, ['-e', script]);
        return new Set(spawnSync(command, args, { encoding: 'utf8' }).stdout.split(','));
      };
      const saved = process.env.PAYGRID_APP_NICE;
      delete process.env.PAYGRID_APP_NICE;
      try {
        expect(threadsOf('webhook-dispatcher')).toEqual(new Set(['-10/3']));
        expect(threadsOf('gateway')).toEqual(new Set(['5/3']));
        expect(threadsOf('acquiring')).toEqual(new Set(['0/3']));
        expect(appsSchedulingName(null)).toBe(
          'apps SCHED_BATCH, gateway nice 5, webhook-dispatcher nice -10',
        );
        expect(appsSchedulingName(3072)).toBe(
          'apps SCHED_BATCH, gateway nice 5, webhook-dispatcher nice -10, cpu cgroup 3072 shares',
        );
      } finally {
        if (saved !== undefined) process.env.PAYGRID_APP_NICE = saved;
      }
    },
  );
});
