import {
  ID_PREFIXES,
  MAX_ID_LENGTH,
  createIdGenerator,
  idPrefix,
  idTimestamp,
  isId,
  newId,
} from './prefixed-id';

/** A clock the test moves by hand, so no test waits for real milliseconds to pass. */
function manualClock(start: number): { now: () => number; set: (ms: number) => void } {
  let current = start;
  return { now: () => current, set: (ms) => (current = ms) };
}

describe('newId', () => {
  it('is prefix, underscore and a 26-character Crockford base32 body', () => {
    const id = newId('pi');
    expect(id).toMatch(/^pi_[0-9A-HJKMNP-TV-Z]{26}$/);
    expect(isId(id, 'pi')).toBe(true);
  });

  it('stays within the spec limit of 36 characters for every known prefix and the longest allowed one', () => {
    for (const prefix of [...Object.values(ID_PREFIXES), 'abcdefghi']) {
      expect(newId(prefix).length).toBeLessThanOrEqual(MAX_ID_LENGTH);
    }
    expect(newId('abcdefghi')).toHaveLength(36);
  });

  it.each(['', 'PI', 'p-i', 'p_i', '1pi', 'abcdefghij', 'pi ', 'π'])('refuses prefix %j', (prefix) => {
    expect(() => newId(prefix)).toThrow(RangeError);
  });

  it('is monotonic and unique for 10k ids minted in one loop', () => {
    const ids = Array.from({ length: 10_000 }, () => newId('evt'));
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort()).toEqual(ids);
  });

  it('is monotonic and unique for 10k ids in one frozen millisecond', () => {
    const { newId: mint } = createIdGenerator({ now: () => 1_700_000_000_000 });
    const ids = Array.from({ length: 10_000 }, () => mint('att'));
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids.map((id) => id.slice(4, 14))).size).toBe(1);
  });

  it('sorts across milliseconds by time, whatever the random part', () => {
    const clock = manualClock(1_700_000_000_000);
    const highRandom = createIdGenerator({
      now: clock.now,
      randomBytes: (n) => new Uint8Array(n).fill(0xff),
    });
    const lowRandom = createIdGenerator({ now: clock.now, randomBytes: (n) => new Uint8Array(n) });
    const earlier = highRandom.newId('re');
    clock.set(1_700_000_000_001);
    const later = lowRandom.newId('re');
    expect(earlier < later).toBe(true);
  });

  it('keeps order when the wall clock steps back', () => {
    const clock = manualClock(1_700_000_000_500);
    const { newId: mint } = createIdGenerator({ now: clock.now });
    const first = mint('po');
    clock.set(1_700_000_000_000);
    const second = mint('po');
    expect(second > first).toBe(true);
    expect(idTimestamp(second).getTime()).toBe(1_700_000_000_500);
  });

  it('moves to the next millisecond rather than overflow the random field', () => {
    const { newId: mint } = createIdGenerator({
      now: () => 1_700_000_000_000,
      randomBytes: (n) => new Uint8Array(n).fill(0xff),
    });
    const first = mint('cmd');
    const second = mint('cmd');
    expect(second > first).toBe(true);
    expect(idTimestamp(second).getTime()).toBe(1_700_000_000_001);
  });

  it('encodes the clock so idTimestamp reads it back', () => {
    const { newId: mint } = createIdGenerator({ now: () => 1_664_150_400_123 });
    expect(idTimestamp(mint('cus')).toISOString()).toBe('2022-09-26T00:00:00.123Z');
    const before = Date.now();
    const at = idTimestamp(newId('whep')).getTime();
    expect(at).toBeGreaterThanOrEqual(before);
    expect(at).toBeLessThanOrEqual(Date.now());
  });

  it('encodes the largest 48-bit timestamp and refuses a later one', () => {
    const max = 2 ** 48 - 1;
    expect(createIdGenerator({ now: () => max }).newId('pi')).toMatch(/^pi_7ZZZZZZZZZ/);
    expect(() => createIdGenerator({ now: () => max + 1 }).newId('pi')).toThrow(RangeError);
    expect(createIdGenerator({ now: () => 0 }).newId('pi')).toMatch(/^pi_0000000000/);
  });
});

describe('isId', () => {
  const id = newId('pi');

  it('accepts an id of the named prefix only', () => {
    expect(isId(id, 'pi')).toBe(true);
    expect(isId(id, 'po')).toBe(false);
    expect(isId(`x${id}`, 'pi')).toBe(false);
    expect(isId(newId('pix'), 'pi')).toBe(false);
  });

  it.each([
    ['lower-case body', () => id.toLowerCase()],
    ['excluded letter I', () => `pi_${'I'.repeat(26)}`],
    ['excluded letter U', () => `pi_0${'U'.repeat(25)}`],
    ['first body character above 7', () => `pi_8${id.slice(4)}`],
    ['short body', () => id.slice(0, -1)],
    ['long body', () => `${id}0`],
    ['trailing newline', () => `${id}\n`],
    ['no separator', () => id.replace('_', '')],
  ])('rejects a %s', (_label, make) => {
    expect(isId(make(), 'pi')).toBe(false);
  });

  it('rejects non-strings and invalid prefixes', () => {
    expect(isId(undefined, 'pi')).toBe(false);
    expect(isId(42, 'pi')).toBe(false);
    expect(isId(id, 'PI')).toBe(false);
  });
});

describe('idPrefix and idTimestamp', () => {
  it('reads the prefix of any well-formed id', () => {
    expect(idPrefix(newId('whep'))).toBe('whep');
    expect(idPrefix('whep_nope')).toBeUndefined();
    expect(idPrefix(null)).toBeUndefined();
  });

  it('refuses to read a timestamp from a malformed id', () => {
    expect(() => idTimestamp('pi_123')).toThrow(TypeError);
    expect(() => idTimestamp('0f8fad5b-d9cb-469f-a165-70867728950e')).toThrow(TypeError);
  });
});
