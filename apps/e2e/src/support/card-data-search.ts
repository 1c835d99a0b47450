import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import Redis from 'ioredis';
import { Kafka, logLevel } from 'kafkajs';
import { KafkaNames } from '@paygrid/platform';
import { waitFor } from '@paygrid/testing';
import { queryE2eDatabase } from './databases';
import { E2E_LOG_DIRECTORY, e2eInfrastructure, e2eKafkaBrokers, e2eKafkaPrefix } from './stack-settings';

/**
 * Architecture rule 7, searched the way an auditor would: every place data lands (databases, service logs,
 * every Kafka topic, every Redis key, webhook bodies) is searched for one card's number (plain, spaced,
 * dashed) and CVC. A 3-digit CVC appears by chance inside ids and timestamps, so it is searched as a value:
 * next to a `cvc`/`cvv` key in any form, or as a quoted JSON string.
 */
export class CardDataSearch {
  private readonly panPatterns: string[];
  private readonly cvcPattern: RegExp;

  constructor(pan: string, cvc: string) {
    this.panPatterns = [pan, pan.replace(/(\d{4})(?=\d)/g, '$1 '), pan.replace(/(\d{4})(?=\d)/g, '$1-')];
    this.cvcPattern = new RegExp(`(cv[cv]2?\\W{0,6}${cvc}\\b)|("${cvc}")`, 'i');
  }

  leaks(text: string): string[] {
    const found = this.panPatterns.filter((pattern) => text.includes(pattern)).map(() => 'card number');
    if (this.cvcPattern.test(text)) found.push('cvc');
    return found;
  }

  /** Every column of every table (but the named ones, `table.column`) of an e2e database. */
  async searchDatabase(database: string, except: string[] = []): Promise<string[]> {
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
        [this.panPatterns.map((pattern) => `%${pattern}%`), this.cvcPattern.source],
      );
      if (rows[0].n > 0) hits.push(`${database}.${table}.${column}`);
    }
    return hits;
  }

  async searchKafka(): Promise<string[]> {
    const kafka = new Kafka({ clientId: 'card-data-audit', brokers: e2eKafkaBrokers(), logLevel: logLevel.NOTHING });
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
        for (const leak of this.leaks(text)) hits.push(`${topic}: ${leak}`);
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

  async searchRedis(): Promise<string[]> {
    const redis = new Redis(e2eInfrastructure().redisUrl);
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
          for (const leak of this.leaks(`${key} ${values.join(' ')}`)) hits.push(`${key}: ${leak}`);
        }
      } while (cursor !== '0');
    } finally {
      redis.disconnect();
    }
    return hits;
  }

  searchLogs(): string[] {
    return readdirSync(E2E_LOG_DIRECTORY)
      .filter((file) => file.endsWith('.log'))
      .flatMap((file) => this.leaks(readFileSync(path.join(E2E_LOG_DIRECTORY, file), 'utf8')).map((leak) => `${file}: ${leak}`));
  }
}
