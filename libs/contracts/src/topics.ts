/**
 * Every Kafka topic of the platform, in one place, by its logical name. The broker holds each under a
 * stack prefix (`<KAFKA_PREFIX>.<logical name>`, e.g. `paygrid.acquiring.commands`), resolved by the
 * platform's KafkaNames, so several stacks (a developer's, a test run, an e2e run) share one broker
 * without seeing each other's messages. Renaming a topic is a breaking change for every deployed
 * consumer: add a new one and migrate instead.
 *
 * Command topics carry request/reply traffic (the gateway sends, one service answers on `<topic>.reply`).
 * Event topics carry domain events published through each service's outbox, keyed by aggregate id; an
 * outbox row stores the logical name and the relay publishes to the stack's topic.
 */
export const CommandTopics = {
  accounts: 'accounts.commands',
  acquiring: 'acquiring.commands',
  payouts: 'payouts.commands',
  issuing: 'issuing.commands',
  webhooks: 'webhooks.commands',
} as const;
export type CommandFamily = keyof typeof CommandTopics;
export type CommandTopic = (typeof CommandTopics)[CommandFamily];

export const EventTopics = {
  accounts: 'accounts.events',
  acquiring: 'acquiring.events',
  payouts: 'payouts.events',
  issuing: 'issuing.events',
  webhooks: 'webhooks.events',
} as const;
export type EventFamily = keyof typeof EventTopics;
export type EventTopic = (typeof EventTopics)[EventFamily];

/** Nest's ClientKafka listens for replies on `<pattern>.reply`. */
export function replyTopicOf<T extends string>(topic: T): `${T}.reply` {
  return `${topic}.reply`;
}

export interface TopicDeclaration {
  name: string;
  partitions: number;
}

/** Partitions: enough for a few replicas of each consumer group on one small broker. */
const COMMAND_PARTITIONS = 3;
const REPLY_PARTITIONS = 3;
const EVENT_PARTITIONS = 3;

/**
 * Every topic the platform uses, by logical name, created per stack before any app starts (KRaft
 * auto-creation races kafkajs).
 */
export function allTopics(): TopicDeclaration[] {
  const commands = Object.values(CommandTopics).flatMap((name) => [
    { name, partitions: COMMAND_PARTITIONS },
    { name: replyTopicOf(name), partitions: REPLY_PARTITIONS },
  ]);
  const events = Object.values(EventTopics).map((name) => ({ name, partitions: EVENT_PARTITIONS }));
  return [...commands, ...events];
}
