import { lazyFreePendingOf } from './bench-redis';

describe("the bench's Redis database reset", () => {
  it('reads how many objects Redis has still to free', () => {
    const info =
      '# Memory\r\nused_memory:4512344\r\nlazyfree_pending_objects:5295611\r\nlazyfreed_objects:0\r\n';
    expect(lazyFreePendingOf(info)).toBe(5295611);
    expect(lazyFreePendingOf(info.replace('5295611', '0'))).toBe(0);
  });

  it('refuses an INFO reply without the figure rather than reading it as done', () => {
    expect(() => lazyFreePendingOf('# Memory\r\nused_memory:4512344\r\n')).toThrow(
      /lazyfree_pending_objects/,
    );
  });
});
