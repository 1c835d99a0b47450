import { ensureTopics } from '@paygrid/platform';

/**
 * Creates every topic of libs/contracts on the brokers in KAFKA_BROKERS: the one-shot job that runs
 * before any app starts in Docker Compose (kafka-init) and Kubernetes (topics-job.yaml).
 */
const brokers = (process.env.KAFKA_BROKERS ?? '127.0.0.1:9092').split(',').map((broker) => broker.trim());

ensureTopics(brokers, Number(process.env.KAFKA_TOPICS_TIMEOUT_MS ?? 120_000))
  .then(() => process.stdout.write(`topics ready on ${brokers.join(',')}\n`))
  .catch((error: unknown) => {
    process.stderr.write(`topic creation failed: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  });
