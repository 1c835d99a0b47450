import { spawnSync } from 'node:child_process';
import {
  appSchedPolicy,
  appsPolicyName,
  batchChrt,
  findChrt,
  forgetUsableChrt,
  appsSchedulingName,
  underAppScheduling,
  underBatch,
  usableChrt,
} from './app-scheduling';
import { usableNice } from './app-priority';

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

  it('uses chrt only where it may set the policy, trying it once per process', () => {
    const tried: string[] = [];
    const refusing = (chrt: string) => {
      tried.push(chrt);
      return false;
    };
    forgetUsableChrt();
    expect(usableChrt(() => '/usr/bin/chrt', refusing)).toBeNull();
    expect(usableChrt(() => '/usr/bin/chrt', refusing)).toBeNull();
    expect(tried).toEqual(['/usr/bin/chrt']);
    forgetUsableChrt();
    expect(
      usableChrt(
        () => '/usr/bin/chrt',
        () => true,
      ),
    ).toBe('/usr/bin/chrt');
    forgetUsableChrt();
    expect(
      usableChrt(
        () => null,
        () => true,
      ),
    ).toBeNull();
    forgetUsableChrt();
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
  (chrt ? it : it.skip)('gives the started process SCHED_BATCH (policy 3 in /proc/<pid>/stat)', () => {
    // The child prints its own policy: field 41 of /proc/self/stat (SCHED_OTHER 0, SCHED_BATCH 3).
    const script =
      "process.stdout.write(require('fs').readFileSync('/proc/self/stat','utf8').split(') ')[1].split(' ')[38])";
    const { command, args } = underBatch(process.execPath, ['-e', script], chrt);
    const run = spawnSync(command, args, { encoding: 'utf8' });
    expect(run.stdout).toBe('3');
  });

  const canRaise = chrt !== null && usableNice()?.mayRaise === true;
  (canRaise ? it : it.skip)(
    "starts an app as the launcher does: the dispatcher's every thread at nice -10 under SCHED_BATCH, others at 0",
    () => {
      // Each thread prints nice/policy: fields 19 and 41 of /proc/<pid>/task/<tid>/stat.
      const script =
        "const fs=require('fs');process.stdout.write(fs.readdirSync('/proc/self/task').map((t)=>{const f=fs.readFileSync('/proc/self/task/'+t+'/stat','utf8').split(') ')[1].split(' ');return f[16]+'/'+f[38]}).join(','))";
      const threadsOf = (app: 'webhook-dispatcher' | 'gateway') => {
        const { command, args } = underAppScheduling(app, process.execPath, ['-e', script]);
        return new Set(spawnSync(command, args, { encoding: 'utf8' }).stdout.split(','));
      };
      const saved = process.env.PAYGRID_APP_NICE;
      delete process.env.PAYGRID_APP_NICE;
      try {
        expect(threadsOf('webhook-dispatcher')).toEqual(new Set(['-10/3']));
        expect(threadsOf('gateway')).toEqual(new Set(['0/3']));
        expect(appsSchedulingName()).toBe('apps SCHED_BATCH, webhook-dispatcher nice -10');
      } finally {
        if (saved !== undefined) process.env.PAYGRID_APP_NICE = saved;
      }
    },
  );
});
