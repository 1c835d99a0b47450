import { armName, parseAbArguments } from './ab-options';

describe('parseAbArguments', () => {
  it('compares a commit with this checkout by default, three pairs of the create bench', () => {
    expect(parseAbArguments(['--base', 'HEAD~1'])).toEqual({
      A: { ref: 'HEAD~1', env: {} },
      B: { ref: '.', env: {} },
      pairs: 3,
      sections: 'acquiring',
    });
  });

  it('compares one build under two settings, each flag as often as needed', () => {
    const options = parseAbArguments([
      '--env-b',
      'DATABASE_URL=postgres://postgres@localhost/postgres?host=/var/run/postgresql',
      '--env-b=PAYGRID_APP_NICE=none',
      '--pairs=4',
      '--only',
      'acquiring,http',
    ]);
    expect(options.A).toEqual({ ref: '.', env: {} });
    expect(options.B.env).toEqual({
      DATABASE_URL: 'postgres://postgres@localhost/postgres?host=/var/run/postgresql',
      PAYGRID_APP_NICE: 'none',
    });
    expect(options.pairs).toBe(4);
    expect(options.sections).toBe('acquiring,http');
  });

  it('refuses two arms that would be the same run', () => {
    expect(() => parseAbArguments([])).toThrow(/the arms are the same build/);
    expect(() => parseAbArguments(['--base', 'main', '--head', 'main'])).toThrow(
      /the arms are the same build/,
    );
  });

  it('refuses what it cannot read, naming it', () => {
    expect(() => parseAbArguments(['--base', 'x', '--pair', '2'])).toThrow(/unknown option --pair/);
    expect(() => parseAbArguments(['--env-b', 'NOVALUE'])).toThrow(/--env-b takes KEY=VALUE, got "NOVALUE"/);
    expect(() => parseAbArguments(['--base', 'a', '--base', 'b'])).toThrow(/--base given 2 times/);
    expect(() => parseAbArguments(['--base', 'x', '--only', 'nonsense'])).toThrow(/unknown bench section/);
  });
});

describe('armName', () => {
  it('names the build, and the settings when there are any', () => {
    expect(armName({ ref: '.', env: {} }, 'working tree (abc1234)')).toBe('working tree (abc1234)');
    expect(armName({ ref: '.', env: { A: '1', B: 'x' } }, 'working tree (abc1234)')).toBe(
      'working tree (abc1234) with A=1 B=x',
    );
  });
});
