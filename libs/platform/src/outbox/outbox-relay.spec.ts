import { DataSource } from 'typeorm';
import { Producer } from 'kafkajs';
import { Logger } from 'pino';
import { KafkaNames } from '../kafka/kafka-names';
import { OutboxRelay, RELAY_BEGIN, RELAY_LOCK, RELAY_MARK, RELAY_READ } from './outbox-relay';

describe("the relay's statements", () => {
  it('take every value as a parameter, so the pool prepares them once per connection', () => {
    expect(RELAY_LOCK).toContain('pg_try_advisory_xact_lock($1)');
    expect(RELAY_READ).toMatch(/ORDER BY id LIMIT \$1$/);
    expect(RELAY_MARK).toBe('UPDATE outbox SET published_at = now() WHERE id = ANY($1::bigint[])');
    for (const statement of [RELAY_LOCK, RELAY_READ, RELAY_MARK]) expect(statement).not.toMatch(/\d{3,}/);
  });

  it('run on generic plans in a transaction whose commit does not wait for its flush', () => {
    expect(RELAY_BEGIN).toBe(
      'BEGIN; SET LOCAL synchronous_commit TO off; SET LOCAL plan_cache_mode = force_generic_plan',
    );
  });
});

describe('OutboxRelay options', () => {
  it('refuses a batch size that is not a positive integer', () => {
    for (const batchSize of [0, -1, 1.5, Number.NaN]) {
      expect(
        () =>
          new OutboxRelay(
            {} as DataSource,
            {} as Producer,
            {} as KafkaNames,
            'postgres://unused',
            {} as Logger,
            { batchSize },
          ),
      ).toThrow('relay batch size must be a positive integer');
    }
  });
});
