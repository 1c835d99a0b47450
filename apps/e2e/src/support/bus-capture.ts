import { Admin, Consumer, IHeaders, Kafka, logLevel } from 'kafkajs';
import { e2eKafkaBrokers } from './stack-settings';

/**
 * Records every message that reaches the given topics from now on, as the broker holds it (key,
 * headers, JSON value), so a suite can hold the real bus traffic its requests cause to the AsyncAPI
 * document. It reads from the offsets the topics had when it started (seeked explicitly, so nothing
 * produced after `start` is missed however long the consumer takes to join), in a group of its own.
 */
export interface CapturedMessage {
  topic: string;
  key: string | null;
  headers: Record<string, string>;
  /** The parsed JSON value; null for an empty value. */
  value: unknown;
}

export class BusCapture {
  private readonly captured: CapturedMessage[] = [];

  private constructor(private readonly consumer: Consumer) {}

  static async start(topics: string[]): Promise<BusCapture> {
    const kafka = new Kafka({
      clientId: 'e2e-bus-capture',
      brokers: e2eKafkaBrokers(),
      logLevel: logLevel.NOTHING,
    });
    const starts = await latestOffsets(kafka.admin(), topics);
    const consumer = kafka.consumer({ groupId: `e2e-bus-capture-${process.pid}-${Date.now()}` });
    const capture = new BusCapture(consumer);
    await consumer.connect();
    await consumer.subscribe({ topics, fromBeginning: false });
    await consumer.run({
      eachMessage: async ({ topic, message }) => {
        capture.captured.push({
          topic,
          key: message.key?.toString('utf8') ?? null,
          headers: headerTexts(message.headers),
          value: message.value && message.value.length > 0 ? JSON.parse(message.value.toString('utf8')) : null,
        });
      },
    });
    for (const { topic, partition, offset } of starts) consumer.seek({ topic, partition, offset });
    return capture;
  }

  messages(): CapturedMessage[] {
    return [...this.captured];
  }

  async stop(): Promise<void> {
    await this.consumer.disconnect();
  }
}

async function latestOffsets(admin: Admin, topics: string[]) {
  await admin.connect();
  try {
    const perTopic = await Promise.all(
      topics.map(async (topic) => (await admin.fetchTopicOffsets(topic)).map(({ partition, offset }) => ({ topic, partition, offset }))),
    );
    return perTopic.flat();
  } finally {
    await admin.disconnect();
  }
}

function headerTexts(headers: IHeaders | undefined): Record<string, string> {
  const texts: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers ?? {})) {
    if (value === undefined) continue;
    const first = Array.isArray(value) ? value[0] : value;
    texts[name] = typeof first === 'string' ? first : first.toString('utf8');
  }
  return texts;
}
