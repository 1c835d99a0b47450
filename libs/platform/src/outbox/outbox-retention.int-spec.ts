import { DataSource } from 'typeorm';
import pino from 'pino';
import { createTestDatabase, TestDatabase } from '@paygrid/testing';
import { createDataSource } from '../database/data-source';
import { OutboxRetention, PRUNE_BATCH, pruneOutbox } from './outbox-retention';

/**
 * Outbox retention against the real Postgres: only published rows written before the cutoff are deleted,
 * oldest first, a batch at a time; an unpublished row is kept whatever its age (it is the relay's work),
 * and so is every row written after the cutoff. A run goes on while its batches come back full.
 */
const logger = pino({ level: 'silent' });
const DAY_MS = 86_400_000;

describe('outbox retention', () => {
  let database: TestDatabase;
  let dataSource: DataSource;

  beforeAll(async () => {
    database = await createTestDatabase('outbox_retention');
    dataSource = createDataSource({ url: database.url, app: 'outbox-retention-test' });
    await dataSource.initialize();
    await dataSource.runMigrations();
  });

  afterAll(async () => {
    await dataSource?.destroy();
    await database?.drop();
  });

  beforeEach(() => dataSource.query('DELETE FROM outbox'));

  /** `count` rows written `ageDays` ago, published or not, in id order after those before; their keys. */
  async function rows(count: number, ageDays: number, published: boolean, key: string): Promise<void> {
    await dataSource.query(
      `INSERT INTO outbox (event_id, topic, message_key, payload, created_at, published_at)
       SELECT gen_random_uuid()::text, 'acquiring', $1, '{}', now() - $2 * interval '1 day',
              CASE WHEN $3 THEN now() - $2 * interval '1 day' END
         FROM generate_series(1, $4)`,
      [key, ageDays, published, count],
    );
  }

  const remaining = async () =>
    (
      (await dataSource.query(
        'SELECT message_key AS key, count(*)::int AS n FROM outbox GROUP BY message_key ORDER BY message_key',
      )) as { key: string; n: number }[]
    ).reduce<Record<string, number>>((all, row) => ({ ...all, [row.key]: row.n }), {});

  it('deletes the published rows written before the cutoff and keeps unpublished and newer ones', async () => {
    await rows(3, 10, true, 'a-old-published');
    await rows(2, 10, false, 'b-old-unpublished');
    await rows(3, 9, true, 'c-old-published-after-a-gap');
    await rows(4, 1, true, 'd-new-published');
    await rows(1, 0, false, 'e-new-unpublished');

    expect(await pruneOutbox(dataSource, new Date(Date.now() - 7 * DAY_MS))).toBe(6);
    expect(await remaining()).toEqual({
      'b-old-unpublished': 2,
      'd-new-published': 4,
      'e-new-unpublished': 1,
    });
    expect(await pruneOutbox(dataSource, new Date(Date.now() - 7 * DAY_MS))).toBe(0);
  });

  it('takes a batch of the oldest rows at a time', async () => {
    await rows(5, 10, true, 'old');
    expect(await pruneOutbox(dataSource, new Date(Date.now() - 7 * DAY_MS), 2)).toBe(2);
    expect(await remaining()).toEqual({ old: 3 });
  });

  it('goes on while its batches come back full, and counts what it deleted', async () => {
    await rows(PRUNE_BATCH + 5, 10, true, 'backlog');
    await rows(2, 0, true, 'today');
    const pruned: number[] = [];
    const retention = new OutboxRetention(dataSource, logger, { retentionHours: 7 * 24 }, (count) =>
      pruned.push(count),
    );

    expect(await retention.runOnce()).toBe(PRUNE_BATCH + 5);
    expect(pruned).toEqual([PRUNE_BATCH, 5]);
    expect(await remaining()).toEqual({ today: 2 });
  });

  it('keeps every row when the retention is 0', async () => {
    await rows(3, 400, true, 'ancient');
    const retention = new OutboxRetention(dataSource, logger, { retentionHours: 0 });
    expect(await retention.runOnce()).toBe(0);
    expect(await remaining()).toEqual({ ancient: 3 });
  });
});
