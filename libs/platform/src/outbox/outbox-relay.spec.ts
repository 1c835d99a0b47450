import { markPublishedAndCommit } from './outbox-relay';

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
