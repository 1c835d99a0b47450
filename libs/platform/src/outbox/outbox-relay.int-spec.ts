import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { Kafka } from 'kafkajs';
import pino from 'pino';
import { EventTopics } from '@paygrid/contracts';
import {
  createTestDatabase,
  NotificationListener,
  TestDatabase,
  testBrokers,
  TestStack,
  waitFor,
  watchPgRoundTrips,
} from '@paygrid/testing';
import { createDataSource } from '../database/data-source';
import { createKafka, createProducer } from '../kafka/kafka-factory';
import { EventSubscriber } from '../kafka/event-subscriber';
import { Metrics } from '../metrics/metrics';
import { appendToOutbox, OUTBOX_CHANNEL } from './outbox-writer';
import { runInTransaction } from '../database/transaction-context';
import { OutboxRelay, RELAY_BEGIN, RELAY_LOCK, RELAY_LOCK_ID, RELAY_MARK, RELAY_READ } from './outbox-relay';
import { withDeadline } from '../bootstrap/with-deadline';
import { claimInboxEvent } from './inbox';
import { OutboxLogicalTopics1700000000010 } from '../database/outbox-logical-topics.migration';

/**
 * The outbox against the real Postgres and Kafka (this file's own stack of topics): a relay whose
 * database session dies after Kafka acknowledged a batch and before the rows were marked (what a
 * kill -9 at that point leaves behind) republishes on restart, and the consumer's inbox turns the
 * duplicates into exactly one effect each.
 */
// Warnings and errors only: what a relay or the broker client logs when a test hangs is the evidence.
const logger = pino({ level: 'warn' });

/** A batch's queries as the driver writes them (first two words each): BEGIN, lock and read; mark and COMMIT. */
const BATCH_READ = ['BEGIN; SET', "SELECT set_config('paygrid.relay_lock',", 'SELECT id,'];
const BATCH_MARK = ['UPDATE outbox', 'COMMIT'];

describe('outbox relay and inbox', () => {
  let stack: TestStack;
  let database: TestDatabase;
  let dataSource: DataSource;
  let kafka: Kafka;

  beforeAll(async () => {
    stack = await TestStack.create('outbox-relay');
    database = await createTestDatabase('outbox');
    dataSource = createDataSource({ url: database.url, app: 'outbox-test' });
    await dataSource.initialize();
    await dataSource.runMigrations();
    await dataSource.query('CREATE TABLE effects (event_id text PRIMARY KEY, applied integer NOT NULL)');
    kafka = createKafka('outbox-test', testBrokers(), logger);
  });

  afterAll(async () => {
    await dataSource?.destroy();
    await database?.drop();
    await stack?.close();
  });

  /**
   * A relay of batches of two on a pool of one connection (so what it prepares and sends is its own), with
   * every batch it published in `batches`; whatever earlier tests left unpublished is published first.
   */
  async function streakRelay(app: string, pollIntervalMs: number, relayLogger = logger) {
    const producer = createProducer(kafka);
    await producer.connect();
    const drainer = new OutboxRelay(dataSource, producer, stack.names, database.url, logger);
    while ((await drainer.publishBatch()) > 0);
    const oneConnection = createDataSource({ url: database.url, app, poolSize: 1 });
    await oneConnection.initialize();
    const batches: string[][] = [];
    const relay = new OutboxRelay(oneConnection, producer, stack.names, database.url, relayLogger, {
      batchSize: 2,
      pollIntervalMs,
      afterPublish: async (ids) => {
        batches.push(ids);
      },
    });
    return { producer, relay, oneConnection, batches };
  }

  it('gives exactly one effect per event when the relay dies between publishing and marking', async () => {
    const sourcePrefix = `it-${randomUUID()}`;
    const deliveries: string[] = [];
    const consumer = new EventSubscriber(
      kafka,
      { names: stack.names, group: `outbox-it-${randomUUID()}`, families: ['payouts'] },
      async (event) => {
        if (!event.source_id.startsWith(sourcePrefix)) return 'duplicate';
        deliveries.push(event.event_id);
        return dataSource.transaction(async (manager) => {
          if (!(await claimInboxEvent(manager, 'effects', event.event_id))) return 'duplicate';
          await manager.query('INSERT INTO effects (event_id, applied) VALUES ($1, 1)', [event.event_id]);
          return 'applied';
        });
      },
      logger,
      new Metrics('outbox-test'),
      false,
    );
    await consumer.start();

    const eventIds = await dataSource.transaction(async (manager) => {
      const ids: string[] = [];
      for (let index = 0; index < 5; index += 1) {
        const event = await appendToOutbox(manager, {
          topic: EventTopics.payouts,
          event_name: 'test.happened',
          event_type: 'OPERATIONS',
          source_id: `${sourcePrefix}-${index}`,
          account_id: 'acct',
          master_account_id: 'acct',
          data: { index },
        });
        ids.push(event.event_id);
      }
      return ids;
    });

    const victimSource = createDataSource({ url: database.url, app: 'outbox-victim', poolSize: 1 });
    await victimSource.initialize();
    const producer = createProducer(kafka);
    await producer.connect();
    const dying = new OutboxRelay(victimSource, producer, stack.names, database.url, logger, {
      afterPublish: async () => {
        await terminateSessions(database.url, 'paygrid-outbox-victim');
      },
    });
    await expect(dying.publishBatch()).rejects.toThrow();
    await victimSource.destroy().catch(() => undefined);

    const [{ unpublished }] = await dataSource.query(
      'SELECT count(*)::int AS unpublished FROM outbox WHERE published_at IS NULL',
    );
    expect(unpublished).toBe(5);
    await waitFor(() => eventIds.every((id) => deliveries.includes(id)), { what: 'first publication' });

    const relay = new OutboxRelay(dataSource, producer, stack.names, database.url, logger, {
      pollIntervalMs: 50,
    });
    await relay.start();
    await waitFor(() => deliveries.length >= 10, { what: 'republished duplicates' });
    await relay.stop();
    await consumer.stop();
    await producer.disconnect();

    const effects = await dataSource.query('SELECT event_id, applied FROM effects ORDER BY event_id');
    expect(effects).toHaveLength(5);
    expect(effects.map((row: { event_id: string }) => row.event_id).sort()).toEqual([...eventIds].sort());
    expect(effects.every((row: { applied: number }) => row.applied === 1)).toBe(true);
    const [{ pending }] = await dataSource.query(
      'SELECT count(*)::int AS pending FROM outbox WHERE published_at IS NULL',
    );
    expect(pending).toBe(0);
  });

  it('wakes on commit through LISTEN/NOTIFY and publishes keyed by aggregate id', async () => {
    const producer = createProducer(kafka);
    await producer.connect();
    // A long poll interval: only the notification can make this publish promptly.
    const relay = new OutboxRelay(dataSource, producer, stack.names, database.url, logger, {
      pollIntervalMs: 60_000,
    });
    await relay.start();
    const sourceId = `keyed-${randomUUID()}`;
    const received: { key: string | undefined; sourceId: string }[] = [];
    const consumer = kafka.consumer({ groupId: `outbox-key-${randomUUID()}`, maxWaitTimeInMs: 100 });
    await consumer.connect();
    await consumer.subscribe({ topic: stack.names.eventTopic('payouts'), fromBeginning: false });
    await consumer.run({
      eachMessage: async ({ message }) => {
        const event = JSON.parse(message.value?.toString() ?? '{}');
        if (event.source_id === sourceId)
          received.push({ key: message.key?.toString(), sourceId: event.source_id });
      },
    });
    await waitFor(async () => (await consumer.describeGroup()).state === 'Stable', { what: 'consumer join' });
    await dataSource.transaction((manager) =>
      appendToOutbox(manager, {
        topic: EventTopics.payouts,
        event_name: 'test.keyed',
        event_type: 'OPERATIONS',
        source_id: sourceId,
        account_id: 'acct',
        master_account_id: 'acct',
        data: {},
      }),
    );
    await waitFor(() => received.length === 1, { what: 'notified publication', timeoutMs: 10_000 });
    expect(received[0].key).toBe(sourceId);
    await consumer.disconnect();
    await relay.stop();
    await producer.disconnect();
  });

  it('publishes a commit notified while a batch is in flight at once, not after the poll interval', async () => {
    const producer = createProducer(kafka);
    await producer.connect();
    const listener = new Client({ connectionString: database.url });
    let heard = 0;
    listener.on('notification', () => (heard += 1));
    await listener.connect();
    await listener.query('LISTEN paygrid_outbox');
    const append = (sourceId: string) =>
      dataSource.transaction((manager) =>
        appendToOutbox(manager, {
          topic: EventTopics.payouts,
          event_name: 'test.in_flight',
          event_type: 'OPERATIONS',
          source_id: sourceId,
          account_id: 'acct',
          master_account_id: 'acct',
          data: {},
        }),
      );
    let second: string | undefined;
    // A poll interval far beyond the wait below: only the notification can publish the second row.
    const relay = new OutboxRelay(dataSource, producer, stack.names, database.url, logger, {
      pollIntervalMs: 3_600_000,
      afterPublish: async () => {
        if (second !== undefined) return;
        // Committed (and notified) after this batch's SELECT and before its end.
        const before = heard;
        second = (await append(`in-flight-${randomUUID()}`)).event_id;
        await waitFor(() => heard > before, { what: "the second commit's notification" });
      },
    });
    try {
      await append(`first-${randomUUID()}`);
      await relay.start();
      await waitFor(
        async () => {
          if (second === undefined) return false;
          const [row] = await dataSource.query('SELECT published_at FROM outbox WHERE event_id = $1', [
            second,
          ]);
          return row?.published_at !== null;
        },
        { what: 'the row committed during a batch, published', timeoutMs: 20_000 },
      );
    } finally {
      await relay.stop();
      await producer.disconnect();
      await listener.end();
    }
  });

  it('waits its gather after a notified commit, so a commit made meanwhile goes out in the same batch', async () => {
    const producer = createProducer(kafka);
    await producer.connect();
    const append = async (sourceId: string) =>
      (
        await dataSource.transaction((manager) =>
          appendToOutbox(manager, {
            topic: EventTopics.payouts,
            event_name: 'test.gathered',
            event_type: 'OPERATIONS',
            source_id: sourceId,
            account_id: 'acct',
            master_account_id: 'acct',
            data: {},
          }),
        )
      ).event_id;
    const batches: string[][] = [];
    let gathersEntered = 0;
    let endGather!: () => void;
    const gatherEnds = new Promise<void>((resolve) => (endGather = resolve));
    // Committed before the relay listens, so the relay's first batch (not a notified one) takes it: once it is
    // published the relay has read, and only a notification can start the next batch.
    const marker = await append(`gather-marker-${randomUUID()}`);
    const relay = new OutboxRelay(dataSource, producer, stack.names, database.url, logger, {
      pollIntervalMs: 3_600_000,
      gatherMs: 1,
      // The barrier this test controls stands in for the gather's timer.
      gather: async () => {
        gathersEntered += 1;
        await gatherEnds;
      },
      afterPublish: async (ids) => {
        batches.push(ids);
      },
    });
    try {
      await relay.start();
      await waitFor(() => batches.some((batch) => batch.includes(marker)), { what: "the marker's batch" });
      const first = await append(`gather-first-${randomUUID()}`);
      // Bounded, and named: CI once saw this test hang to Jest's 90 s limit without saying on what.
      await waitFor(() => gathersEntered > 0, {
        what: "the relay's gather after the first row's commit",
      });
      const second = await append(`gather-second-${randomUUID()}`);
      endGather();
      await waitFor(() => batches.some((batch) => batch.includes(second)), {
        what: 'the second row, published',
      });
      expect(batches.find((batch) => batch.includes(first))).toEqual([first, second]);
    } finally {
      endGather();
      await withDeadline(relay.stop(), 10_000, 'the relay did not stop within 10 s');
      await withDeadline(producer.disconnect(), 10_000, 'the producer did not disconnect within 10 s');
    }
  });

  it("publishes a deferred-wake transaction's rows on its process's own wake-up, without the poll", async () => {
    const producer = createProducer(kafka);
    await producer.connect();
    // A poll interval far beyond the wait below, and no plain commit after it: only the wake-up the writer's
    // process sends OUTBOX_DEFERRED_WAKE_MS later (deferred-wakes.ts) can publish the row.
    const relay = new OutboxRelay(dataSource, producer, stack.names, database.url, logger, {
      pollIntervalMs: 600_000,
    });
    await relay.start();
    try {
      const eventId = await runInTransaction(
        dataSource,
        logger,
        async (tx) => {
          const envelope = await appendToOutbox(tx.manager, {
            topic: EventTopics.payouts,
            event_name: 'test.deferred',
            event_type: 'OPERATIONS',
            source_id: `deferred-${randomUUID()}`,
            account_id: 'acct',
            master_account_id: 'acct',
            data: {},
          });
          return envelope.event_id;
        },
        { outbox: { deferWake: true } },
      );
      await waitFor(
        async () => {
          const [row] = await dataSource.query('SELECT published_at FROM outbox WHERE event_id = $1', [
            eventId,
          ]);
          return row?.published_at !== null;
        },
        { what: 'the deferred row, published', timeoutMs: 20_000 },
      );
    } finally {
      // Bounded, so a stop that hangs cannot hide the wait above that failed (one unexplained 90 s timeout
      // of this test, stop 39); the relay's own warnings go to this file's log.
      await withDeadline(relay.stop(), 10_000, 'the relay did not stop within 10 s');
      await withDeadline(producer.disconnect(), 10_000, 'the producer did not disconnect within 10 s');
    }
  });

  it('publishes a batch in two round trips of prepared statements on generic plans and marks it sent; an idle batch costs two too', async () => {
    const producer = createProducer(kafka);
    await producer.connect();
    // One connection, so the statements the relay prepared are those pg_prepared_statements shows below.
    const oneConnection = createDataSource({ url: database.url, app: 'outbox-prepared', poolSize: 1 });
    await oneConnection.initialize();
    const relay = new OutboxRelay(oneConnection, producer, stack.names, database.url, logger);
    try {
      // Whatever earlier tests left unpublished goes first, so the batch below is exactly these rows.
      while ((await relay.publishBatch()) > 0);
      const eventIds = await commitEvents(dataSource, 3, 'round_trips');
      const wire = await watchedBatch(relay);
      expect(wire.published).toBe(3);
      expect(wire.texts).toEqual([...BATCH_READ, ...BATCH_MARK]);
      expect(wire.roundTrips).toBe(2);
      expect(await markedCount(dataSource, eventIds)).toBe(3);

      const idle = await watchedBatch(relay);
      expect(idle.published).toBe(0);
      expect(idle.texts).toEqual([...BATCH_READ, 'ROLLBACK']);
      expect(idle.roundTrips).toBe(2);

      // Each statement was prepared on the connection and ran on its generic plan, never a custom one: a
      // custom plan is made again on each execution (the mark's first five would have been custom).
      const prepared = (await oneConnection.query(
        `SELECT statement, generic_plans, custom_plans FROM pg_prepared_statements
          WHERE statement = ANY($1) ORDER BY statement`,
        [[RELAY_LOCK, RELAY_READ, RELAY_MARK]],
      )) as { statement: string; generic_plans: string; custom_plans: string }[];
      expect(
        prepared.map((row) => [row.statement, Number(row.custom_plans), Number(row.generic_plans) > 0]),
      ).toEqual([RELAY_LOCK, RELAY_READ, RELAY_MARK].sort().map((statement) => [statement, 0, true]));
      // Nothing is left open on the pooled connection: a later transaction of the pool works as usual.
      expect(await oneConnection.transaction((manager) => manager.query('SELECT 1 AS one'))).toEqual([
        { one: 1 },
      ]);
    } finally {
      await producer.disconnect();
      await oneConnection.destroy();
    }
  });

  it("publishes back-to-back batches with each batch's mark written with the next batch's read: one round trip a batch", async () => {
    const { producer, relay, oneConnection, batches } = await streakRelay('outbox-streak', 3_600_000);
    // Committed before the relay listens (no notification): only the full first batch makes the streak go on.
    const eventIds = await commitEvents(dataSource, 3, 'streak');
    const wire = watchPgRoundTrips();
    try {
      await relay.start();
      await waitFor(async () => (await markedCount(dataSource, eventIds)) === 3, {
        what: 'the three rows, marked',
      });
      await relay.stop();
      wire.restore();
      expect(batches).toEqual([eventIds.slice(0, 2), eventIds.slice(2)]);
      const [relayConnection, ...others] = wire
        .connections()
        .filter(({ texts }) => texts.includes('UPDATE outbox'));
      expect(others).toEqual([]);
      expect(relayConnection.texts).toEqual([...BATCH_READ, ...BATCH_MARK, ...BATCH_READ, ...BATCH_MARK]);
      // BEGIN and read; the first batch's mark with the second's read; the last mark.
      expect(relayConnection.roundTrips).toBe(3);
    } finally {
      wire.restore();
      await relay.stop();
      await producer.disconnect();
      await oneConnection.destroy();
    }
  });

  it('republishes a batch whose mark failed in a streak, and leaves no transaction or lock behind', async () => {
    // The relay logs a streak's failure once the streak's catch has run (its ROLLBACK answered, its connection
    // released): the barrier the checks below wait on.
    let failed!: () => void;
    const firstFailure = new Promise<void>((resolve) => (failed = resolve));
    const failureLogger = Object.assign(Object.create(logger), { error: () => failed() }) as typeof logger;
    const { producer, relay, oneConnection, batches } = await streakRelay(
      'outbox-refused-mark',
      50,
      failureLogger,
    );
    // The first mark after this fails (a sequence, so the count survives the failed transaction's rollback).
    await dataSource.query(`CREATE SEQUENCE outbox_marks_seen`);
    await dataSource.query(`CREATE FUNCTION refuse_first_mark() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF nextval('outbox_marks_seen') = 1 THEN RAISE EXCEPTION 'the first mark is refused'; END IF;
        RETURN NULL;
      END $$`);
    await dataSource.query(
      `CREATE TRIGGER refuse_first_mark BEFORE UPDATE ON outbox FOR EACH STATEMENT EXECUTE FUNCTION refuse_first_mark()`,
    );
    const eventIds = await commitEvents(dataSource, 3, 'refused_mark');
    try {
      await relay.start();
      await firstFailure;
      // Stopped before its retry: what the failed streak left on its connection is what the pool holds now.
      await relay.stop();
      // The first batch went out and its mark, written with the second batch's read, failed: nothing marked,
      // nothing counted, and the second read's transaction (holding the relay's lock) rolled back.
      expect(batches).toEqual([eventIds.slice(0, 2)]);
      expect(await markedCount(dataSource, eventIds)).toBe(0);
      expect(relay.published).toBe(0);
      const sessions = await dataSource.query(
        `SELECT state FROM pg_stat_activity WHERE application_name = 'paygrid-outbox-refused-mark'`,
      );
      expect(sessions).toEqual([{ state: 'idle' }]);
      const [{ held }] = await dataSource.query(
        `SELECT count(*)::int AS held FROM pg_locks
          WHERE locktype = 'advisory' AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`,
      );
      expect(held).toBe(0);

      await relay.start();
      await waitFor(async () => (await markedCount(dataSource, eventIds)) === 3, {
        what: 'the three rows, marked',
      });
      await relay.stop();
      // The next streak read the same two rows again (at least once: the consumers' inboxes dedupe), then the third;
      // only marks that committed count as published.
      expect(batches).toEqual([eventIds.slice(0, 2), eventIds.slice(0, 2), eventIds.slice(2)]);
      expect(relay.published).toBe(3);
    } finally {
      await relay.stop();
      await producer.disconnect();
      // First, so that a transaction left open on the relay's connection cannot hold up the DROPs below.
      await oneConnection.destroy();
      await dataSource.query('DROP TRIGGER refuse_first_mark ON outbox');
      await dataSource.query('DROP FUNCTION refuse_first_mark()');
      await dataSource.query('DROP SEQUENCE outbox_marks_seen');
    }
  });

  it('leaves the lock and the rows to another relay while it publishes', async () => {
    const producer = createProducer(kafka);
    await producer.connect();
    let release!: () => void;
    let entered!: () => void;
    const inFlight = new Promise<void>((resolve) => (entered = resolve));
    const first = new OutboxRelay(dataSource, producer, stack.names, database.url, logger, {
      afterPublish: () => {
        entered();
        return new Promise<void>((resolve) => (release = resolve));
      },
    });
    const second = new OutboxRelay(dataSource, producer, stack.names, database.url, logger);
    try {
      await dataSource.transaction((manager) =>
        appendToOutbox(manager, {
          topic: EventTopics.payouts,
          event_name: 'test.locked',
          event_type: 'OPERATIONS',
          source_id: `locked-${randomUUID()}`,
          account_id: 'acct',
          master_account_id: 'acct',
          data: {},
        }),
      );
      const publishing = first.publishBatch();
      await inFlight;
      expect(await second.publishBatch()).toBe(0);
      // The loser's read, in the transaction of its lock and behind it, sees no row: not even the one still unpublished.
      const reader = new Client({ connectionString: database.url });
      await reader.connect();
      try {
        await reader.query(RELAY_BEGIN);
        expect((await reader.query(RELAY_LOCK, [RELAY_LOCK_ID])).rows).toEqual([{ acquired: false }]);
        expect((await reader.query(RELAY_READ, [200])).rows).toEqual([]);
        const [{ n }] = (
          await reader.query('SELECT count(*)::int AS n FROM outbox WHERE published_at IS NULL')
        ).rows;
        expect(n).toBeGreaterThan(0);
      } finally {
        await reader.query('ROLLBACK');
        await reader.end();
      }
      release();
      expect(await publishing).toBeGreaterThan(0);
      expect(await second.publishBatch()).toBe(0);
    } finally {
      await producer.disconnect();
    }
  });

  it('notifies once per committed transaction whatever its events, and never for a rolled-back one', async () => {
    const listener = await NotificationListener.start(database.url, OUTBOX_CHANNEL);
    try {
      const append = (manager: Pick<DataSource, 'query'>, index: number) =>
        appendToOutbox(manager, {
          topic: EventTopics.payouts,
          event_name: 'test.notified',
          event_type: 'OPERATIONS',
          source_id: `notified-${randomUUID()}`,
          account_id: 'acct',
          master_account_id: 'acct',
          data: { index },
        });
      let statements = 0;
      await dataSource.transaction(async (manager) => {
        // One round trip per event: the NOTIFY rides on the insert (the outbox's statement trigger).
        const counting = {
          query: (sql: string, parameters?: unknown[]) => ((statements += 1), manager.query(sql, parameters)),
        };
        for (let index = 0; index < 4; index += 1) await append(counting, index);
      });
      expect(statements).toBe(4);
      await expect(
        dataSource.transaction(async (manager) => {
          await append(manager, 0);
          await append(manager, 1);
          throw new Error('rolled back on purpose');
        }),
      ).rejects.toThrow('rolled back on purpose');
      expect(await listener.heardBeforeBarrier()).toEqual(['']);
    } finally {
      await listener.end();
    }
  });
});

describe('outbox rows written before stack prefixes', () => {
  let database: TestDatabase;
  let dataSource: DataSource;

  beforeAll(async () => {
    database = await createTestDatabase('outbox_legacy');
    dataSource = createDataSource({ url: database.url, app: 'outbox-legacy' });
    await dataSource.initialize();
    await dataSource.runMigrations();
  });

  afterAll(async () => {
    await dataSource?.destroy();
    await database?.drop();
  });

  it('get their logical topic when unpublished, so the relay sends them to its own stack; sent rows keep theirs', async () => {
    await dataSource.query(
      `INSERT INTO outbox (event_id, topic, message_key, payload, published_at) VALUES
         ('legacy-pending', 'paygrid.payouts.events', 'k1', '{}', NULL),
         ('legacy-sent', 'paygrid.payouts.events', 'k2', '{}', now())`,
    );
    const runner = dataSource.createQueryRunner();
    try {
      await new OutboxLogicalTopics1700000000010().up(runner);
    } finally {
      await runner.release();
    }
    const rows = await dataSource.query(
      `SELECT event_id, topic FROM outbox WHERE event_id LIKE 'legacy-%' ORDER BY event_id`,
    );
    expect(rows).toEqual([
      { event_id: 'legacy-pending', topic: 'payouts.events' },
      { event_id: 'legacy-sent', topic: 'paygrid.payouts.events' },
    ]);
  });
});

/** `count` events committed in one transaction (one notification), their ids in outbox order. */
async function commitEvents(dataSource: DataSource, count: number, name: string): Promise<string[]> {
  return dataSource.transaction(async (manager) => {
    const ids: string[] = [];
    for (let index = 0; index < count; index += 1) {
      const event = await appendToOutbox(manager, {
        topic: EventTopics.payouts,
        event_name: `test.${name}`,
        event_type: 'OPERATIONS',
        source_id: `${name}-${randomUUID()}`,
        account_id: 'acct',
        master_account_id: 'acct',
        data: { index },
      });
      ids.push(event.event_id);
    }
    return ids;
  });
}

async function terminateSessions(url: string, applicationName: string): Promise<void> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    await client.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1', [
      applicationName,
    ]);
  } finally {
    await client.end();
  }
}

/** One batch of `relay`, and the queries it wrote to Postgres (first two words each) in how many round trips. */
async function watchedBatch(relay: OutboxRelay) {
  const wire = watchPgRoundTrips();
  try {
    const published = await relay.publishBatch();
    return { published, texts: wire.texts(), roundTrips: wire.roundTrips() };
  } finally {
    wire.restore();
  }
}

/** How many of these events' outbox rows are marked published. */
async function markedCount(dataSource: DataSource, eventIds: string[]): Promise<number> {
  const [{ n }] = await dataSource.query(
    'SELECT count(*)::int AS n FROM outbox WHERE event_id = ANY($1) AND published_at IS NOT NULL',
    [eventIds],
  );
  return n as number;
}
