import { randomUUID } from 'node:crypto';
import { AddressInfo } from 'node:net';
import {
  Body,
  CanActivate,
  Controller,
  DynamicModule,
  Headers,
  Inject,
  Injectable,
  Module,
  Post,
  UseGuards,
} from '@nestjs/common';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { IsString } from 'class-validator';
import { Consumer, IHeaders } from 'kafkajs';
import pino from 'pino';
import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { InMemorySpanExporter, ReadableSpan, SimpleSpanProcessor } from '@opentelemetry/sdk-trace';
import { defineCommand, EventTopics, returns } from '@paygrid/contracts';
import { createTestDatabase, TestDatabase, testBrokers, TestStack, waitFor } from '@paygrid/testing';
import { commonConfig } from '../config/common-config';
import { loadConfig } from '../config/config';
import { PlatformModule } from '../nest/platform.module';
import { createHttpApp } from '../bootstrap/start-app';
import { Metrics } from '../metrics/metrics';
import { CommandBus } from '../kafka/command-bus';
import { HandleCommand } from '../commands/handle-command.decorator';
import { WriteContext } from '../commands/command-context';
import { commandControllerFor } from '../kafka/command-controller';
import { createKafka } from '../kafka/kafka-factory';
import { headerText } from '../kafka/kafka-factory';
import { appendToOutbox } from '../outbox/outbox-writer';
import { installTracingForTests, uninstallTracing } from './tracer';

/**
 * One trace across the real stack pieces: an HTTP request to a booted app (through a Nest guard that
 * awaits, as the gateway's authentication does) sends a command with the real CommandBus over the real
 * broker to the same app's command consumer (payouts commands, on a test stack of its own: TestStack),
 * whose handler writes an event to the outbox in the real Postgres; the relay publishes it to Kafka.
 * Spans are recorded in-process by an in-memory exporter. The service's span, its database work, the
 * outbox publication and the published event's headers must all carry the HTTP request's trace id,
 * each span a child of the one before; database work outside any trace (the relay's polling) must
 * trace nothing.
 */
class TracedPayload {
  @IsString()
  source_id!: string;
}

const TRACED = defineCommand('payouts.test_traced', {
  payload: TracedPayload,
  result: returns<{ event_id: string }>(),
  mutates: true,
  needsActor: false,
});
const BUS = Symbol('TEST_BUS');

@Injectable()
class TracedHandlers {
  @HandleCommand(TRACED)
  async record(payload: TracedPayload, { tx }: WriteContext) {
    const event = await appendToOutbox(tx.manager, {
      topic: EventTopics.payouts,
      event_name: 'test.traced',
      event_type: 'OPERATIONS',
      source_id: payload.source_id,
      account_id: 'acct-traced',
      master_account_id: 'acct-traced',
      data: {},
    });
    return { event_id: event.event_id };
  }
}

@Injectable()
class AwaitingGuard implements CanActivate {
  async canActivate(): Promise<boolean> {
    await new Promise((resolve) => setImmediate(resolve));
    return true;
  }
}

@Controller('it')
class SendingController {
  constructor(@Inject(BUS) private readonly bus: CommandBus) {}

  @Post('traced')
  @UseGuards(AwaitingGuard)
  send(@Body() body: TracedPayload, @Headers('x-request-id') correlationId: string) {
    return this.bus.execute(TRACED, body, { actor: null, commandId: `cmd-${body.source_id}`, correlationId });
  }
}

@Module({})
class TracedServiceModule {
  static register(
    config: Parameters<typeof PlatformModule.forRoot>[0]['config'],
    bus: CommandBus,
  ): DynamicModule {
    return {
      module: TracedServiceModule,
      imports: [PlatformModule.forRoot({ app: 'payouts', config, database: {}, commands: true })],
      controllers: [commandControllerFor('payouts', config), SendingController],
      providers: [TracedHandlers, AwaitingGuard, { provide: BUS, useValue: bus }],
    };
  }
}

describe('one trace from an HTTP request through Kafka, the service, Postgres and the outbox', () => {
  const exporter = new InMemorySpanExporter();
  const logger = pino({ level: 'silent' });
  let stack: TestStack;
  let database: TestDatabase;
  let app: NestFastifyApplication;
  let bus: CommandBus;
  let consumer: Consumer;
  const sourceId = `po_${randomUUID()}`;
  const published: IHeaders[] = [];

  beforeAll(async () => {
    installTracingForTests('payouts', [new SimpleSpanProcessor({ exporter })]);
    stack = await TestStack.create('tracing');
    database = await createTestDatabase('tracing');
    const config = loadConfig(commonConfig('payouts'), {
      ...stack.appEnv(database.url),
      LOG_LEVEL: 'silent',
    });
    bus = new CommandBus(
      {
        clientId: 'it-trace-bus',
        brokers: testBrokers(),
        names: stack.names,
        group: 'bus',
        timeoutMs: 15_000,
      },
      logger,
      new Metrics('it-trace-bus'),
    );
    await bus.connect();
    app = await createHttpApp({
      app: 'payouts',
      module: TracedServiceModule.register(config, bus),
      config: { ...config, PORT: 0, HOST: '127.0.0.1' },
      consumesCommands: true,
    });
    await app.init();
    await app.startAllMicroservices();
    await app.listen(0, '127.0.0.1');

    // The stack's own topic, read from its beginning: only this test's events are on it.
    consumer = createKafka('it-trace-events', testBrokers(), logger).consumer({
      groupId: stack.names.group('events'),
      maxWaitTimeInMs: 100,
    });
    await consumer.connect();
    await consumer.subscribe({ topic: stack.names.eventTopic('payouts'), fromBeginning: true });
    await consumer.run({
      eachMessage: async ({ message }) => {
        const event = JSON.parse(message.value?.toString() ?? '{}');
        if (event.source_id === sourceId) published.push(message.headers ?? {});
      },
    });
  });

  afterAll(async () => {
    await consumer?.disconnect();
    await app?.close();
    await bus?.close();
    await database?.drop();
    await stack?.close();
    await uninstallTracing();
  });

  it('shares the request trace id from the HTTP span to the published event headers', async () => {
    const correlationId = `it-${randomUUID().slice(0, 8)}`;
    const { port } = app.getHttpServer().address() as AddressInfo;
    const response = await fetch(`http://127.0.0.1:${port}/it/traced`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-request-id': correlationId },
      body: JSON.stringify({ source_id: sourceId }),
    });
    expect(response.status).toBe(201);
    const { event_id: eventId } = (await response.json()) as { event_id: string };

    const headers = await waitFor(() => published[0], { what: 'the published event' });
    const request = only(exporter.getFinishedSpans(), 'POST /it/traced');
    const traceId = request.spanContext().traceId;
    // The service's new consumer group also replays older commands on its topic: only this trace counts.
    const spans = await waitFor(
      () => {
        const inTrace = exporter.getFinishedSpans().filter((span) => span.spanContext().traceId === traceId);
        return inTrace.some((span) => span.name.startsWith('publish')) && inTrace;
      },
      { what: 'the publish span' },
    );
    expect(request.kind).toBe(SpanKind.SERVER);
    expect(request.parentSpanContext).toBeUndefined();
    expect(request.attributes['paygrid.correlation_id']).toBe(correlationId);

    const send = only(spans, `send ${TRACED.type}`);
    expect(send.parentSpanContext?.spanId).toBe(request.spanContext().spanId);
    const processed = only(spans, `process ${TRACED.type}`);
    expect(processed.spanContext().traceId).toBe(traceId);
    expect(processed.parentSpanContext?.spanId).toBe(send.spanContext().spanId);
    expect(processed.attributes).toMatchObject({
      'paygrid.command.id': `cmd-${sourceId}`,
      'paygrid.command.outcome': 'ok',
    });

    const transaction = only(spans, 'transaction');
    expect(transaction.parentSpanContext?.spanId).toBe(processed.spanContext().spanId);
    expect(transaction.attributes['db.namespace']).toBe(database.name);
    expect(transaction.attributes['paygrid.db.transaction.end']).toBe('COMMIT');
    const statements = spans.filter(
      (span) => span.parentSpanContext?.spanId === transaction.spanContext().spanId,
    );
    // The command's events and its ledger row are one statement (outbox-writer.ts, flushOutboxWith).
    const ledger = statements.find((span) =>
      String(span.attributes['db.query.text']).includes('INSERT INTO processed_commands'),
    );
    expect(ledger?.name).toBe('WITH outbox');
    expect(ledger?.attributes['db.query.text']).toContain('INSERT INTO outbox');
    expect(transaction.attributes['paygrid.db.statements']).toBe(statements.length);
    expect(statements.every((span) => span.status.code !== SpanStatusCode.ERROR)).toBe(true);

    const publish = only(spans, `publish ${stack.names.eventTopic('payouts')}`);
    expect(publish.spanContext().traceId).toBe(traceId);
    expect(publish.parentSpanContext?.spanId).toBe(processed.spanContext().spanId);
    expect(publish.attributes['messaging.message.id']).toBe(eventId);

    expect(headerText(headers, 'traceparent')).toBe(`00-${traceId}-${publish.spanContext().spanId}-01`);
    expect(headerText(headers, 'x-request-id')).toBe(correlationId);
    expect(headerText(headers, 'event-id')).toBe(eventId);

    // Database work outside a trace (migrations at boot, the relay's polling) is not traced: no database
    // span opens a trace of its own.
    const databaseSpans = exporter
      .getFinishedSpans()
      .filter((span) => span.attributes['db.system.name'] === 'postgresql');
    expect(databaseSpans.length).toBeGreaterThan(statements.length);
    expect(
      databaseSpans.filter((span) => span.parentSpanContext === undefined).map((span) => span.name),
    ).toEqual([]);
  });

  function only(spans: ReadableSpan[], name: string): ReadableSpan {
    const matching = spans.filter((span) => span.name === name);
    if (matching.length !== 1)
      throw new Error(`expected one span ${name}, got ${spans.map((span) => span.name).join(', ')}`);
    return matching[0];
  }
});
