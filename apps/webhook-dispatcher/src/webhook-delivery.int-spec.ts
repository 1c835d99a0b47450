import { randomUUID } from 'node:crypto';
import {
  CreatedWebhookEndpointView,
  DomainEvent,
  RotatedWebhookSecretView,
  WebhookAttemptView,
  WebhookBody,
  WebhookCommand,
  WebhookDeliveryDetailView,
  WebhookDeliveryView,
  WebhookEndpointView,
  WebhookPage,
} from '@paygrid/contracts';
import {
  actorOf,
  aDomainEvent,
  deleteRedisKeys,
  EventWriter,
  ReceivedWebhook,
  refusalOf,
  resultOf,
  testBrokers,
  waitFor,
  watchPgRoundTrips,
  WebhookReceiver,
} from '@paygrid/testing';
import { ASYNCHRONOUS_COMMIT, GENERIC_PLANS, TracedPgClient } from '@paygrid/platform';
import { connectCliBus, runCli } from '@paygrid/cli';
import { DispatcherService, startDispatcher } from './test/dispatcher-service';
import { sdkVerifies, standardWebhooksVerifies } from './test/verifiers';
import { DeliveryQueue } from './modules/sending/delivery-queue';
import { EventIntakeService, INTAKE_CONSUMER } from './modules/events/event-intake.service';
import { EventRepository } from './modules/events/event.repository';
import { DeliveryRepository } from './modules/deliveries/delivery.repository';

/**
 * The dispatcher end to end against the real Postgres, Redis and Kafka (commands and events on this
 * file's own stack of topics, see ServiceHarness), with an in-process receiver whose answers each test
 * sets: signing as both verifiers check it, the (test-speed) retry schedule, 410, Retry-After, the
 * five-day disable, intake batches redelivered after a crash, a failing endpoint's row left alone, fan-out
 * filters, visibility between accounts, rotation, retry, replay from the CLI,
 * the reconciler after our Redis keys vanish, and the on-call surfaces.
 * Schedule: attempt 1 immediately, then 100, 200, 400 ms (±20 %); Retry-After capped at 3 s.
 */
let dispatcher: DispatcherService;
let publisher: EventWriter;
let receiver: WebhookReceiver;

beforeAll(async () => {
  dispatcher = await startDispatcher();
  publisher = await dispatcher.stack.eventWriter();
  receiver = await WebhookReceiver.start();
}, 180_000);

afterAll(async () => {
  await receiver?.close();
  await dispatcher?.close();
});

const nowSeconds = () => Math.floor(Date.now() / 1000);
let pathCounter = 0;
const freshPath = () => `/hooks/${++pathCounter}-${randomUUID().slice(0, 8)}`;

async function createEndpoint(
  accountId: string,
  body: Record<string, unknown>,
  masterId = accountId,
): Promise<CreatedWebhookEndpointView> {
  return resultOf(
    await dispatcher.mutate<CreatedWebhookEndpointView>(WebhookCommand.createEndpoint.type, body, {
      actor: actorOf(accountId, masterId),
    }),
  );
}

/** An account with one endpoint on a fresh receiver path. */
async function accountWithEndpoint(extra: Record<string, unknown> = {}) {
  const accountId = randomUUID();
  const path = freshPath();
  const endpoint = await createEndpoint(accountId, { url: receiver.url(path), ...extra });
  return { accountId, path, endpoint };
}

interface DeliveryRow {
  delivery_id: string;
  event_id: string;
  status: string;
  attempt_count: number;
  next_attempt_at: Date | null;
  last_attempt_at: Date | null;
}
interface AttemptRow {
  attempt_number: number;
  attempted_at: Date;
  status_code: number | null;
  trigger: string;
  succeeded: boolean;
}

async function deliveriesOf(endpointId: string): Promise<DeliveryRow[]> {
  return dispatcher.dataSource.query(
    'SELECT * FROM webhook_deliveries WHERE endpoint_id = $1 ORDER BY created_at',
    [endpointId],
  );
}

async function attemptsOf(deliveryId: string): Promise<AttemptRow[]> {
  return dispatcher.dataSource.query(
    'SELECT * FROM webhook_attempts WHERE delivery_id = $1 ORDER BY attempt_number',
    [deliveryId],
  );
}

async function settledDelivery(endpointId: string, status: string, timeoutMs = 20_000): Promise<DeliveryRow> {
  return waitFor(
    async () => {
      const [delivery] = await deliveriesOf(endpointId);
      return delivery?.status === status ? delivery : undefined;
    },
    { timeoutMs, what: `a ${status} delivery to ${endpointId}` },
  );
}

async function stored(eventId: string): Promise<void> {
  await waitFor(
    async () =>
      (await dispatcher.dataSource.query('SELECT 1 FROM webhook_events WHERE event_id = $1', [eventId]))
        .length === 1,
    { timeoutMs: 30_000, what: `event ${eventId} to be stored` },
  );
}

async function publishAndReceive(event: DomainEvent, path: string, count = 1): Promise<ReceivedWebhook[]> {
  await publisher.publish([event]);
  return waitFor(() => (receiver.received(path).length >= count ? receiver.received(path) : undefined), {
    timeoutMs: 30_000,
    what: `${count} request(s) on ${path}`,
  });
}

async function endpointStatus(
  endpointId: string,
): Promise<{ status: string; disabled_reason: string | null }> {
  const [row] = await dispatcher.dataSource.query(
    'SELECT status, disabled_reason FROM webhook_endpoints WHERE endpoint_id = $1',
    [endpointId],
  );
  return row;
}

async function endpointView(accountId: string, endpointId: string): Promise<WebhookEndpointView> {
  return resultOf(
    await dispatcher.send<WebhookEndpointView>(
      WebhookCommand.retrieveEndpoint.type,
      { endpoint_id: endpointId },
      { actor: actorOf(accountId) },
    ),
  );
}

async function disabledEvents(
  endpointId: string,
): Promise<{ event_name: string; event_type: string; data: Record<string, unknown> }[]> {
  const rows: { payload: string }[] = await dispatcher.dataSource.query(
    'SELECT payload FROM outbox WHERE message_key = $1',
    [endpointId],
  );
  return rows.map((row) => JSON.parse(row.payload));
}

describe('signing', () => {
  it('sends the decisions §8 body, which both the SDK rule and a Standard Webhooks verifier accept', async () => {
    const { accountId, path, endpoint } = await accountWithEndpoint();
    const event = aDomainEvent({ account_id: accountId });
    const [request] = await publishAndReceive(event, path);

    expect(request.headers['content-type']).toBe('application/json');
    expect(request.headers['webhook-id']).toBe(event.event_id);
    expect(request.headers['x-wk-timestamp']).toBe(request.headers['webhook-timestamp']);
    expect(request.headers['x-wk-signature']).toMatch(/^[0-9a-f]{128}$/);
    expect(sdkVerifies(request.rawBody, request.headers, endpoint.secret, nowSeconds())).toBe(true);
    // Signed with the secret the create reply showed, which the database holds only sealed.
    const [stored] = await dispatcher.dataSource.query(
      'SELECT sealed_secret FROM webhook_endpoint_secrets WHERE endpoint_id = $1',
      [endpoint.endpoint_id],
    );
    expect(stored.sealed_secret).toMatch(/^v2\.k1\./);
    expect(stored.sealed_secret).not.toContain(endpoint.secret.slice('whsec_'.length));
    expect(standardWebhooksVerifies(request.rawBody, request.headers, endpoint.secret, nowSeconds())).toBe(
      true,
    );

    const body = JSON.parse(request.rawBody) as WebhookBody;
    expect(Object.keys(body)).toEqual([
      'version',
      'event_type',
      'event_name',
      'event_id',
      'source_id',
      'account_id',
      'create_time',
      'data',
    ]);
    expect(body).toEqual({
      version: event.version,
      event_type: 'ACQUIRING',
      event_name: event.event_name,
      event_id: event.event_id,
      source_id: event.source_id,
      account_id: accountId,
      create_time: event.create_time,
      data: event.data,
    });
    const delivery = await settledDelivery(endpoint.endpoint_id, 'succeeded');
    expect(await attemptsOf(delivery.delivery_id)).toMatchObject([
      { attempt_number: 1, status_code: 200, succeeded: true },
    ]);
  });

  it('fails both verifiers for a changed byte, a stale timestamp or another secret', async () => {
    const { accountId, path, endpoint } = await accountWithEndpoint();
    const [request] = await publishAndReceive(aDomainEvent({ account_id: accountId }), path);
    const tampered = request.rawBody.replace('10.00', '10.01');
    expect(tampered).not.toBe(request.rawBody);
    const stale = nowSeconds() + 301;
    const other = (await accountWithEndpoint()).endpoint.secret;
    for (const verify of [sdkVerifies, standardWebhooksVerifies]) {
      expect(verify(tampered, request.headers, endpoint.secret, nowSeconds())).toBe(false);
      expect(verify(request.rawBody, request.headers, endpoint.secret, stale)).toBe(false);
      expect(verify(request.rawBody, request.headers, other, nowSeconds())).toBe(false);
      expect(verify(request.rawBody, request.headers, endpoint.secret, nowSeconds())).toBe(true);
    }
  });

  it('signs with both secrets during a rotation overlap, and the SDK header with the old one', async () => {
    const { accountId, path, endpoint } = await accountWithEndpoint();
    const rotated = resultOf(
      await dispatcher.mutate<RotatedWebhookSecretView>(
        WebhookCommand.rotateSecret.type,
        { endpoint_id: endpoint.endpoint_id },
        { actor: actorOf(accountId) },
      ),
    );
    expect(rotated.secret).toMatch(/^whsec_/);
    expect(rotated.secret).not.toBe(endpoint.secret);
    expect(Date.parse(rotated.previous_secret_expire_time) - Date.now()).toBeGreaterThan(23 * 3600 * 1000);

    const [request] = await publishAndReceive(aDomainEvent({ account_id: accountId }), path);
    expect(String(request.headers['webhook-signature']).split(' ')).toHaveLength(2);
    expect(standardWebhooksVerifies(request.rawBody, request.headers, endpoint.secret, nowSeconds())).toBe(
      true,
    );
    expect(standardWebhooksVerifies(request.rawBody, request.headers, rotated.secret, nowSeconds())).toBe(
      true,
    );
    // A receiver on the official SDK still holds the old secret: it keeps verifying until the overlap ends.
    expect(sdkVerifies(request.rawBody, request.headers, endpoint.secret, nowSeconds())).toBe(true);
    expect(sdkVerifies(request.rawBody, request.headers, rotated.secret, nowSeconds())).toBe(false);
  });

  it('stops signing with the old secret when the rotation asks for no overlap', async () => {
    const { accountId, path, endpoint } = await accountWithEndpoint();
    const rotated = resultOf(
      await dispatcher.mutate<RotatedWebhookSecretView>(
        WebhookCommand.rotateSecret.type,
        { endpoint_id: endpoint.endpoint_id, overlap_seconds: 0 },
        { actor: actorOf(accountId) },
      ),
    );
    const [request] = await publishAndReceive(aDomainEvent({ account_id: accountId }), path);
    expect(String(request.headers['webhook-signature']).split(' ')).toHaveLength(1);
    expect(standardWebhooksVerifies(request.rawBody, request.headers, rotated.secret, nowSeconds())).toBe(
      true,
    );
    expect(standardWebhooksVerifies(request.rawBody, request.headers, endpoint.secret, nowSeconds())).toBe(
      false,
    );
    // With the overlap over, the SDK header moves to the new secret.
    expect(sdkVerifies(request.rawBody, request.headers, rotated.secret, nowSeconds())).toBe(true);
    expect(sdkVerifies(request.rawBody, request.headers, endpoint.secret, nowSeconds())).toBe(false);
  });
});

describe('retries', () => {
  it('follows the schedule and stops at the first success', async () => {
    const { accountId, path, endpoint } = await accountWithEndpoint();
    receiver.respond(path, () =>
      receiver.received(path).length <= 2 ? { status: 500, body: 'boom' } : { status: 200 },
    );
    const requests = await publishAndReceive(aDomainEvent({ account_id: accountId }), path, 3);
    const delivery = await settledDelivery(endpoint.endpoint_id, 'succeeded');

    const attempts = await attemptsOf(delivery.delivery_id);
    expect(
      attempts.map((attempt) => [attempt.attempt_number, attempt.status_code, attempt.succeeded]),
    ).toEqual([
      [1, 500, false],
      [2, 500, false],
      [3, 200, true],
    ]);
    // Each retry waited at least its scheduled delay less the 20 % jitter.
    expect(attempts[1].attempted_at.getTime() - attempts[0].attempted_at.getTime()).toBeGreaterThanOrEqual(
      80,
    );
    expect(attempts[2].attempted_at.getTime() - attempts[1].attempted_at.getTime()).toBeGreaterThanOrEqual(
      160,
    );
    expect(delivery).toMatchObject({ attempt_count: 3, next_attempt_at: null });
    expect(new Set(requests.map((request) => request.rawBody)).size).toBe(1);
    const job = await dispatcher.app.get(DeliveryQueue).queue.getJob(`${delivery.delivery_id}-4`);
    expect(job).toBeUndefined();
  });

  it('gives up after the last scheduled attempt, having sent identical bytes every time', async () => {
    const { accountId, path, endpoint } = await accountWithEndpoint();
    receiver.respond(path, { status: 500 });
    const event = aDomainEvent({ account_id: accountId });
    await publisher.publish([event]);
    const delivery = await settledDelivery(endpoint.endpoint_id, 'failed');
    expect(delivery.attempt_count).toBe(4);
    const requests = receiver.received(path);
    expect(requests).toHaveLength(4);
    expect(new Set(requests.map((request) => request.rawBody)).size).toBe(1);
    expect(requests.every((request) => request.headers['webhook-id'] === event.event_id)).toBe(true);
    expect((await endpointStatus(endpoint.endpoint_id)).status).toBe('ENABLED');
  });

  it('waits as long as Retry-After asks on a 429', async () => {
    const { accountId, path, endpoint } = await accountWithEndpoint();
    receiver.respond(path, () =>
      receiver.received(path).length === 1
        ? { status: 429, headers: { 'retry-after': '2' } }
        : { status: 200 },
    );
    await publishAndReceive(aDomainEvent({ account_id: accountId }), path, 2);
    const delivery = await settledDelivery(endpoint.endpoint_id, 'succeeded');
    const [first, second] = await attemptsOf(delivery.delivery_id);
    expect(first.status_code).toBe(429);
    expect(second.attempted_at.getTime() - first.attempted_at.getTime()).toBeGreaterThanOrEqual(2000);
  });

  it('caps a Retry-After beyond the bound on a 503', async () => {
    const { accountId, path, endpoint } = await accountWithEndpoint();
    receiver.respond(path, { status: 503, headers: { 'retry-after': '86400' } });
    await publishAndReceive(aDomainEvent({ account_id: accountId }), path);
    const delivery = await waitFor(
      async () => {
        const [row] = await deliveriesOf(endpoint.endpoint_id);
        return row?.attempt_count === 1 ? row : undefined;
      },
      { what: 'the first attempt to be recorded' },
    );
    const waited = delivery.next_attempt_at!.getTime() - delivery.last_attempt_at!.getTime();
    expect(waited).toBeGreaterThanOrEqual(3000);
    expect(waited).toBeLessThan(60_000);
  });

  it('records a redirect as a failed attempt without following it', async () => {
    const { accountId, path, endpoint } = await accountWithEndpoint();
    const target = freshPath();
    receiver.respond(path, { status: 301, headers: { location: receiver.url(target) } });
    await publisher.publish([aDomainEvent({ account_id: accountId })]);
    const delivery = await settledDelivery(endpoint.endpoint_id, 'failed');
    expect((await attemptsOf(delivery.delivery_id)).map((attempt) => attempt.status_code)).toEqual([
      301, 301, 301, 301,
    ]);
    expect(receiver.received(target)).toHaveLength(0);
  });
});

describe('disabling endpoints', () => {
  it('disables the endpoint at 410, fails its delivery and says so with an operational event', async () => {
    const { accountId, path, endpoint } = await accountWithEndpoint();
    receiver.respond(path, { status: 410 });
    await publisher.publish([aDomainEvent({ account_id: accountId })]);
    const delivery = await settledDelivery(endpoint.endpoint_id, 'failed');
    expect(delivery.attempt_count).toBe(1);
    expect(await endpointStatus(endpoint.endpoint_id)).toEqual({
      status: 'DISABLED',
      disabled_reason: 'gone',
    });
    const [announcement] = await disabledEvents(endpoint.endpoint_id);
    expect(announcement).toMatchObject({
      event_name: 'webhook.endpoint.disabled',
      event_type: 'OPERATIONS',
      data: { endpoint_id: endpoint.endpoint_id, account_id: accountId, reason: 'gone' },
    });

    // A disabled endpoint receives nothing new.
    const later = aDomainEvent({ account_id: accountId });
    await publisher.publish([later]);
    await stored(later.event_id);
    expect(await deliveriesOf(endpoint.endpoint_id)).toHaveLength(1);
  });

  it('disables an endpoint that has failed for five days', async () => {
    const { accountId, path, endpoint } = await accountWithEndpoint();
    receiver.respond(path, { status: 500 });
    await dispatcher.dataSource.query(
      `UPDATE webhook_endpoints SET failing_since = now() - interval '5 days 1 minute' WHERE endpoint_id = $1`,
      [endpoint.endpoint_id],
    );
    await publisher.publish([aDomainEvent({ account_id: accountId })]);
    const delivery = await settledDelivery(endpoint.endpoint_id, 'failed');
    expect(delivery.attempt_count).toBe(1);
    expect(await endpointStatus(endpoint.endpoint_id)).toEqual({
      status: 'DISABLED',
      disabled_reason: 'failing',
    });
    expect((await disabledEvents(endpoint.endpoint_id)).map((event) => event.data.reason)).toEqual([
      'failing',
    ]);
  });

  it('forgets a failure streak after a success', async () => {
    const { accountId, path, endpoint } = await accountWithEndpoint();
    receiver.respond(path, () => (receiver.received(path).length === 1 ? { status: 500 } : { status: 200 }));
    await publishAndReceive(aDomainEvent({ account_id: accountId }), path, 2);
    await settledDelivery(endpoint.endpoint_id, 'succeeded');
    const view = await endpointView(accountId, endpoint.endpoint_id);
    expect(view).toMatchObject({ status: 'ENABLED', failing_since: null });
  });
});

describe('intake batches', () => {
  const count = async (sql: string, parameters: unknown[]) =>
    ((await dispatcher.dataSource.query(sql, parameters)) as { n: number }[])[0].n;
  const asIncoming = (event: DomainEvent) => ({
    event,
    topic: dispatcher.stack.names.eventTopic('acquiring'),
  });

  it('applies a batch redelivered after a crash once per event, its committed half included', async () => {
    const { accountId, path, endpoint } = await accountWithEndpoint();
    const events = Array.from({ length: 10 }, () => aDomainEvent({ account_id: accountId }));
    const intake = dispatcher.app.get(EventIntakeService);

    // The first half was committed by a consumer that died before committing its offset ...
    expect(await intake.storeAll(events.slice(0, 5).map(asIncoming))).toEqual(Array(5).fill('applied'));
    // ... so Kafka delivers the whole batch again, to the next consumer.
    await publisher.publish(events);
    const ids = events.map((event) => event.event_id);
    await waitFor(
      async () =>
        (await count(
          `SELECT count(*)::int AS n FROM webhook_deliveries WHERE endpoint_id = $1 AND status = 'succeeded'`,
          [endpoint.endpoint_id],
        )) === 10,
      { timeoutMs: 30_000, what: 'the ten deliveries to succeed' },
    );
    await Promise.all(ids.map(stored));

    expect(await deliveriesOf(endpoint.endpoint_id)).toHaveLength(10);
    expect(
      await count('SELECT count(*)::int AS n FROM inbox WHERE consumer = $1 AND event_id = ANY($2)', [
        INTAKE_CONSUMER,
        ids,
      ]),
    ).toBe(10);
    const received = receiver.received(path).map((request) => String(request.headers['webhook-id']));
    expect(received.sort()).toEqual([...ids].sort());
  });

  it('stores a chunk in two round trips: BEGIN with the claim and its endpoints, the deliveries with COMMIT', async () => {
    const { accountId, endpoint } = await accountWithEndpoint();
    const intake = dispatcher.app.get(EventIntakeService);
    const events = [aDomainEvent({ account_id: accountId }), aDomainEvent({ account_id: accountId })];
    const driverQuery = jest.spyOn(TracedPgClient.prototype, 'query');
    const wire = watchPgRoundTrips();
    let chunk: { statements: string[]; roundTrips: number } | undefined;
    try {
      expect(await intake.storeAll(events.map(asIncoming))).toEqual(['applied', 'applied']);
      // Other work of the dispatcher queries meanwhile: keep the transaction of the connection that claimed these events.
      const claimIndex = driverQuery.mock.calls.findIndex(
        (call) =>
          String(call[0]).startsWith('WITH claimed AS') &&
          Array.isArray(call[1]) &&
          JSON.stringify(call[1][1]) === JSON.stringify(events.map((event) => event.event_id)),
      );
      const claimClient = driverQuery.mock.contexts[claimIndex] as unknown as { connection: object };
      chunk = wire
        .transactions()
        .find(
          (transaction) =>
            transaction.connection === claimClient.connection &&
            transaction.statements.some((statement) => statement.startsWith('WITH claimed AS')),
        );
    } finally {
      wire.restore();
      driverQuery.mockRestore();
    }
    // The chunk's own transaction; the first attempts' records come after it, from the direct sends.
    expect(chunk?.statements).toEqual([
      'START TRANSACTION',
      expect.stringMatching(/^WITH claimed AS \(\s+INSERT INTO inbox[\s\S]*FROM webhook_endpoints p/),
      expect.stringMatching(/^\s*INSERT INTO webhook_deliveries/),
      'COMMIT',
    ]);
    expect(chunk?.roundTrips).toBe(2);
    expect(await deliveriesOf(endpoint.endpoint_id)).toHaveLength(2);
  });

  it('records a plain success in the group commit: one round trip, its COMMIT not waiting for the WAL flush', async () => {
    const { accountId, path, endpoint } = await accountWithEndpoint();
    const wire = watchPgRoundTrips();
    let recorded: { statements: string[]; roundTrips: number } | undefined;
    try {
      await publishAndReceive(aDomainEvent({ account_id: accountId }), path);
      await settledDelivery(endpoint.endpoint_id, 'succeeded');
      // Its attempt's record (any other attempt finishing meanwhile would be grouped into the same form).
      recorded = wire
        .transactions()
        .find(({ statements }) => statements.some((sql) => sql.startsWith('WITH outcome AS')));
    } finally {
      wire.restore();
    }
    expect(recorded?.statements).toEqual([
      `START TRANSACTION; ${GENERIC_PLANS}; ${ASYNCHRONOUS_COMMIT}`,
      expect.stringMatching(/^WITH outcome AS[\s\S]*INSERT INTO webhook_attempts/),
      'COMMIT',
    ]);
    expect(recorded?.roundTrips).toBe(1);
  });

  it('stores nothing of a chunk whose deliveries fail to insert, and lets it be taken again', async () => {
    const { accountId, endpoint } = await accountWithEndpoint();
    const intake = dispatcher.app.get(EventIntakeService);
    const deliveries = dispatcher.app.get(DeliveryRepository);
    const event = aDomainEvent({ account_id: accountId });
    // The insert written with COMMIT fails in Postgres (a text where a boolean belongs): COMMIT answers ROLLBACK.
    const broken = jest.spyOn(deliveries, 'insertManyStatement').mockImplementationOnce((pairs, leased) => {
      const { statement, read } = DeliveryRepository.prototype.insertManyStatement.call(deliveries, pairs, leased);
      return { statement: { ...statement, params: [...statement.params.slice(0, 7), ['not a boolean']] }, read };
    });
    try {
      await expect(intake.storeAll([asIncoming(event)])).rejects.toThrow(/boolean/);
    } finally {
      broken.mockRestore();
    }
    expect(await deliveriesOf(endpoint.endpoint_id)).toHaveLength(0);
    // Neither the inbox claim nor the event stayed: the chunk is taken as new when Kafka redelivers it.
    expect(await intake.storeAll([asIncoming(event)])).toEqual(['applied']);
    expect(await deliveriesOf(endpoint.endpoint_id)).toHaveLength(1);
  });

  it('takes an event repeated inside one batch once, and reports the copies as duplicates', async () => {
    const { accountId, endpoint } = await accountWithEndpoint();
    const [first, second] = [
      aDomainEvent({ account_id: accountId }),
      aDomainEvent({ account_id: accountId }),
    ];
    const intake = dispatcher.app.get(EventIntakeService);
    const batch = [first, first, second, first].map(asIncoming);

    expect(await intake.storeAll(batch)).toEqual(['applied', 'duplicate', 'applied', 'duplicate']);
    expect(await intake.storeAll(batch)).toEqual(['duplicate', 'duplicate', 'duplicate', 'duplicate']);
    expect(await deliveriesOf(endpoint.endpoint_id)).toHaveLength(2);
  });

  it("writes a failing endpoint's row once per failure streak, not once per failed attempt (no hot row)", async () => {
    const { accountId, path, endpoint } = await accountWithEndpoint();
    receiver.respond(path, { status: 500 });
    const rowVersion = async () =>
      (
        (await dispatcher.dataSource.query(
          'SELECT xmin::text AS version, failing_since FROM webhook_endpoints WHERE endpoint_id = $1',
          [endpoint.endpoint_id],
        )) as { version: string; failing_since: Date | null }[]
      )[0];

    await publisher.publish([aDomainEvent({ account_id: accountId })]);
    const streak = await waitFor(
      async () => {
        const row = await rowVersion();
        return row.failing_since ? row : undefined;
      },
      { timeoutMs: 30_000, what: 'the streak recorded' },
    );

    // Three more events, each failing through the whole (test-speed) schedule: 16 attempts in all.
    await publisher.publish([1, 2, 3].map(() => aDomainEvent({ account_id: accountId })));
    await waitFor(
      async () =>
        (await deliveriesOf(endpoint.endpoint_id)).filter((delivery) => delivery.status === 'failed')
          .length === 4,
      { timeoutMs: 30_000, what: 'the four deliveries to fail' },
    );
    expect(
      await count('SELECT count(*)::int AS n FROM webhook_attempts WHERE endpoint_id = $1', [
        endpoint.endpoint_id,
      ]),
    ).toBe(16);
    expect(await rowVersion()).toEqual(streak);
    // The three came while the endpoint failed: held, then tried one at a time as its next probe, each
    // starting once the one before had spent its schedule (the circuit stays open).
    const spans = await dispatcher.dataSource.query(
      `SELECT delivery_id, min(attempted_at) AS first, max(attempted_at) AS last FROM webhook_attempts
        WHERE endpoint_id = $1 GROUP BY delivery_id ORDER BY first`,
      [endpoint.endpoint_id],
    );
    for (let index = 1; index < spans.length; index += 1)
      expect(spans[index].first.getTime()).toBeGreaterThanOrEqual(spans[index - 1].last.getTime());
  });
});

describe('a failing endpoint', () => {
  /**
   * A delivery of the endpoint scheduled an hour from now, stored as the intake stores one (one transaction,
   * so no reconciler pass sees it due): while it waits, the endpoint has a probe ahead of its held deliveries
   * and nothing but a success may release them.
   */
  async function aProbeDueInAnHour(accountId: string, endpointId: string): Promise<string> {
    const event = aDomainEvent({ account_id: accountId });
    return dispatcher.dataSource.transaction(async (manager) => {
      await dispatcher.app
        .get(EventRepository)
        .claimAndInsert(manager, 'it-probe', [{ event, topic: 'it-probe', body: JSON.stringify(event) }]);
      const [probe] = await dispatcher.app
        .get(DeliveryRepository)
        .insertMany(manager, [
          { eventId: event.event_id, eventName: event.event_name, endpointId, accountId, held: false },
        ]);
      await manager.query(
        `UPDATE webhook_deliveries SET next_attempt_at = now() + interval '1 hour' WHERE delivery_id = $1`,
        [probe.delivery.deliveryId],
      );
      return probe.delivery.deliveryId;
    });
  }

  it('holds the deliveries that come while it fails, then sends each once it answers again', async () => {
    const { accountId, path, endpoint } = await accountWithEndpoint();
    receiver.respond(path, { status: 500 });
    await publishAndReceive(aDomainEvent({ account_id: accountId }), path);
    await waitFor(async () => (await endpointView(accountId, endpoint.endpoint_id)).failing_since !== null, {
      what: 'the failure streak to start',
    });
    const probeId = await aProbeDueInAnHour(accountId, endpoint.endpoint_id);

    const later = [aDomainEvent({ account_id: accountId }), aDomainEvent({ account_id: accountId })];
    await publisher.publish(later);
    for (const event of later) await stored(event.event_id);
    const laterIds = new Set(later.map((event) => event.event_id));
    const held = (await deliveriesOf(endpoint.endpoint_id)).filter((row) => laterIds.has(row.event_id));
    expect(held.map((row) => [row.status, row.attempt_count, row.next_attempt_at])).toEqual([
      ['pending', 0, null],
      ['pending', 0, null],
    ]);
    const listed = resultOf(
      await dispatcher.send<WebhookPage<WebhookDeliveryView>>(
        WebhookCommand.listDeliveries.type,
        { page_size: 10, page_number: 1, endpoint_id: endpoint.endpoint_id, delivery_status: 'PENDING' },
        { actor: actorOf(accountId) },
      ),
    );
    expect(
      listed.data
        .filter((view) => view.next_attempt_time === null)
        .map((view) => view.delivery_id)
        .sort(),
    ).toEqual(held.map((row) => row.delivery_id).sort());
    const inspect = await cliAgainst(dispatcher).run(['webhooks', 'inspect', held[0].delivery_id]);
    expect(inspect.out.join('\n')).toContain('held: sent when its failing endpoint answers again');

    // The endpoint answers again; its probe's success releases what was held.
    receiver.respond(path, { status: 200 });
    await dispatcher.dataSource.query(
      'UPDATE webhook_deliveries SET next_attempt_at = now() WHERE delivery_id = $1',
      [probeId],
    );
    await waitFor(
      async () =>
        (await deliveriesOf(endpoint.endpoint_id))
          .filter((row) => row.delivery_id === probeId || laterIds.has(row.event_id))
          .every((row) => row.status === 'succeeded'),
      { what: 'the probe and the held deliveries to succeed once the endpoint answers' },
    );
    for (const row of held) expect(await attemptsOf(row.delivery_id)).toHaveLength(1);
    expect((await endpointView(accountId, endpoint.endpoint_id)).failing_since).toBeNull();
  });
});

describe('fan-out', () => {
  it('delivers by event-name filter, and to a master only where its endpoint opted in to sub-accounts', async () => {
    const master = randomUUID();
    const sub = randomUUID();
    const optedIn = await createEndpoint(master, {
      url: receiver.url(freshPath()),
      event_names: ['acquiring.payment_intent.*'],
      include_sub_accounts: true,
    });
    const masterOnly = await createEndpoint(master, { url: receiver.url(freshPath()) });
    const subPayouts = await createEndpoint(
      sub,
      { url: receiver.url(freshPath()), event_names: ['payout.completed'] },
      master,
    );

    const subIntent = aDomainEvent({
      account_id: sub,
      master_account_id: master,
      event_name: 'acquiring.payment_intent.succeeded',
    });
    const subPayout = aDomainEvent({
      account_id: sub,
      master_account_id: master,
      event_name: 'payout.completed',
      event_type: 'PAYOUT',
    });
    const masterIntent = aDomainEvent({ account_id: master, event_name: 'acquiring.payment_intent.created' });
    const masterPayout = aDomainEvent({
      account_id: master,
      event_name: 'payout.completed',
      event_type: 'PAYOUT',
    });
    const subAttempt = aDomainEvent({
      account_id: sub,
      master_account_id: master,
      event_name: 'acquiring.payment_attempt.created',
    });
    const internal = aDomainEvent({
      account_id: sub,
      master_account_id: master,
      event_name: 'account.credential.created',
      event_type: 'OPERATIONS',
    });
    await publisher.publish([subIntent, subPayout, masterIntent, subAttempt]);
    await publisher.publish([masterPayout], 'payouts');
    await publisher.publish([internal], 'accounts');
    for (const event of [subIntent, subPayout, masterIntent, masterPayout, subAttempt, internal])
      await stored(event.event_id);

    const eventsOf = async (endpointId: string) =>
      (
        await dispatcher.dataSource.query('SELECT event_id FROM webhook_deliveries WHERE endpoint_id = $1', [
          endpointId,
        ])
      )
        .map((row: { event_id: string }) => row.event_id)
        .sort();
    expect(await eventsOf(optedIn.endpoint_id)).toEqual([subIntent.event_id, masterIntent.event_id].sort());
    expect(await eventsOf(masterOnly.endpoint_id)).toEqual(
      [masterIntent.event_id, masterPayout.event_id].sort(),
    );
    expect(await eventsOf(subPayouts.endpoint_id)).toEqual([subPayout.event_id]);
    const internalDeliveries = await dispatcher.dataSource.query(
      'SELECT 1 FROM webhook_deliveries WHERE event_id = $1',
      [internal.event_id],
    );
    expect(internalDeliveries).toHaveLength(0);
  });
});

describe('endpoints API', () => {
  it('creates an endpoint with a secret shown once, then lists, retrieves, updates and deletes it', async () => {
    const accountId = randomUUID();
    const actor = actorOf(accountId);
    const created = await createEndpoint(accountId, {
      url: 'https://merchant.example/hooks',
      event_names: ['payout.*'],
      description: 'payouts',
    });
    expect(created).toMatchObject({
      url: 'https://merchant.example/hooks',
      event_names: ['payout.*'],
      description: 'payouts',
      include_sub_accounts: false,
      status: 'ENABLED',
      account_id: accountId,
    });
    expect(created.endpoint_id).toMatch(/^whep_/);
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);

    const retrieved = resultOf(
      await dispatcher.send<WebhookEndpointView>(
        WebhookCommand.retrieveEndpoint.type,
        { endpoint_id: created.endpoint_id },
        { actor },
      ),
    );
    expect(retrieved).not.toHaveProperty('secret');
    const page = resultOf(
      await dispatcher.send<WebhookPage<WebhookEndpointView>>(
        WebhookCommand.listEndpoints.type,
        { page_size: 10, page_number: 1 },
        { actor },
      ),
    );
    expect(page).toMatchObject({ total_items: 1, total_pages: 1 });
    expect(page.data.map((endpoint) => endpoint.endpoint_id)).toEqual([created.endpoint_id]);

    const updated = resultOf(
      await dispatcher.mutate<WebhookEndpointView>(
        WebhookCommand.updateEndpoint.type,
        { endpoint_id: created.endpoint_id, event_names: [], description: null, include_sub_accounts: true },
        { actor },
      ),
    );
    expect(updated).toMatchObject({
      url: created.url,
      event_names: [],
      description: null,
      include_sub_accounts: true,
    });

    resultOf(
      await dispatcher.mutate(
        WebhookCommand.deleteEndpoint.type,
        { endpoint_id: created.endpoint_id },
        { actor },
      ),
    );
    const gone = refusalOf(
      await dispatcher.send(
        WebhookCommand.retrieveEndpoint.type,
        { endpoint_id: created.endpoint_id },
        { actor },
      ),
    );
    expect(gone.body).toMatchObject({ code: 'resource_not_found' });
  });

  it('paginates like the rest of the API and refuses a page size out of range', async () => {
    const accountId = randomUUID();
    for (let index = 0; index < 12; index += 1)
      await createEndpoint(accountId, { url: `https://m${index}.example/h` });
    const second = resultOf(
      await dispatcher.send<WebhookPage<WebhookEndpointView>>(
        WebhookCommand.listEndpoints.type,
        { page_size: 10, page_number: 2 },
        { actor: actorOf(accountId) },
      ),
    );
    expect(second).toMatchObject({ total_items: 12, total_pages: 2 });
    expect(second.data).toHaveLength(2);
    const refused = refusalOf(
      await dispatcher.send(
        WebhookCommand.listEndpoints.type,
        { page_size: 5, page_number: 1 },
        { actor: actorOf(accountId) },
      ),
    );
    expect(refused).toEqual({
      status: 400,
      body: {
        type: 'invalid_request_error',
        code: 'invalid_request_error',
        message: 'page_size: must not be less than 10',
      },
    });
  });

  it('refuses invalid URLs and filters with a clear message and creates nothing', async () => {
    const accountId = randomUUID();
    const attempts: [Record<string, unknown>, string][] = [
      [{ url: 'ftp://merchant.example/h' }, 'url must use https or http'],
      [{ url: 'not a url' }, 'url must be an absolute http or https URL'],
      [
        { url: `https://merchant.example/${'a'.repeat(2050)}` },
        'url: must be shorter than or equal to 2048 characters',
      ],
      [
        { url: 'https://merchant.example/h', event_names: ['Payout Completed'] },
        'event_names: each value in event_names must be an event name',
      ],
      [{ url: 'https://merchant.example/h', secret: 'mine' }, 'secret: is not an accepted field'],
    ];
    for (const [body, message] of attempts) {
      const refused = refusalOf(
        await dispatcher.mutate(WebhookCommand.createEndpoint.type, body, { actor: actorOf(accountId) }),
      );
      expect(refused.status).toBe(400);
      expect(String(refused.body.message)).toContain(message);
    }
    const page = resultOf(
      await dispatcher.send<WebhookPage<WebhookEndpointView>>(
        WebhookCommand.listEndpoints.type,
        { page_size: 10, page_number: 1 },
        { actor: actorOf(accountId) },
      ),
    );
    expect(page.total_items).toBe(0);
  });

  it("reports another account's endpoint and delivery exactly like missing ones", async () => {
    const { accountId, path, endpoint } = await accountWithEndpoint();
    await publishAndReceive(aDomainEvent({ account_id: accountId }), path);
    const delivery = await settledDelivery(endpoint.endpoint_id, 'succeeded');
    const stranger = actorOf(randomUUID());
    const missingEndpoint = refusalOf(
      await dispatcher.send(
        WebhookCommand.retrieveEndpoint.type,
        { endpoint_id: 'whep_00000000000000000000000000' },
        { actor: stranger },
      ),
    );
    expect(missingEndpoint).toEqual({
      status: 400,
      body: {
        type: 'invalid_request_error',
        code: 'resource_not_found',
        message: 'webhook endpoint not found',
      },
    });
    const ref = { endpoint_id: endpoint.endpoint_id };
    expect(
      refusalOf(await dispatcher.send(WebhookCommand.retrieveEndpoint.type, ref, { actor: stranger })),
    ).toEqual(missingEndpoint);
    expect(
      refusalOf(
        await dispatcher.mutate(
          WebhookCommand.updateEndpoint.type,
          { ...ref, description: 'x' },
          { actor: stranger },
        ),
      ),
    ).toEqual(missingEndpoint);
    expect(
      refusalOf(await dispatcher.mutate(WebhookCommand.rotateSecret.type, ref, { actor: stranger })),
    ).toEqual(missingEndpoint);
    expect(
      refusalOf(await dispatcher.mutate(WebhookCommand.deleteEndpoint.type, ref, { actor: stranger })),
    ).toEqual(missingEndpoint);
    expect(
      refusalOf(
        await dispatcher.mutate(
          WebhookCommand.replayEndpoint.type,
          { ...ref, since: '2020-01-01T00:00:00Z' },
          { actor: stranger },
        ),
      ),
    ).toEqual(missingEndpoint);

    const missingDelivery = refusalOf(
      await dispatcher.send(
        WebhookCommand.retrieveDelivery.type,
        { delivery_id: 'del_00000000000000000000000000' },
        { actor: stranger },
      ),
    );
    const deliveryRef = { delivery_id: delivery.delivery_id };
    expect(
      refusalOf(
        await dispatcher.send(WebhookCommand.retrieveDelivery.type, deliveryRef, { actor: stranger }),
      ),
    ).toEqual(missingDelivery);
    expect(
      refusalOf(await dispatcher.mutate(WebhookCommand.retryDelivery.type, deliveryRef, { actor: stranger })),
    ).toEqual(missingDelivery);
    const strangersView = resultOf(
      await dispatcher.send<WebhookPage<WebhookDeliveryView>>(
        WebhookCommand.listDeliveries.type,
        { page_size: 100, page_number: 1 },
        { actor: stranger },
      ),
    );
    expect(strangersView.total_items).toBe(0);
    // The owner, and an operator (no actor), do see them.
    expect(
      resultOf(
        await dispatcher.send(WebhookCommand.retrieveDelivery.type, deliveryRef, {
          actor: actorOf(accountId),
        }),
      ),
    ).toMatchObject(deliveryRef);
    expect(
      resultOf(await dispatcher.send(WebhookCommand.retrieveDelivery.type, deliveryRef, { actor: null })),
    ).toMatchObject(deliveryRef);
  });
});

describe('merchant and on-call tools', () => {
  it("lists deliveries by status, event, endpoint and time, and an event's attempts", async () => {
    const { accountId, path, endpoint } = await accountWithEndpoint();
    const actor = actorOf(accountId);
    const started = new Date(Date.now() - 1000).toISOString();
    receiver.respond(path, (request) =>
      JSON.parse(request.rawBody).event_name === 'payout.failed' ? { status: 500 } : { status: 200 },
    );
    const ok = aDomainEvent({ account_id: accountId, event_name: 'payout.completed', event_type: 'PAYOUT' });
    const bad = aDomainEvent({ account_id: accountId, event_name: 'payout.failed', event_type: 'PAYOUT' });
    await publisher.publish([ok, bad], 'payouts');
    // One read for both conditions: the two events may reach the intake in different fetches, so two reads
    // could see the first delivery settled alone, then both with the second still pending.
    await waitFor(
      async () => {
        const rows = await deliveriesOf(endpoint.endpoint_id);
        return rows.length === 2 && rows.every((row) => row.status !== 'pending');
      },
      { what: 'both deliveries to settle' },
    );
    const list = async (filters: Record<string, unknown>) =>
      resultOf(
        await dispatcher.send<WebhookPage<WebhookDeliveryView>>(
          WebhookCommand.listDeliveries.type,
          { page_size: 10, page_number: 1, ...filters },
          { actor },
        ),
      );

    expect((await list({ delivery_status: 'FAILED' })).data.map((delivery) => delivery.event_id)).toEqual([
      bad.event_id,
    ]);
    expect(
      (await list({ event_name: 'payout.completed' })).data.map((delivery) => delivery.event_id),
    ).toEqual([ok.event_id]);
    expect((await list({ endpoint_id: endpoint.endpoint_id })).total_items).toBe(2);
    expect((await list({ create_start_time: started })).total_items).toBe(2);
    expect((await list({ create_end_time: started })).total_items).toBe(0);
    const failed = (await list({ delivery_status: 'FAILED' })).data[0];
    expect(failed).toMatchObject({
      delivery_status: 'FAILED',
      attempt_count: 4,
      last_status_code: 500,
      event_account_id: accountId,
    });

    const attempts = resultOf(
      await dispatcher.send<WebhookPage<WebhookAttemptView>>(
        WebhookCommand.listEventAttempts.type,
        { event_id: bad.event_id, page_size: 10, page_number: 1 },
        { actor },
      ),
    );
    expect(attempts.total_items).toBe(4);
    expect(
      attempts.data.map((attempt) => [attempt.attempt_number, attempt.status_code, attempt.trigger]),
    ).toEqual([
      [1, 500, 'SCHEDULED'],
      [2, 500, 'SCHEDULED'],
      [3, 500, 'SCHEDULED'],
      [4, 500, 'SCHEDULED'],
    ]);
    const refused = refusalOf(
      await dispatcher.send(
        WebhookCommand.listDeliveries.type,
        { page_size: 10, page_number: 1, delivery_status: 'LOST' },
        { actor },
      ),
    );
    expect(refused.body.message).toBe(
      'delivery_status: must be one of PENDING, SUCCEEDED, FAILED, CANCELLED',
    );
  });

  it('retries one failed delivery as a manual attempt, and refuses to retry a pending one', async () => {
    const { accountId, path, endpoint } = await accountWithEndpoint();
    receiver.respond(path, { status: 500 });
    await publisher.publish([aDomainEvent({ account_id: accountId })]);
    const failed = await settledDelivery(endpoint.endpoint_id, 'failed');
    receiver.respond(path, { status: 200 });
    const retried = resultOf(
      await dispatcher.mutate<WebhookDeliveryView>(
        WebhookCommand.retryDelivery.type,
        { delivery_id: failed.delivery_id },
        { actor: actorOf(accountId) },
      ),
    );
    expect(retried.delivery_status).toBe('PENDING');
    await settledDelivery(endpoint.endpoint_id, 'succeeded');
    const detail = resultOf(
      await dispatcher.send<WebhookDeliveryDetailView>(
        WebhookCommand.retrieveDelivery.type,
        { delivery_id: failed.delivery_id },
        { actor: actorOf(accountId) },
      ),
    );
    expect(detail.url).toBe(receiver.url(path));
    expect(
      detail.attempts.map((attempt) => [attempt.attempt_number, attempt.trigger, attempt.succeeded]),
    ).toEqual([
      [1, 'SCHEDULED', false],
      [2, 'SCHEDULED', false],
      [3, 'SCHEDULED', false],
      [4, 'SCHEDULED', false],
      [5, 'MANUAL', true],
    ]);

    receiver.respond(path, { status: 503, headers: { 'retry-after': '3' } });
    const second = aDomainEvent({ account_id: accountId });
    await publishAndReceive(second, path, 6);
    const pending = await waitFor(
      async () =>
        (await deliveriesOf(endpoint.endpoint_id)).find(
          (row) => row.status === 'pending' && row.attempt_count === 1,
        ),
      { what: 'a delivery waiting for its retry' },
    );
    const refused = refusalOf(
      await dispatcher.mutate(
        WebhookCommand.retryDelivery.type,
        { delivery_id: pending.delivery_id },
        { actor: actorOf(accountId) },
      ),
    );
    expect(refused).toEqual({
      status: 400,
      body: {
        type: 'invalid_request_error',
        code: 'invalid_status',
        message: 'cannot retry webhook delivery: status is PENDING',
      },
    });
  });

  it('replays the failed deliveries of a recovered endpoint from the CLI, after it is enabled again', async () => {
    const { accountId, path, endpoint } = await accountWithEndpoint();
    receiver.respond(path, { status: 500 });
    const since = new Date().toISOString();
    const events = [
      aDomainEvent({ account_id: accountId }),
      aDomainEvent({ account_id: accountId }),
      aDomainEvent({ account_id: accountId }),
    ];
    await publisher.publish(events);
    await waitFor(
      async () => {
        const rows = await deliveriesOf(endpoint.endpoint_id);
        return rows.length === 3 && rows.every((row) => row.status === 'failed');
      },
      { what: 'three failed deliveries' },
    );
    receiver.respond(path, { status: 410 });
    await publisher.publish([aDomainEvent({ account_id: accountId })]);
    await waitFor(async () => (await endpointStatus(endpoint.endpoint_id)).status === 'DISABLED', {
      what: 'the endpoint to be disabled',
    });

    const cli = cliAgainst(dispatcher);
    const refused = await cli.run([
      'webhooks',
      'replay',
      '--endpoint',
      endpoint.endpoint_id,
      '--since',
      since,
    ]);
    expect(refused.code).toBe(1);
    expect(refused.err.join('\n')).toContain('webhook_endpoint_disabled');

    receiver.respond(path, { status: 200 });
    expect((await cli.run(['webhooks', 'enable', endpoint.endpoint_id])).code).toBe(0);
    const failedList = await cli.run(['webhooks', 'failed', '--endpoint', endpoint.endpoint_id]);
    expect(failedList.code).toBe(0);
    expect(failedList.out.join('\n')).toContain('4 failed deliveries');
    const replay = await cli.run([
      'webhooks',
      'replay',
      '--endpoint',
      endpoint.endpoint_id,
      '--since',
      since,
    ]);
    expect(replay.err).toEqual([]);
    expect(replay.out.join('\n')).toContain(`Replaying 4 failed deliveries of ${endpoint.endpoint_id}`);
    await waitFor(
      async () => (await deliveriesOf(endpoint.endpoint_id)).every((row) => row.status === 'succeeded'),
      {
        what: 'every replayed delivery to succeed',
      },
    );
    const delivered = new Set(
      receiver
        .received(path)
        .filter((request) => request.rawBody.length > 0)
        .map((request) => request.headers['webhook-id']),
    );
    for (const event of events) expect(delivered.has(event.event_id)).toBe(true);

    const [row] = await deliveriesOf(endpoint.endpoint_id);
    const inspect = await cli.run(['webhooks', 'inspect', row.delivery_id]);
    expect(inspect.code).toBe(0);
    expect(inspect.out.join('\n')).toMatch(/MANUAL\s+200/);
  });

  it('delivers what Redis lost: the reconciler re-enqueues due deliveries after our queue keys are deleted', async () => {
    const { accountId, path, endpoint } = await accountWithEndpoint();
    receiver.respond(path, { status: 503, headers: { 'retry-after': '2' } });
    const event = aDomainEvent({ account_id: accountId });
    await publishAndReceive(event, path);
    // The barrier: from the moment attempt 1 is recorded the test holds the delivery's lease, so no job can
    // send attempt 2 and the reconciler skips it, however long deleting the keys takes (SCAN walks the whole
    // keyspace); released once they are gone and the receiver answers 200. Attempt 2 can then only come from
    // the reconciler (the retry job is gone, or ran while the lease was held and sent nothing).
    const deliveryId = await waitFor(
      async () => {
        const [held] = (await dispatcher.dataSource.query(
          `WITH held AS (
             UPDATE webhook_deliveries SET lease_until = now() + interval '1 hour'
              WHERE endpoint_id = $1 AND status = 'pending' AND attempt_count = 1
                AND (lease_until IS NULL OR lease_until < now())
              RETURNING delivery_id)
           SELECT delivery_id FROM held`,
          [endpoint.endpoint_id],
        )) as { delivery_id: string }[];
        return held?.delivery_id;
      },
      { what: 'the first attempt recorded, and its delivery leased by the test' },
    );
    expect(await deleteRedisKeys(dispatcher.config.WEBHOOK_QUEUE_PREFIX)).toBeGreaterThan(0);
    receiver.respond(path, { status: 200 });
    await dispatcher.dataSource.query('UPDATE webhook_deliveries SET lease_until = NULL WHERE delivery_id = $1', [
      deliveryId,
    ]);
    await settledDelivery(endpoint.endpoint_id, 'succeeded');
    expect(receiver.received(path).map((request) => request.headers['webhook-id'])).toEqual([
      event.event_id,
      event.event_id,
    ]);
  });

  it('serves the queue summary only with the ops token, and the webhook metrics', async () => {
    const inject = (url: string, headers: Record<string, string> = {}) =>
      dispatcher.app.inject({ method: 'GET', url, headers });
    const refused = await inject('/ops/queues');
    expect(refused.statusCode).toBe(401);
    expect((await inject('/ops/queues', { authorization: 'Bearer wrong-token-0123456789' })).statusCode).toBe(
      401,
    );
    const summary = await inject('/ops/queues', { authorization: `Bearer ${dispatcher.config.OPS_TOKEN}` });
    expect(summary.statusCode).toBe(200);
    expect(summary.json()).toMatchObject({
      queue: 'webhook-deliveries',
      prefix: dispatcher.config.WEBHOOK_QUEUE_PREFIX,
      deliveries: { succeeded: expect.any(Number) },
    });
    expect((await inject(`/ops/queues?token=${dispatcher.config.OPS_TOKEN}`)).statusCode).toBe(200);

    const metrics = (await inject('/metrics')).body;
    expect(metrics).toMatch(
      /paygrid_webhook_deliveries_total\{outcome="succeeded",app="webhook-dispatcher"\} [1-9]/,
    );
    expect(metrics).toMatch(/paygrid_webhook_attempts_total\{result="5xx",app="webhook-dispatcher"\} [1-9]/);
    expect(metrics).toMatch(
      /paygrid_webhook_event_to_delivery_seconds_count\{app="webhook-dispatcher"\} [1-9]/,
    );
    expect(metrics).toContain('paygrid_webhook_queue_jobs{state="delayed",app="webhook-dispatcher"}');
    expect(metrics).toContain('paygrid_webhook_deliveries_pending');
    expect(metrics).toMatch(/paygrid_webhook_reconciler_reenqueued_total\{app="webhook-dispatcher"\} [1-9]/);
    // Every first attempt of this file's deliveries found a direct-send slot: none was queued for want of one.
    expect(metrics).toMatch(
      /paygrid_webhook_first_attempts_total\{path="direct",app="webhook-dispatcher"\} [1-9]/,
    );
    expect(metrics).toMatch(
      /paygrid_webhook_first_attempts_total\{path="queued",app="webhook-dispatcher"\} 0\n/,
    );
  });
});

/** The operators' CLI (its real argument handling, output and Kafka bus) on this file's stack, as an operator. */
function cliAgainst(service: DispatcherService) {
  return {
    async run(argv: string[]): Promise<{ code: number; out: string[]; err: string[] }> {
      const out: string[] = [];
      const err: string[] = [];
      const code = await runCli(argv, {
        connect: () =>
          connectCliBus({
            brokers: testBrokers(),
            kafkaPrefix: service.stack.prefix,
            timeoutMs: 15_000,
            logLevel: 'silent',
          }),
        out: (line) => out.push(line),
        err: (line) => err.push(line),
      });
      return { code, out, err };
    },
  };
}
