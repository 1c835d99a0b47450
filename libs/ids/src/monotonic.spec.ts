import { takeRandomBytes } from './monotonic';

describe('takeRandomBytes', () => {
  it('hands out the asked number of bytes, never the same bytes twice, across pool refills', () => {
    // 10,000 draws of 10 bytes is about 24 refills of the 4 KB pool, with draws that straddle its end.
    const seen = new Set<string>();
    for (let draw = 0; draw < 10_000; draw += 1) {
      const bytes = takeRandomBytes(10);
      expect(bytes).toHaveLength(10);
      seen.add(Buffer.from(bytes).toString('hex'));
    }
    expect(seen.size).toBe(10_000);
  });

  it('looks random: every byte value turns up, none far more often than the rest', () => {
    const counts = new Array<number>(256).fill(0);
    for (let draw = 0; draw < 4_000; draw += 1) for (const byte of takeRandomBytes(16)) counts[byte] += 1;
    // 64,000 bytes: 250 expected per value; a CSPRNG stays well inside 150..350.
    expect(Math.min(...counts)).toBeGreaterThan(150);
    expect(Math.max(...counts)).toBeLessThan(350);
  });

  it('refuses sizes the pool cannot serve', () => {
    expect(() => takeRandomBytes(4097)).toThrow(RangeError);
    expect(() => takeRandomBytes(-1)).toThrow(RangeError);
    expect(takeRandomBytes(0)).toHaveLength(0);
  });
});
