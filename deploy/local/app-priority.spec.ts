import { spawnSync } from 'node:child_process';
import {
  appNiceValues,
  effectiveNice,
  forgetUsableNice,
  NiceTool,
  underNice,
  usableNice,
} from './app-priority';

const ROOT_NICE: NiceTool = { path: '/usr/bin/nice', mayRaise: true };
const USER_NICE: NiceTool = { path: '/usr/bin/nice', mayRaise: false };

describe('app priority (nice values)', () => {
  it('gives the dispatcher -10 by default, none with "none", and reads app=value pairs', () => {
    expect([...appNiceValues(undefined)]).toEqual([['webhook-dispatcher', -10]]);
    expect([...appNiceValues('  ')]).toEqual([['webhook-dispatcher', -10]]);
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

  it('finds and tries nice once per process', () => {
    const tried: string[] = [];
    const refusing = (nice: string) => {
      tried.push(nice);
      return false;
    };
    forgetUsableNice();
    expect(usableNice(() => '/bin/nice', refusing)).toEqual({ path: '/bin/nice', mayRaise: false });
    expect(usableNice(() => '/bin/nice', refusing)).toEqual({ path: '/bin/nice', mayRaise: false });
    expect(tried).toEqual(['/bin/nice']);
    forgetUsableNice();
    expect(usableNice(() => null, refusing)).toBeNull();
    forgetUsableNice();
  });

  const tool = usableNice();
  (tool?.mayRaise ? it : it.skip)(
    'starts the process, and the threads it makes, at the value (field 19 of /proc/<pid>/task/*/stat)',
    () => {
      // The child lists the nice value of each of its threads (node has several from its first instruction).
      const script =
        "const fs=require('fs');process.stdout.write(fs.readdirSync('/proc/self/task').map((t)=>fs.readFileSync('/proc/self/task/'+t+'/stat','utf8').split(') ')[1].split(' ')[16]).join(','))";
      const { command, args } = underNice(process.execPath, ['-e', script], -3, tool);
      const run = spawnSync(command, args, { encoding: 'utf8' });
      const values = run.stdout.split(',');
      expect(values.length).toBeGreaterThan(1);
      expect(new Set(values)).toEqual(new Set(['-3']));
    },
  );
});
