import { allTopics } from '@paygrid/contracts';
import { commonConfig } from '../config/common-config';
import { ConfigError, loadConfig } from '../config/config';
import { DEFAULT_KAFKA_PREFIX, KafkaNames } from './kafka-names';

describe('KafkaNames', () => {
  it('keeps the names a default deployment has always had', () => {
    const names = new KafkaNames(DEFAULT_KAFKA_PREFIX);
    expect(names.commandTopic('acquiring')).toBe('paygrid.acquiring.commands');
    expect(names.replyTopic('acquiring')).toBe('paygrid.acquiring.commands.reply');
    expect(names.eventTopic('accounts')).toBe('paygrid.accounts.events');
    expect(names.group('acquiring')).toBe('paygrid-acquiring');
  });

  it('puts every topic and group of another stack under its own prefix', () => {
    const names = new KafkaNames('it-accounts-1a2b3c4d');
    expect(names.topics().map((topic) => topic.name)).toEqual(
      allTopics().map((topic) => `it-accounts-1a2b3c4d.${topic.name}`),
    );
    expect(names.eventTopics()).toContain('it-accounts-1a2b3c4d.webhooks.events');
    expect(names.group('webhook-intake')).toBe('it-accounts-1a2b3c4d-webhook-intake');
    expect(names.topics().every((topic) => names.owns(topic.name))).toBe(true);
    expect(new KafkaNames('paygrid').owns('it-accounts-1a2b3c4d.acquiring.commands')).toBe(false);
  });

  it('resolves the logical event topic an outbox row names, and refuses anything else', () => {
    const names = new KafkaNames('staging');
    expect(names.eventTopicOf('payouts.events')).toBe('staging.payouts.events');
    expect(() => names.eventTopicOf('paygrid.payouts.events')).toThrow(/not an event topic/);
    expect(() => names.eventTopicOf('payouts.commands')).toThrow(/not an event topic/);
  });

  it('refuses a prefix that could reach into another stack or that Kafka would reject', () => {
    for (const prefix of ['', 'a.b', 'with space', '-leading', 'x'.repeat(101)]) {
      expect(() => new KafkaNames(prefix)).toThrow(/Kafka prefix/);
    }
  });
});

describe('KAFKA_PREFIX in the config every app reads', () => {
  const schema = commonConfig('payouts');

  it('defaults to paygrid and takes a stack name', () => {
    expect(loadConfig(schema, {}).KAFKA_PREFIX).toBe('paygrid');
    expect(loadConfig(schema, { KAFKA_PREFIX: 'paygrid-e2e-m1x' }).KAFKA_PREFIX).toBe('paygrid-e2e-m1x');
  });

  it('stops the boot on a prefix with a dot, naming the variable', () => {
    expect(() => loadConfig(schema, { KAFKA_PREFIX: 'team.a' })).toThrow(/KAFKA_PREFIX is invalid/);
  });

  it('stops the boot when the retired KAFKA_GROUP_PREFIX is still set, naming its replacement', () => {
    const error = (() => {
      try {
        loadConfig(schema, { KAFKA_GROUP_PREFIX: 'team-a' });
      } catch (caught) {
        return caught;
      }
    })();
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).problems).toEqual([
      'KAFKA_GROUP_PREFIX is no longer read: set KAFKA_PREFIX instead (it prefixes every topic and consumer group)',
    ]);
  });
});
