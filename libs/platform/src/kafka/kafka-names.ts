import {
  allTopics,
  CommandFamily,
  CommandTopics,
  EventFamily,
  EventTopics,
  replyTopicOf,
  TopicDeclaration,
} from '@paygrid/contracts';

/**
 * The one place that turns libs/contracts' logical topic names and the platform's consumer-group names
 * into what the broker holds, under a stack prefix (`KAFKA_PREFIX`): topic `<prefix>.<logical name>`,
 * group `<prefix>-<name>`. Two stacks with different prefixes on one broker share no topic and no group,
 * so neither answers the other's commands nor reads the other's events. The default prefix keeps the
 * names a deployment has always had (`paygrid.acquiring.commands`, group `paygrid-acquiring-server`).
 */
export const DEFAULT_KAFKA_PREFIX = 'paygrid';

/** One segment (no dot), so `<prefix>.` never matches another stack's topics; Kafka allows [A-Za-z0-9._-]. */
export const KAFKA_PREFIX_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_-]{0,99}$/;

const LOGICAL_EVENT_TOPICS = new Set<string>(Object.values(EventTopics));

export class KafkaNames {
  constructor(readonly prefix: string) {
    if (!KAFKA_PREFIX_PATTERN.test(prefix)) {
      throw new Error(
        `Kafka prefix "${prefix}" must match ${KAFKA_PREFIX_PATTERN} (letters, digits, _ and -, no dot)`,
      );
    }
  }

  commandTopic(family: CommandFamily): string {
    return this.physical(CommandTopics[family]);
  }

  /** Where Nest's ClientKafka expects the replies to a command topic. */
  replyTopic(family: CommandFamily): string {
    return replyTopicOf(this.commandTopic(family));
  }

  eventTopic(family: EventFamily): string {
    return this.physical(EventTopics[family]);
  }

  /** Every domain event topic of this stack (what the webhook dispatcher consumes). */
  eventTopics(): string[] {
    return (Object.keys(EventTopics) as EventFamily[]).map((family) => this.eventTopic(family));
  }

  /**
   * The stack's topic for a logical event topic as an outbox row stores it; anything else is refused,
   * so a row can never be published outside its stack.
   */
  eventTopicOf(logical: string): string {
    if (!LOGICAL_EVENT_TOPICS.has(logical))
      throw new Error(`"${logical}" is not an event topic of libs/contracts`);
    return this.physical(logical);
  }

  /** A consumer group of this stack (Nest appends `-server`/`-client` to the groups of its transport). */
  group(name: string): string {
    return `${this.prefix}-${name}`;
  }

  /** Every topic of this stack, with its partition count, to be created before any app subscribes. */
  topics(): TopicDeclaration[] {
    return allTopics().map((topic) => ({ ...topic, name: this.physical(topic.name) }));
  }

  /** Whether a topic on the broker belongs to this stack. */
  owns(topic: string): boolean {
    return topic.startsWith(`${this.prefix}.`);
  }

  private physical(logical: string): string {
    return `${this.prefix}.${logical}`;
  }
}

export function kafkaNamesOf(config: { KAFKA_PREFIX: string }): KafkaNames {
  return new KafkaNames(config.KAFKA_PREFIX);
}
