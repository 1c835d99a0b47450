import { beginRelayBatch, markPublishedAndCommit } from './outbox-relay';

describe('markPublishedAndCommit', () => {
  it('marks the given ids and commits, in one simple query', () => {
    expect(markPublishedAndCommit(['7', '42', '9000000000000'])).toBe(
      "UPDATE outbox SET published_at = now() WHERE id = ANY('{7,42,9000000000000}'::bigint[]); COMMIT",
    );
  });

  it('refuses an id that is not a bigserial value rather than inline it', () => {
    expect(() => markPublishedAndCommit(['7', "1}'::bigint[]); DROP TABLE outbox; --"])).toThrow(
      'outbox id is not a bigserial value',
    );
    expect(() => markPublishedAndCommit(['-1'])).toThrow('outbox id is not a bigserial value');
  });
});

describe('beginRelayBatch', () => {
  it('inlines the batch size only when it is a positive integer', () => {
    expect(beginRelayBatch(200)).toMatch(/ORDER BY id LIMIT 200$/);
    for (const size of [0, -1, 1.5, Number.NaN]) {
      expect(() => beginRelayBatch(size)).toThrow('relay batch size must be a positive integer');
    }
  });
});
