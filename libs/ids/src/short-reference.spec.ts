import { isShortReferenceId, shortReferenceId } from './short-reference';

describe('shortReferenceId', () => {
  it("is 'P' and six digits by default", () => {
    for (let i = 0; i < 1000; i += 1) expect(shortReferenceId()).toMatch(/^P[0-9]{6}$/);
  });

  it('takes another letter and up to nine digits', () => {
    expect(shortReferenceId({ letter: 'A', digits: 9 })).toMatch(/^A[0-9]{9}$/);
  });

  it('keeps leading zeros so the length never varies', () => {
    const lengths = new Set(Array.from({ length: 2000 }, () => shortReferenceId().length));
    expect(lengths).toEqual(new Set([7]));
  });

  it.each([
    { letter: 'p' },
    { letter: 'PP' },
    { letter: '1' },
    { digits: 5 },
    { digits: 10 },
    { digits: 6.5 },
  ])('refuses options %j', (options) => {
    expect(() => shortReferenceId(options)).toThrow(RangeError);
  });
});

describe('isShortReferenceId', () => {
  it.each([
    ['P220926', true],
    ['A000000', true],
    ['Z123456789', true],
    ['p220926', false],
    ['P22092', false],
    ['P1234567890', false],
    ['PP20926', false],
    ['P220926\n', false],
    ['', false],
  ])('%j is %p', (value, expected) => {
    expect(isShortReferenceId(value)).toBe(expected);
  });

  it('narrows to a letter and a digit count when asked', () => {
    expect(isShortReferenceId('P220926', { letter: 'P', digits: 6 })).toBe(true);
    expect(isShortReferenceId('A220926', { letter: 'P' })).toBe(false);
    expect(isShortReferenceId('P2209261', { digits: 6 })).toBe(false);
    expect(isShortReferenceId(220926)).toBe(false);
  });
});
