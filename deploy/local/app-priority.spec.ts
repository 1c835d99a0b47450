import { spawnSync } from 'node:child_process';
import { appNiceValues, effectiveNice, NiceTool, underNice, usableNice, workingNice } from './app-priority';
import { NICE, threadStatScript } from './thread-stat.testing';

const ROOT_NICE: NiceTool = { path: '/usr/bin/nice', mayRaise: true };
const USER_NICE: NiceTool = { path: '/usr/bin/nice', mayRaise: false };

describe('app priority (nice values)', () => {
  it('gives the dispatcher -10 and the gateway 5 by default, none with "none", and reads app=value pairs', () => {
    const defaults = [
      ['webhook-dispatcher', -10],
      ['gateway', 5],
    ];
    expect([...appNiceValues(undefined)]).toEqual(defaults);
    expect([...appNiceValues('  ')]).toEqual(defaults);
    expect(appNiceValues('none').size).toBe(0);
    expect([...appNiceValues('webhook-dispatcher=-5, payouts = 5')]).toEqual([
      ['webhook-dispatcher', -5],
      ['payouts', 5],
    ]);
  });

  it.each(['ledger=-5', 'payouts=-21', 'payouts=20', 'payouts', 'payouts=1.5', 'payouts=5,'])(
    'refuses %s, naming the apps and the range',
    (raw) => {
      expect(() => appNiceValues(raw)).toThrow(
        /PAYGRID_APP_NICE must be "none" or app=value pairs \(apps: .*webhook-dispatcher.*; values -20\.\.19\)/,
      );
    },
  );

  it('applies a negative value only where the launcher may raise a weight, a positive one wherever nice exists', () => {
    const values = new Map([
      ['webhook-dispatcher', -10],
      ['payouts', 5],
    ] as const);
    expect(effectiveNice('webhook-dispatcher', new Map(values), ROOT_NICE)).toBe(-10);
    expect(effectiveNice('webhook-dispatcher', new Map(values), USER_NICE)).toBeNull();
    expect(effectiveNice('payouts', new Map(values), USER_NICE)).toBe(5);
    expect(effectiveNice('payouts', new Map(values), null)).toBeNull();
    expect(effectiveNice('gateway', new Map(values), ROOT_NICE)).toBeNull();
  });

  it('runs the command through nice -n when it has a value, and as it is otherwise', () => {
    expect(underNice('/usr/bin/chrt', ['--batch', '0', '/node', 'app.js'], -10, ROOT_NICE)).toEqual({
      command: '/usr/bin/nice',
      args: ['-n', '-10', '/usr/bin/chrt', '--batch', '0', '/node', 'app.js'],
    });
    expect(underNice('/node', ['app.js'], null, ROOT_NICE)).toEqual({ command: '/node', args: ['app.js'] });
    expect(underNice('/node', ['app.js'], 5, null)).toEqual({ command: '/node', args: ['app.js'] });
  });

  it('finds nice and whether it may raise a weight', () => {
    expect(
      workingNice(
        () => '/bin/nice',
        () => false,
      ),
    ).toEqual({ path: '/bin/nice', mayRaise: false });
    expect(
      workingNice(
        () => '/bin/nice',
        () => true,
      ),
    ).toEqual({ path: '/bin/nice', mayRaise: true });
    expect(
      workingNice(
        () => null,
        () => true,
      ),
    ).toBeNull();
  });

  const tool = usableNice();
  (tool?.mayRaise ? it : it.skip)(
    'starts the process, and the threads it makes, at the value (field 19 of /proc/<pid>/task/*/stat)',
    () => {
      // The child lists the nice value of each of its threads (node has several from its first instruction).
      const { command, args } = underNice(process.execPath, ['-e', threadStatScript([NICE])], -3, tool);
      const run = spawnSync(command, args, { encoding: 'utf8' });
      const values = run.stdout.split(',');
      expect(values.length).toBeGreaterThan(1);
      expect(new Set(values)).toEqual(new Set(['-3']));
    },
  );
});
