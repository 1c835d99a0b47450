import { DEFAULT_KAFKA_PREFIX, ensureTopics, KafkaNames } from '@paygrid/platform';

/**
 * Creates every topic of libs/contracts for the stack KAFKA_PREFIX (the apps' setting) on the brokers in
 * KAFKA_BROKERS: the one-shot job that runs before any app starts in Docker Compose (kafka-init) and
 * Kubernetes (topics-job.yaml).
 */
const brokers = (process.env.KAFKA_BROKERS ?? '127.0.0.1:9092').split(',').map((broker) => broker.trim());

async function main(): Promise<string> {
  const names = new KafkaNames(process.env.KAFKA_PREFIX || DEFAULT_KAFKA_PREFIX);
  await ensureTopics(brokers, names, Number(process.env.KAFKA_TOPICS_TIMEOUT_MS ?? 120_000));
  return names.prefix;
}

main()
  .then((prefix) => process.stdout.write(`topics of stack ${prefix} ready on ${brokers.join(',')}\n`))
  .catch((error: unknown) => {
    process.stderr.write(`topic creation failed: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  });
