import { randomBytes, randomUUID } from 'node:crypto';
import { RequestMethod } from '@nestjs/common';
import jwt from 'jsonwebtoken';
import { CommandBus } from '@paygrid/platform';
import { PING_COMMAND } from '@paygrid/contracts';
import {
  AppProcess,
  aDomainEvent,
  createTestDatabase,
  deleteRedisKeys,
  EventWriter,
  ServiceHarness,
  TestDatabase,
  waitFor,
  WebhookReceiver,
} from '@paygrid/testing';
import { createValidationPipe } from '../../common/validation.pipe';
import { configSchema } from '../../config';
import { GatewayModule } from '../../gateway.module';
import { COMMAND_BUS } from '../commands/command-bus.provider';
import { TokenClaims } from '../auth/token.service';

/**
 * The merchant-facing webhook routes end to end: HTTP into the real gateway (auth, validation,
 * idempotency), over the real Kafka command topic, into the real dispatcher and its database, and a
 * signed delivery out to a receiver. The gateway runs in-process, the dispatcher as its compiled
 * process (so this app's test imports no other app), both on this file's own stack of topics and
 * their own throwaway databases. The dispatcher retries at test speed: attempts at once, then after
 * 100, 200 and 400 ms.
 */
let gateway: ServiceHarness<typeof configSchema>;
let dispatcherDb: TestDatabase;
let dispatcher: AppProcess;
let publisher: EventWriter;
let receiver: WebhookReceiver;
const queuePrefix = `it-gw-wh-${randomBytes(4).toString('hex')}`;

beforeAll(async () => {
  gateway = await ServiceHarness.start({
    app: 'gateway',
    configSchema,
    module: (config) => GatewayModule.register(config),
    configure: (app) => {
      app.setGlobalPrefix('api', { exclude: [{ path: 'metrics', method: RequestMethod.GET }] });
      app.useGlobalPipes(createValidationPipe());
    },
  });
  await gateway.app.getHttpAdapter().getInstance().ready();
  dispatcherDb = await createTestDatabase('paygrid_webhooks');
  dispatcher = await AppProcess.on(gateway.stack, 'webhook-dispatcher', dispatcherDb.url, {
    WEBHOOK_QUEUE_PREFIX: queuePrefix,
    WEBHOOK_RETRY_SCHEDULE_MS: '100,200,400',
  });
  await dispatcher.start();
  const bus = gateway.app.get<CommandBus>(COMMAND_BUS);
  await waitFor(
    async () =>
      (
        await bus
          .request('webhooks', PING_COMMAND, {}, { actor: null, timeoutMs: 2000 })
          .catch(() => undefined)
      )?.ok,
    {
      timeoutMs: 90_000,
      what: 'the dispatcher to answer the gateway',
    },
  );
  publisher = await gateway.stack.eventWriter();
  receiver = await WebhookReceiver.start();
}, 180_000);

afterAll(async () => {
  await receiver?.close();
  await dispatcher?.stop();
  await gateway?.close();
  await deleteRedisKeys(queuePrefix);
  await dispatcherDb?.drop();
});

function tokenFor(accountId: string): string {
  const now = Math.floor(Date.now() / 1000);
  const claims: TokenClaims = {
    entity_id: accountId,
    short_entity_id: 'P000000001',
    parent_entity_id: '0',
    client_id: `cli_${randomBytes(4).toString('hex')}`,
    api_version: 'V1.0',
    bus_type: 'ACQUIRING',
    kid: `key_${randomBytes(4).toString('hex')}`,
    mid: accountId,
    perms: [],
    ips: [],
    iat: now,
    exp: now + 600,
  };
  return jwt.sign(claims, gateway.config.JWT_SECRET, { algorithm: 'HS256', noTimestamp: true });
}

function api(accountId: string) {
  const token = tokenFor(accountId);
  const call = async (
    method: 'GET' | 'POST',
    url: string,
    body?: unknown,
    idempotencyKey: string = randomUUID(),
  ) => {
    const response = await gateway.app.inject({
      method,
      url: `/api${url}`,
      headers: {
        'x-auth-token': token,
        'content-type': 'application/json',
        ...(method === 'POST' ? { 'x-idempotency-key': idempotencyKey } : {}),
      },
      payload: method === 'POST' ? JSON.stringify(body ?? {}) : undefined,
    });
    return { status: response.statusCode, body: response.json(), headers: response.headers };
  };
  return {
    get: (url: string) => call('GET', url),
    post: (url: string, body?: unknown, key?: string) => call('POST', url, body, key),
  };
}

describe('webhook endpoints over HTTP', () => {
  it('creates, lists, retrieves, updates, rotates and deletes an endpoint of the acting account', async () => {
    const merchant = api(randomUUID());
    const key = randomUUID();
    const created = await merchant.post(
      '/v1/webhooks/endpoints',
      { url: receiver.url('/gw'), event_names: ['payout.*'] },
      key,
    );
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({
      url: receiver.url('/gw'),
      event_names: ['payout.*'],
      status: 'ENABLED',
    });
    expect(created.body.secret).toMatch(/^whsec_/);
    const id = created.body.endpoint_id as string;

    const replayed = await merchant.post(
      '/v1/webhooks/endpoints',
      { url: receiver.url('/gw'), event_names: ['payout.*'] },
      key,
    );
    expect(replayed.headers['x-idempotent-replayed']).toBe('true');
    expect(replayed.body).toEqual(created.body);

    const list = await merchant.get('/v1/webhooks/endpoints?page_size=10&page_number=1');
    expect(list.body).toMatchObject({ total_items: 1, total_pages: 1, data: [{ endpoint_id: id }] });
    expect((await merchant.get(`/v1/webhooks/endpoints/${id}`)).body).not.toHaveProperty('secret');

    const updated = await merchant.post(`/v1/webhooks/endpoints/${id}`, { description: 'payouts only' });
    expect(updated.body).toMatchObject({ endpoint_id: id, description: 'payouts only' });
    const rotated = await merchant.post(`/v1/webhooks/endpoints/${id}/rotate_secret`, {
      overlap_seconds: 60,
    });
    expect(rotated.body).toMatchObject({ endpoint_id: id, secret: expect.stringMatching(/^whsec_/) });

    expect((await merchant.post(`/v1/webhooks/endpoints/${id}/delete`)).body).toEqual({
      endpoint_id: id,
      deleted: true,
    });
    expect((await merchant.get(`/v1/webhooks/endpoints/${id}`)).body).toMatchObject({
      code: 'resource_not_found',
    });
  });

  it('answers bad input with envelope A naming the field, before anything is sent', async () => {
    const merchant = api(randomUUID());
    const noUrl = await merchant.post('/v1/webhooks/endpoints', { event_names: [] });
    expect(noUrl).toMatchObject({
      status: 400,
      body: { type: 'invalid_request_error', code: 'invalid_request_error' },
    });
    expect(noUrl.body.message).toMatch(/^url: /);
    const unknown = await merchant.post('/v1/webhooks/endpoints', {
      url: 'https://m.example/h',
      secret: 'x',
    });
    expect(unknown).toMatchObject({
      status: 400,
      body: { type: 'invalid_request_error', message: expect.stringMatching(/^secret: /) },
    });
    const badPage = await merchant.get('/v1/webhooks/deliveries?page_size=500');
    expect(badPage).toMatchObject({
      status: 400,
      body: { message: 'page_size: must not be greater than 100' },
    });
    const badScheme = await merchant.post('/v1/webhooks/endpoints', { url: 'ftp://m.example/h' });
    expect(badScheme).toMatchObject({
      status: 400,
      body: { code: 'invalid_webhook_url', message: 'url must use https or http' },
    });
  });

  it("reports another account's endpoint exactly like a missing one", async () => {
    const owner = api(randomUUID());
    const stranger = api(randomUUID());
    const { body } = await owner.post('/v1/webhooks/endpoints', { url: 'https://owner.example/h' });
    const theirs = await stranger.get(`/v1/webhooks/endpoints/${body.endpoint_id}`);
    const missing = await stranger.get('/v1/webhooks/endpoints/whep_00000000000000000000000000');
    expect(theirs).toEqual({ ...missing, headers: theirs.headers });
    expect(theirs).toMatchObject({
      status: 400,
      body: { type: 'invalid_request_error', code: 'resource_not_found' },
    });
    expect((await stranger.post(`/v1/webhooks/endpoints/${body.endpoint_id}/delete`)).body).toEqual(
      missing.body,
    );
  });
});

describe('webhook deliveries over HTTP', () => {
  it('lists deliveries and attempts, retries one, and replays an endpoint since a time', async () => {
    const accountId = randomUUID();
    const merchant = api(accountId);
    receiver.respond('/gw-deliveries', { status: 500 });
    const { body: endpoint } = await merchant.post('/v1/webhooks/endpoints', {
      url: receiver.url('/gw-deliveries'),
    });
    const since = new Date(Date.now() - 1000).toISOString();
    const event = aDomainEvent({ account_id: accountId });
    await publisher.publish([event]);

    const failed = await waitFor(
      async () => {
        const page = await merchant.get('/v1/webhooks/deliveries?delivery_status=FAILED');
        return page.body.total_items === 1 ? page.body.data[0] : undefined;
      },
      { timeoutMs: 30_000, what: 'the delivery to fail' },
    );
    expect(failed).toMatchObject({
      event_id: event.event_id,
      endpoint_id: endpoint.endpoint_id,
      attempt_count: 4,
    });
    const attempts = await merchant.get(`/v1/webhooks/events/${event.event_id}/attempts`);
    expect(attempts.body.total_items).toBe(4);
    expect((await merchant.get(`/v1/webhooks/deliveries/${failed.delivery_id}`)).body.attempts).toHaveLength(
      4,
    );

    receiver.respond('/gw-deliveries', { status: 200 });
    const retried = await merchant.post(`/v1/webhooks/deliveries/${failed.delivery_id}/retry`);
    expect(retried.body).toMatchObject({ delivery_id: failed.delivery_id, delivery_status: 'PENDING' });
    await waitFor(
      async () =>
        (await merchant.get(`/v1/webhooks/deliveries/${failed.delivery_id}`)).body.delivery_status ===
        'SUCCEEDED',
      {
        what: 'the retried delivery to succeed',
      },
    );

    const replay = await merchant.post(`/v1/webhooks/endpoints/${endpoint.endpoint_id}/replay`, { since });
    expect(replay.body).toEqual({ endpoint_id: endpoint.endpoint_id, since, replayed: 0 });
    expect(
      (await merchant.post(`/v1/webhooks/endpoints/${endpoint.endpoint_id}/replay`, { since: 'yesterday' }))
        .body.message,
    ).toMatch(/^since: must be an ISO 8601 time/);
  });
});
