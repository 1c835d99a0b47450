import { spawnSync } from 'node:child_process';
import {
  appSchedPolicy,
  appsPolicyName,
  batchChrt,
  findChrt,
  forgetUsableChrt,
  underBatch,
  usableChrt,
} from './app-scheduling';

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
});
