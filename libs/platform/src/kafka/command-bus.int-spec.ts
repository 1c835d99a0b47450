import { randomUUID } from 'node:crypto';
import { Injectable, Module, DynamicModule, INestApplication } from '@nestjs/common';
import { MigrationInterface, QueryRunner, DataSource } from 'typeorm';
import pino from 'pino';
import { IsBoolean, IsOptional, IsString, MaxLength } from 'class-validator';
import { defineCommand, EventTopics, NoPayload, returns } from '@paygrid/contracts';
import {
  createTestDatabase,
  NotificationListener,
  ServiceHarness,
  TestDatabase,
  testBrokers,
  TestStack,
  waitFor,
} from '@paygrid/testing';
import { commonConfig } from '../config/common-config';
import { loadConfig } from '../config/config';
import { PlatformModule } from '../nest/platform.module';
import { createHttpApp } from '../bootstrap/start-app';
import { ApiError, envelopeA } from '../errors/api-error';
import { Metrics } from '../metrics/metrics';
import { currentCorrelationId } from '../logging/correlation';
import { CommandBus } from './command-bus';
import { createKafka } from './kafka-factory';
import { HandleCommand } from '../commands/handle-command.decorator';
import { StagedContext, WriteContext } from '../commands/command-context';
import { commandControllerFor } from './command-controller';
import { appendToOutbox, NewEvent, OUTBOX_CHANNEL } from '../outbox/outbox-writer';
import { configureDeferredWakes, OUTBOX_DEFERRED_WAKE_MS } from '../outbox/deferred-wakes';

/**
 * Request/reply over the real broker with a real service (a test module on the payouts command topic
 * of this file's own stack): at-most-once application of a command_id, stored refusals, and the
 * timeout path when the service is down, recovered by a retry once it is back.
 */
class TestEffectsTable1700000000001 implements MigrationInterface {
  name = 'TestEffectsTable1700000000001';
  async up(runner: QueryRunner) {
    await runner.query('CREATE TABLE test_effects (id serial PRIMARY KEY, note text NOT NULL)');
  }
  async down(runner: QueryRunner) {
    await runner.query('DROP TABLE test_effects');
  }
}

class TestCreatePayload {
  @IsString()
  @MaxLength(200)
  note!: string;

  @IsOptional()
  @IsBoolean()
  refuse?: boolean;

  /** Throws a domain error (not an ApiError) that the service's error mapper turns into a refusal. */
  @IsOptional()
  @IsBoolean()
  domainRefusal?: boolean;
}

class TestDomainError extends Error {}
const mapTestErrors = (error: unknown) =>
  error instanceof TestDomainError ? envelopeA('invalid_request_error', 'mapped_domain_error', error.message) : error;

const TestCommands = {
  whoami: defineCommand('payouts.test_whoami', {
    payload: NoPayload,
    result: returns<{ correlation_id: string | null }>(),
    mutates: false,
    needsActor: false,
  }),
  create: defineCommand('payouts.test_create', {
    payload: TestCreatePayload,
    result: returns<{ id: number; note: string }>(),
    mutates: true,
    needsActor: false,
  }),
  /** Records a row, "calls out" between two transactions, then completes under the ledger. */
  staged: defineCommand('payouts.test_staged', {
    payload: TestCreatePayload,
    result: returns<{ id: number; note: string; outside_calls: number }>(),
    mutates: true,
    needsActor: false,
  }),
};

/** What the create handler saw: notes in the order their handling started, and overlaps by note prefix. */
const handling = { started: [] as string[], inFlight: new Map<string, number>(), overlapped: new Set<string>() };

/** After-commit hooks of the create command, by note: proves they run once and only after commit. */
const hooksRun = new Map<string, number>();
/** An event of each of the staged command's two transactions. */
function stagedEvent(note: string, step: string): NewEvent<{ step: string }> {
  return {
    topic: EventTopics.payouts,
    event_name: `test.staged_${step}`,
    event_type: 'OPERATIONS',
    source_id: note,
    account_id: 'acct-staged',
    master_account_id: 'acct-staged',
    data: { step },
  };
}

let outsideCalls = 0;

@Injectable()
class TestHandlers {
  @HandleCommand(TestCommands.whoami)
  async whoami() {
    return { correlation_id: currentCorrelationId() ?? null };
  }

  @HandleCommand(TestCommands.create)
  async create(payload: TestCreatePayload, { tx }: WriteContext) {
    if (payload.refuse) throw envelopeA('invalid_request_error', 'refused_for_test', 'refused on purpose');
    if (payload.domainRefusal) throw new TestDomainError('cannot do that: status is DONE');
    const group = payload.note.split('#')[0];
    handling.started.push(payload.note);
    handling.inFlight.set(group, (handling.inFlight.get(group) ?? 0) + 1);
    if (handling.inFlight.get(group)! > 1) handling.overlapped.add(group);
    const [row] = await tx.manager
      .query('INSERT INTO test_effects (note) VALUES ($1) RETURNING id', [payload.note])
      .finally(() => handling.inFlight.set(group, handling.inFlight.get(group)! - 1));
    tx.afterCommit(async () => {
      const [seen] = await tx.manager.connection.query('SELECT count(*)::int AS n FROM test_effects WHERE id = $1', [row.id]);
      if (seen.n === 1) hooksRun.set(payload.note, (hooksRun.get(payload.note) ?? 0) + 1);
    });
    return { id: row.id, note: payload.note };
  }

  @HandleCommand(TestCommands.staged, { staged: true })
  async staged(payload: TestCreatePayload, context: StagedContext) {
    await context.transaction(async (tx) => {
      await tx.manager.query('INSERT INTO test_effects (note) VALUES ($1)', [`${payload.note}-prepared`]);
      await appendToOutbox(tx.manager, stagedEvent(payload.note, 'prepared'));
    });
    outsideCalls += 1;
    const { result } = await context.complete(async (tx) => {
      const [row] = await tx.manager.query('INSERT INTO test_effects (note) VALUES ($1) RETURNING id', [payload.note]);
      await appendToOutbox(tx.manager, stagedEvent(payload.note, 'completed'));
      return { id: row.id as number, note: payload.note, outside_calls: outsideCalls };
    });
    return result;
  }
}

@Module({})
class TestServiceModule {
  static register(config: Parameters<typeof PlatformModule.forRoot>[0]['config']): DynamicModule {
    return {
      module: TestServiceModule,
      imports: [
        PlatformModule.forRoot({
          app: 'payouts',
          config,
          database: { migrations: [TestEffectsTable1700000000001] },
          commands: true,
          commandErrors: mapTestErrors,
        }),
      ],
      controllers: [commandControllerFor('payouts', config)],
      providers: [TestHandlers],
    };
  }
}

describe('command bus against a real service', () => {
  let stack: TestStack;
  let database: TestDatabase;
  let service: INestApplication | undefined;
  let bus: CommandBus;

  const config = () =>
    loadConfig(commonConfig('payouts'), {
      DATABASE_URL: database.url,
      KAFKA_BROKERS: testBrokers().join(','),
      KAFKA_PREFIX: stack.prefix,
      LOG_LEVEL: 'silent',
    });

  async function startService(): Promise<void> {
    if (service) return;
    const app = await createHttpApp({
      app: 'payouts',
      module: TestServiceModule.register(config()),
      config: { ...config(), PORT: 0, HOST: '127.0.0.1' },
      consumesCommands: true,
    });
    await app.startAllMicroservices();
    await app.init();
    service = app;
  }

  const send = (commandId: string, payload: object, timeoutMs = 15_000) =>
    bus.execute(TestCommands.create, payload as TestCreatePayload, { actor: null, commandId, timeoutMs });

  beforeAll(async () => {
    stack = await TestStack.create('command-bus');
    database = await createTestDatabase('commands');
    bus = new CommandBus(
      { clientId: 'it-bus', brokers: testBrokers(), names: stack.names, group: 'bus', timeoutMs: 15_000 },
      pino({ level: 'silent' }),
      new Metrics('it-bus'),
    );
    await bus.connect();
  });

  afterAll(async () => {
    await bus?.close();
    await service?.close();
    await database?.drop();
    await stack?.close();
  });

  it('answers api_error when the service is down, and the retry succeeds once it is back', async () => {
    const commandId = `cmd-${randomUUID()}`;
    const note = `down-${commandId}`;
    const failure = await send(commandId, { note }, 1500).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ApiError);
    expect((failure as ApiError).status).toBe(500);
    expect((failure as ApiError).body).toMatchObject({ type: 'api_error', code: 'api_error' });

    await startService();
    const reply = await send(commandId, { note });
    expect(reply.note).toBe(note);
    // The command sent while the service was down and the retry are one command: one effect.
    expect(await effectsWithNote(note)).toBe(1);
  });

  const effectsWithNote = async (note: string) => {
    const [row] = await service!.get(DataSource).query('SELECT count(*)::int AS n FROM test_effects WHERE note = $1', [note]);
    return row.n as number;
  };

  it('applies a repeated command_id once and answers every repeat with the stored reply', async () => {
    await startService();
    const commandId = `cmd-${randomUUID()}`;
    const note = `once-${commandId}`;
    const first = await send(commandId, { note });
    const repeats = await Promise.all(Array.from({ length: 10 }, () => send(commandId, { note })));
    expect(repeats).toEqual(Array(10).fill(first));
    expect(await effectsWithNote(note)).toBe(1);
    // The after-commit hook ran once, for the one application, and saw the committed row (hooks are started
    // after the commit, not awaited by the reply: wait for it to have run).
    await waitFor(() => hooksRun.has(note), { what: "the command's after-commit hook" });
    expect(hooksRun.get(note)).toBe(1);
  });

  it('refuses a payload that breaks its declared class before any database work, naming the field', async () => {
    await startService();
    const commandId = `cmd-${randomUUID()}`;
    const refusal = await send(commandId, { note: 42, extra: true }).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(ApiError);
    expect((refusal as ApiError).status).toBe(400);
    expect((refusal as ApiError).body.message).toContain('note:');
    expect((refusal as ApiError).body.message).toContain('extra: is not an accepted field');
    // Nothing was stored for it: the corrected retry with the same command id is applied.
    const note = `corrected-${commandId}`;
    expect((await send(commandId, { note })).note).toBe(note);
  });

  it('runs a staged command once: a repeat neither calls out again nor records again', async () => {
    await startService();
    const commandId = `cmd-${randomUUID()}`;
    const note = `staged-${commandId}`;
    const options = { actor: null, commandId, timeoutMs: 15_000 };
    const first = await bus.execute(TestCommands.staged, { note }, options);
    const repeat = await bus.execute(TestCommands.staged, { note }, options);
    expect(repeat).toEqual(first);
    expect(await effectsWithNote(note)).toBe(1);
    expect(await effectsWithNote(`${note}-prepared`)).toBe(1);
  });

  it("defers the outbox relay's wake-up of a staged command's first transaction to its final commit", async () => {
    await startService();
    // The process's own wake-up for the first transaction far off: only the final commit's can be heard.
    configureDeferredWakes({ afterMs: 600_000 });
    const listener = await NotificationListener.start(database.url, OUTBOX_CHANNEL);
    try {
      const commandId = `cmd-${randomUUID()}`;
      const note = `wake-${commandId}`;
      await bus.execute(TestCommands.staged, { note }, { actor: null, commandId, timeoutMs: 15_000 });
      // One wake-up for both transactions, sent by the final commit (which cancelled the deferred one's).
      expect(await listener.heardBeforeBarrier()).toEqual(['']);
      const events = await service!
        .get(DataSource)
        .query(`SELECT payload::jsonb->>'event_name' AS name FROM outbox WHERE message_key = $1 ORDER BY id`, [note]);
      expect(events.map((row: { name: string }) => row.name)).toEqual(['test.staged_prepared', 'test.staged_completed']);
    } finally {
      configureDeferredWakes({ afterMs: OUTBOX_DEFERRED_WAKE_MS });
      await listener.end();
    }
  });

  it('applies concurrent first deliveries of one command_id once', async () => {
    await startService();
    const commandId = `cmd-${randomUUID()}`;
    const note = `race-${commandId}`;
    const replies = await Promise.all(Array.from({ length: 8 }, () => send(commandId, { note })));
    expect(new Set(replies.map((reply) => reply.id)).size).toBe(1);
    expect(await effectsWithNote(note)).toBe(1);
  });

  it('stores a refusal so a repeat is refused the same way without running again', async () => {
    await startService();
    const commandId = `cmd-${randomUUID()}`;
    const refusal = await send(commandId, { note: 'no', refuse: true }).catch((error: unknown) => error);
    expect((refusal as ApiError).body).toMatchObject({ code: 'refused_for_test' });
    const note = `would-succeed-${commandId}`;
    const repeat = await send(commandId, { note }).catch((error: unknown) => error);
    expect((repeat as ApiError).body).toMatchObject({ code: 'refused_for_test' });
    expect(await effectsWithNote(note)).toBe(0);
  });

  it("maps a domain error with the service's error mapper and stores the refusal like any other", async () => {
    await startService();
    const commandId = `cmd-${randomUUID()}`;
    const refusal = await send(commandId, { note: 'domain', domainRefusal: true }).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(ApiError);
    expect((refusal as ApiError).body).toMatchObject({ code: 'mapped_domain_error', message: 'cannot do that: status is DONE' });
    const repeat = await send(commandId, { note: 'domain' }).catch((error: unknown) => error);
    expect((repeat as ApiError).body).toMatchObject({ code: 'mapped_domain_error' });
  });

  it('carries the sender correlation id into the handler through the Kafka headers', async () => {
    await startService();
    const reply = await bus.execute(TestCommands.whoami, {}, { actor: null, correlationId: 'corr-it-42' });
    expect(reply.correlation_id).toBe('corr-it-42');
  });

  it("handles an aggregate's commands one at a time in the order of its partition, among others handled beside them", async () => {
    await startService();
    const run = randomUUID().slice(0, 8);
    const aggregate = `aggregate-${run}`;
    const ownNotes = Array.from({ length: 12 }, (_, index) => `${aggregate}#${index}`);
    const others = Array.from({ length: 24 }, (_, index) => `other-${run}-${index}#0`);
    const sent = [...ownNotes.map((note) => ({ note, key: aggregate })), ...others.map((note) => ({ note, key: undefined }))];
    await Promise.all(
      sent.map(({ note, key }) =>
        bus.execute(TestCommands.create, { note }, { actor: null, commandId: `cmd-${randomUUID()}`, key }),
      ),
    );

    // The partition's order of the aggregate's commands, read back from the command topic.
    const inPartition: string[] = [];
    const reader = createKafka('order-reader', testBrokers(), pino({ level: 'silent' })).consumer({ groupId: `order-reader-${run}` });
    await reader.connect();
    await reader.subscribe({ topic: stack.names.commandTopic('payouts'), fromBeginning: true });
    await reader.run({
      eachMessage: async ({ message }) => {
        if (message.key?.toString() !== aggregate) return;
        inPartition.push(JSON.parse(message.value!.toString()).payload.note);
      },
    });
    await waitFor(() => inPartition.length === ownNotes.length, { what: "the aggregate's commands read back" });
    await reader.disconnect();

    expect(handling.started.filter((note) => note.startsWith(`${aggregate}#`))).toEqual(inPartition);
    expect(handling.overlapped.has(aggregate)).toBe(false);
    expect(handling.started).toEqual(expect.arrayContaining(others));
  });

  it('answers an unknown command type with operation_not_available instead of hanging', async () => {
    await startService();
    const failure = await bus
      .request('payouts', 'payouts.no_such_command', {}, { actor: null, timeoutMs: 15_000 })
      .then((reply) => (reply.ok ? reply : ApiError.from(reply.error as never)))
      .catch((error: unknown) => error);
    expect((failure as ApiError).body).toMatchObject({ type: 'api_error', code: 'operation_not_available' });
  });
});

describe('two stacks on one broker', () => {
  const harnesses: ServiceHarness<ReturnType<typeof commonConfig>>[] = [];
  const startPayouts = async () => {
    const harness = await ServiceHarness.start({
      app: 'payouts',
      configSchema: commonConfig('payouts'),
      module: (config) => TestServiceModule.register(config),
    });
    harnesses.push(harness);
    return harness;
  };
  const notesOf = async (harness: ServiceHarness<ReturnType<typeof commonConfig>>) =>
    (await harness.dataSource.query('SELECT note FROM test_effects ORDER BY id')).map((row: { note: string }) => row.note);

  afterAll(async () => {
    for (const harness of harnesses) await harness.close();
  });

  it("never answer each other's commands: each command is applied by its own stack's service only", async () => {
    const first = await startPayouts();
    const second = await startPayouts();
    expect(first.stack.prefix).not.toBe(second.stack.prefix);
    const key = `key-${randomUUID()}`;
    const create = async (harness: ServiceHarness<ReturnType<typeof commonConfig>>, note: string) =>
      (await harness.commands()).bus.execute(TestCommands.create, { note }, { actor: null, commandId: `cmd-${randomUUID()}`, key });

    expect((await create(first, 'first-stack')).note).toBe('first-stack');
    // Same key, sent after the first reply: were the two stacks on one topic, the second service would
    // have to apply the first command (same partition, earlier offset) before answering this one.
    expect((await create(second, 'second-stack')).note).toBe('second-stack');
    expect(await notesOf(first)).toEqual(['first-stack']);
    expect(await notesOf(second)).toEqual(['second-stack']);
  });
});
