import { randomInt } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import Redis from 'ioredis';
import { Kafka, logLevel } from 'kafkajs';
import { HostedSessionView } from '@paygrid/contracts';
import { KafkaNames } from '@paygrid/platform';
import { waitFor } from '@paygrid/testing';
import { SANDBOX } from '../support/api-client';
import { queryE2eDatabase } from '../support/databases';
import { E2E_GATEWAY, E2E_LOG_DIRECTORY, e2eKafkaPrefix } from '../support/stack-settings';
import { acquiringWebhooks, cardMethod, Merchant, uniqueVisaNumber, useAcquiringE2eSettings } from './support/acquiring-e2e';

/**
 * Architecture rule 7, checked the way an auditor would: run the whole flow with a card number nobody
 * else uses (the sandbox approves any valid number) and a CVC, then search every place data lands (the
 * acquiring, gateway and webhook databases, every service log, every Kafka topic, every Redis key, the
 * webhook bodies) for the full number and the CVC. The only allowed home of the number is the encrypted
 * saved_cards.pan_ciphertext column, which must hold it encrypted (and does not contain it in clear).
 *
 * A 3-digit CVC appears by chance inside ids and timestamps, so the CVC is searched as a value: next to
 * a `cvc`/`cvv` key in any form, or as a quoted JSON string.
 */
const PAN = uniqueVisaNumber();
const CVC = String(randomInt(100, 1000));
const PAN_PATTERNS = [PAN, PAN.replace(/(\d{4})(?=\d)/g, '$1 '), PAN.replace(/(\d{4})(?=\d)/g, '$1-')];
const CVC_PATTERN = new RegExp(`(cv[cv]2?\\W{0,6}${CVC}\\b)|("${CVC}")`, 'i');

function leaks(text: string): string[] {
  const found = PAN_PATTERNS.filter((pattern) => text.includes(pattern)).map(() => 'card number');
  if (CVC_PATTERN.test(text)) found.push('cvc');
  return found;
}

async function searchDatabase(database: string, except: string[] = []): Promise<string[]> {
  const columns = await queryE2eDatabase<{ table_name: string; column_name: string }>(
    database,
    `SELECT table_name, column_name FROM information_schema.columns
      WHERE table_schema = 'public' ORDER BY table_name, column_name`,
  );
  const hits: string[] = [];
  for (const { table_name: table, column_name: column } of columns) {
    if (except.includes(`${table}.${column}`)) continue;
    const rows = await queryE2eDatabase<{ n: number }>(
      database,
      `SELECT count(*)::int AS n FROM "${table}" WHERE "${column}"::text LIKE ANY($1) OR "${column}"::text ~* $2`,
      [PAN_PATTERNS.map((pattern) => `%${pattern}%`), CVC_PATTERN.source],
    );
    if (rows[0].n > 0) hits.push(`${database}.${table}.${column}`);
  }
  return hits;
}

async function searchKafka(): Promise<string[]> {
  const kafka = new Kafka({ clientId: 'card-data-audit', brokers: (process.env.PAYGRID_E2E_BROKERS ?? '127.0.0.1:9092').split(','), logLevel: logLevel.NOTHING });
  const admin = kafka.admin();
  await admin.connect();
  const topics = new KafkaNames(e2eKafkaPrefix()).topics().map((topic) => topic.name);
  const ends = new Map<string, number>();
  for (const topic of topics) {
    for (const partition of await admin.fetchTopicOffsets(topic)) ends.set(`${topic}/${partition.partition}`, Number(partition.high));
  }
  await admin.disconnect();
  const pending = new Set([...ends].filter(([, high]) => high > 0).map(([key]) => key));
  const hits: string[] = [];
  const consumer = kafka.consumer({ groupId: `card-data-audit-${Date.now()}` });
  await consumer.connect();
  await consumer.subscribe({ topics, fromBeginning: true });
  await consumer.run({
    eachMessage: async ({ topic, partition, message }) => {
      const headers = Object.values(message.headers ?? {}).map((value) => String(value)).join(' ');
      const text = `${message.key?.toString('utf8') ?? ''} ${message.value?.toString('utf8') ?? ''} ${headers}`;
      for (const leak of leaks(text)) hits.push(`${topic}: ${leak}`);
      if (Number(message.offset) + 1 >= (ends.get(`${topic}/${partition}`) ?? 0)) pending.delete(`${topic}/${partition}`);
    },
  });
  try {
    await waitFor(() => pending.size === 0, { timeoutMs: 120_000, intervalMs: 200, what: 'every Kafka topic to be read to its end' });
  } finally {
    await consumer.disconnect();
  }
  return hits;
}

async function searchRedis(): Promise<string[]> {
  const redis = new Redis(process.env.PAYGRID_E2E_REDIS ?? 'redis://127.0.0.1:6379');
  const hits: string[] = [];
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'COUNT', 1000);
      cursor = next;
      for (const key of keys) {
        const type = await redis.type(key);
        let values: string[] = [];
        if (type === 'string') values = [(await redis.get(key)) ?? ''];
        else if (type === 'hash') values = Object.entries(await redis.hgetall(key)).flat();
        else if (type === 'list') values = await redis.lrange(key, 0, -1);
        else if (type === 'set') values = await redis.smembers(key);
        else if (type === 'zset') values = await redis.zrange(key, 0, -1);
        else if (type === 'stream') values = (await redis.xrange(key, '-', '+')).flatMap(([id, fields]) => [id, ...fields]);
        for (const leak of leaks(`${key} ${values.join(' ')}`)) hits.push(`${key}: ${leak}`);
      }
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
  return hits;
}

function searchLogs(): string[] {
  return readdirSync(E2E_LOG_DIRECTORY)
    .filter((file) => file.endsWith('.log'))
    .flatMap((file) => leaks(readFileSync(path.join(E2E_LOG_DIRECTORY, file), 'utf8')).map((leak) => `${file}: ${leak}`));
}

describe('card data', () => {
  let merchant: Merchant;
  let webhooks: Awaited<ReturnType<typeof acquiringWebhooks>>;

  beforeAll(async () => {
    await useAcquiringE2eSettings();
    merchant = await Merchant.of(SANDBOX.master);
    webhooks = await acquiringWebhooks(merchant, '/cards');
  }, 120_000);

  afterAll(async () => {
    await webhooks?.close();
  });

  it('leaves the card number only in the encrypted column, and the CVC nowhere', async () => {
    const card = cardMethod(PAN, { cvc: CVC });
    // Through the API: a sale with a new customer (the card is saved), a manual capture and a refund.
    const sale = await merchant.createIntent({ payment_method: card, customer: { first_name: 'Audit' } });
    expect(sale.intent_status).toBe('SUCCEEDED');
    const auth = await merchant.createIntent({ payment_method: cardMethod(PAN, { cvc: CVC, auto_capture: false }) });
    await merchant.post(`/v2/payment_intents/${auth.payment_intent_id}/capture`, {});
    await merchant.post('/v2/payment/refunds', { payment_intent_id: sale.payment_intent_id, amount: '1.00', reason: 'audit' });
    // A refused request with the card (the 400 must not echo it).
    const refused = await merchant.post('/v2/payment_intents/create', { ...cardOnlyBody(card), amount: '1.001' });
    expect(refused.status).toBe(400);
    expect(leaks(refused.text)).toEqual([]);
    // Through the hosted page: the same card typed by the shopper.
    const hosted = await merchant.createIntent({ customer_id: sale.customer_id });
    const paid = await fetch(`${E2E_GATEWAY}/api/hosted/checkout/pay`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ client_secret: hosted.client_secret, card: card.card }),
    });
    const session = (await paid.json()) as HostedSessionView;
    expect(session.intent_status).toBe('SUCCEEDED');
    expect(leaks(JSON.stringify(session))).toEqual([]);

    await merchant.waitForIntent(sale.payment_intent_id, (intent) => intent.latest_payment_attempt?.attempt_status === 'SETTLED', 'settlement');
    await waitFor(() => webhooks.receiver.received('/cards').length >= 10, { what: 'the webhooks of the flow', timeoutMs: 30_000 });

    const saved = await queryE2eDatabase<{ pan_ciphertext: string; masked_number: string }>(
      'paygrid_acquiring',
      'SELECT pan_ciphertext, masked_number FROM saved_cards WHERE customer_id = $1',
      [sale.customer_id],
    );
    expect(saved).toHaveLength(1);
    expect(saved[0].masked_number).toBe(`${PAN.slice(0, 6)}******${PAN.slice(-4)}`);
    expect(saved[0].pan_ciphertext).toMatch(/^v1\./);
    expect(leaks(saved[0].pan_ciphertext)).toEqual([]);

    const hits = [
      ...(await searchDatabase('paygrid_acquiring', ['saved_cards.pan_ciphertext'])),
      ...(await searchDatabase('paygrid_gateway')),
      ...(await searchDatabase('paygrid_webhooks')),
      ...searchLogs(),
      ...webhooks.receiver.received().flatMap((request) => leaks(request.rawBody).map((leak) => `webhook ${request.path}: ${leak}`)),
      ...(await searchKafka()),
      ...(await searchRedis()),
    ];
    expect(hits).toEqual([]);
  }, 300_000);
});

function cardOnlyBody(method: ReturnType<typeof cardMethod>) {
  return { amount: '1.00', currency: 'USD', merchant_order_id: 'audit', description: 'audit', return_url: 'https://shop.example', payment_method: method };
}
