import { createUuidV7Generator, isUuid, isUuidV4, isUuidV7, uuidV4, uuidV7, uuidV7Timestamp } from './uuid';

const V4 = '0f8fad5b-d9cb-469f-a165-70867728950e';
const V7 = '01932c07-209c-7f3e-9e1d-4b0c2b6a1f2d';
const V1 = 'c232ab00-9414-11ec-b3c8-9f6bdeced846';
const NIL = '00000000-0000-0000-0000-000000000000';
const MAX = 'ffffffff-ffff-ffff-ffff-ffffffffffff';

describe('uuid validators', () => {
  it.each([
    [V4, true, true, false],
    [V4.toUpperCase(), true, true, false],
    [V7, true, false, true],
    [V1, true, false, false],
    [NIL, true, false, false],
    [MAX, true, false, false],
    ['0f8fad5b-d9cb-469f-c165-70867728950e', true, false, false],
    ['0f8fad5b-d9cb-469f-7165-70867728950e', true, false, false],
    [`{${V4}}`, false, false, false],
    [`urn:uuid:${V4}`, false, false, false],
    [V4.replace(/-/g, ''), false, false, false],
    [` ${V4}`, false, false, false],
    [`${V4}\n`, false, false, false],
    [V4.slice(0, -1), false, false, false],
    [`${V4}0`, false, false, false],
    ['0f8fad5b-d9cb-469f-a165-70867728950g', false, false, false],
    ['0f8fad5bd-9cb-469f-a165-70867728950e', false, false, false],
    ['', false, false, false],
  ])('%j: uuid %p, v4 %p, v7 %p', (value, any, v4, v7) => {
    expect(isUuid(value)).toBe(any);
    expect(isUuidV4(value)).toBe(v4);
    expect(isUuidV7(value)).toBe(v7);
  });

  it('rejects non-strings', () => {
    for (const value of [undefined, null, 42, { toString: () => V4 }]) {
      expect(isUuid(value)).toBe(false);
      expect(isUuidV4(value)).toBe(false);
    }
  });
});

describe('uuidV4', () => {
  it('mints distinct v4 uuids', () => {
    const ids = Array.from({ length: 1000 }, uuidV4);
    expect(ids.every(isUuidV4)).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
  });
});

describe('uuidV7', () => {
  it('mints lower-case RFC 9562 v7 uuids', () => {
    const id = uuidV7();
    expect(isUuidV7(id)).toBe(true);
    expect(id).toBe(id.toLowerCase());
  });

  it('is monotonic and unique for 10k in one loop', () => {
    const ids = Array.from({ length: 10_000 }, uuidV7);
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort()).toEqual(ids);
  });

  it('is monotonic within one frozen millisecond', () => {
    const { uuidV7: mint } = createUuidV7Generator({ now: () => 1_700_000_000_000 });
    const ids = Array.from({ length: 10_000 }, mint);
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.every(isUuidV7)).toBe(true);
  });

  it('sorts across milliseconds and reads its timestamp back', () => {
    let now = 1_700_000_000_000;
    const { uuidV7: mint } = createUuidV7Generator({ now: () => now });
    const first = mint();
    now += 1;
    const second = mint();
    expect(first < second).toBe(true);
    expect(uuidV7Timestamp(first).getTime()).toBe(1_700_000_000_000);
    expect(uuidV7Timestamp(second).getTime()).toBe(1_700_000_000_001);
  });

  it('keeps version and variant bits when every random bit is set', () => {
    const { uuidV7: mint } = createUuidV7Generator({
      now: () => 0,
      randomBytes: (n) => new Uint8Array(n).fill(0xff),
    });
    expect(mint()).toBe('00000000-0000-7fff-bfff-ffffffffffff');
    expect(isUuidV7(mint())).toBe(true);
  });

  it('refuses to read a timestamp from a v4', () => {
    expect(() => uuidV7Timestamp(V4)).toThrow(TypeError);
  });
});
