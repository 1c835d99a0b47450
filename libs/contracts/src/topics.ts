/**
 * Every Kafka topic of the platform, in one place. Renaming a topic is a breaking change for every
 * deployed consumer: add a new one and migrate instead.
 *
 * Command topics carry request/reply traffic (the gateway sends, one service answers on `<topic>.reply`).
 * Event topics carry domain events published through each service's outbox, keyed by aggregate id.
 */
export const CommandTopics = {
  accounts: 'paygrid.accounts.commands',
  acquiring: 'paygrid.acquiring.commands',
  payouts: 'paygrid.payouts.commands',
  issuing: 'paygrid.issuing.commands',
  webhooks: 'paygrid.webhooks.commands',
} as const;
export type CommandFamily = keyof typeof CommandTopics;
export type CommandTopic = (typeof CommandTopics)[CommandFamily];

export const EventTopics = {
  accounts: 'paygrid.accounts.events',
  acquiring: 'paygrid.acquiring.events',
  payouts: 'paygrid.payouts.events',
  issuing: 'paygrid.issuing.events',
  webhooks: 'paygrid.webhooks.events',
} as const;
export type EventTopic = (typeof EventTopics)[keyof typeof EventTopics];

/** Nest's ClientKafka listens for replies on `<pattern>.reply`. */
export function replyTopicOf(topic: CommandTopic): string {
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

/** Every topic the platform uses, created before any app starts (KRaft auto-creation races kafkajs). */
export function allTopics(): TopicDeclaration[] {
  const commands = Object.values(CommandTopics).flatMap((name) => [
    { name, partitions: COMMAND_PARTITIONS },
    { name: replyTopicOf(name), partitions: REPLY_PARTITIONS },
  ]);
  const events = Object.values(EventTopics).map((name) => ({ name, partitions: EVENT_PARTITIONS }));
  return [...commands, ...events];
}
