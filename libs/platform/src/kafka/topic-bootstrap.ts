/**
 * Readiness and topic bootstrap for the local/CI Kafka broker (deploy/local/kafka/kafka-up.sh).
 *
 * - `waitForKafka`: connect + describeCluster, retried until the deadline.
 * - `ensureTopics`: waitForKafka, then create every topic of one stack (`allTopics()` of libs/contracts under
 *   the stack's prefix, see KafkaNames) that does not exist yet (RF 1, waiting for leaders), then warm up the
 *   group coordinator so that the first consumer join is fast.
 * - `deleteStackTopics`: removes every topic of a throwaway stack (a test file's, an e2e or bench run's).
 *
 * Topics must exist before any app subscribes: on KRaft, auto-creation answers UNKNOWN_TOPIC_OR_PARTITION,
 * which kafkajs 2.2.4's consumer.subscribe() does not retry (docs/kafka-local.md, pitfall P1).
 *
 * kafkajs logs are kept in memory and shown only in the error thrown on final failure. This module creates
 * no producer, so kafkajs's "switched default partitioner" warning cannot fire here; apps silence it with
 * `createPartitioner` or KAFKAJS_NO_PARTITIONER_WARNING=1.
 */
import { Kafka, logLevel, type Admin, type LogEntry } from 'kafkajs';
import { KafkaNames } from './kafka-names';

/** A group that never has members: describing it makes the broker create and load `__consumer_offsets`. */
const WARMUP_GROUP = 'paygrid-warmup';
const RECENT_LOG_LINES = 10;

/** One bounded run against the broker: a quiet kafkajs client, the deadline, and kafkajs's recent log lines. */
interface Session {
  brokers: string[];
  timeoutMs: number;
  deadline: number;
  kafka: Kafka;
  /** Distinct recent kafkajs log lines (ERROR level), shown only in the final error. */
  recentLogs: string[];
}

function openSession(brokers: string[], timeoutMs: number, clientId: string): Session {
  const recentLogs: string[] = [];
  const kafka = new Kafka({
    clientId,
    brokers,
    logLevel: logLevel.ERROR,
    logCreator:
      () =>
      ({ namespace, log }: LogEntry) => {
        // Retry loops repeat the same lines: keep each distinct line once, most recent last.
        const line = `${namespace}: ${log.message}`;
        const seen = recentLogs.indexOf(line);
        if (seen >= 0) recentLogs.splice(seen, 1);
        recentLogs.push(line);
        if (recentLogs.length > RECENT_LOG_LINES) recentLogs.shift();
      },
    connectionTimeout: 1000,
    requestTimeout: 10000,
    // Every step has its own deadline-bounded retry loop (retryUntil); nested kafkajs retries would blur it.
    retry: { retries: 0 },
  });
  return { brokers, timeoutMs, deadline: Date.now() + timeoutMs, kafka, recentLogs };
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** Runs `step` until it resolves; once the session's deadline has passed, throws with the last error. */
async function retryUntil<T>(s: Session, what: string, step: () => Promise<T>): Promise<T> {
  let delay = 100;
  for (;;) {
    try {
      return await step();
    } catch (err) {
      const left = s.deadline - Date.now();
      if (left <= 0) {
        const logs = s.recentLogs.length ? `\nrecent kafkajs log:\n  ${s.recentLogs.join('\n  ')}` : '';
        throw new Error(
          `Kafka at ${s.brokers.join(',')}: ${what} did not succeed within ${s.timeoutMs} ms: ${messageOf(err)}${logs}`,
          { cause: err },
        );
      }
      // The last attempt runs at the deadline.
      await sleep(Math.min(delay, left));
      delay = Math.min(delay * 2, 1000);
    }
  }
}

/** Connects an admin client once the broker answers describeCluster; the caller disconnects it. */
function connectAdmin(s: Session): Promise<Admin> {
  return retryUntil(s, 'connect + describeCluster', async () => {
    const admin = s.kafka.admin({ retry: { retries: 0 } });
    try {
      await admin.connect();
      const cluster = await admin.describeCluster();
      if (cluster.brokers.length === 0) throw new Error('describeCluster returned no brokers');
      return admin;
    } catch (err) {
      await admin.disconnect().catch(() => undefined);
      throw err;
    }
  });
}

/** Resolves once a broker at `brokers` answers connect + describeCluster; rejects after `timeoutMs`. */
export async function waitForKafka(brokers: string[], timeoutMs: number): Promise<void> {
  const admin = await connectAdmin(openSession(brokers, timeoutMs, 'paygrid-wait-for-kafka'));
  await admin.disconnect();
}

/**
 * Waits for the broker, creates every topic of the stack `names` that does not exist yet (replication
 * factor 1, partitions as declared in @paygrid/contracts), then warms up the group coordinator. Idempotent;
 * existing topics are kept (one with fewer partitions than declared, e.g. auto-created by an app that started
 * first, is grown to the declared count). Everything happens within `timeoutMs`.
 */
export async function ensureTopics(brokers: string[], names: KafkaNames, timeoutMs = 60000): Promise<void> {
  const s = openSession(brokers, timeoutMs, 'paygrid-ensure-topics');
  const wanted = names.topics();
  const admin = await connectAdmin(s);
  try {
    await retryUntil(s, 'create topics', async () => {
      const existing = new Set(await admin.listTopics());
      const missing = wanted.filter((t) => !existing.has(t.name));
      if (missing.length > 0) {
        await admin.createTopics({
          waitForLeaders: true,
          timeout: Math.max(1000, Math.min(10000, s.deadline - Date.now())),
          topics: missing.map((t) => ({ topic: t.name, numPartitions: t.partitions, replicationFactor: 1 })),
        });
      }
      // kafkajs's waitForLeaders only retries LEADER_NOT_AVAILABLE: check every partition has a leader.
      const { topics } = await admin.fetchTopicMetadata({ topics: wanted.map((t) => t.name) });
      const partitionsOf = new Map(topics.map((m) => [m.name, m.partitions]));
      const invisible = wanted.filter((t) => !partitionsOf.has(t.name)).map((t) => t.name);
      if (invisible.length > 0) throw new Error(`not in the metadata yet: ${invisible.join(', ')}`);
      const short = wanted.filter((t) => (partitionsOf.get(t.name)?.length ?? 0) < t.partitions);
      if (short.length > 0) {
        await admin.createPartitions({
          topicPartitions: short.map((t) => ({ topic: t.name, count: t.partitions })),
        });
        throw new Error(`grew ${short.map((t) => t.name).join(', ')} to the declared partition count`);
      }
      const leaderless = topics.filter((m) => m.partitions.some((p) => p.leader < 0)).map((m) => m.name);
      if (leaderless.length > 0) throw new Error(`no leader yet for a partition of ${leaderless.join(', ')}`);
    });
    // The first FindCoordinator makes the broker create __consumer_offsets; until it is loaded, group calls
    // fail with "The group coordinator is not available". Pay that here rather than in the first app join.
    await retryUntil(s, 'group coordinator warm-up', () => admin.describeGroups([WARMUP_GROUP]));
  } finally {
    await admin.disconnect().catch(() => undefined);
  }
}

/**
 * Deletes every topic of the stack `names` (its consumer groups go with their offsets). For stacks that
 * live as long as one test file or one run; a topic another stack owns is never touched, since names
 * carry the prefix as their own first segment.
 */
export async function deleteStackTopics(brokers: string[], names: KafkaNames, timeoutMs = 30000): Promise<void> {
  const s = openSession(brokers, timeoutMs, 'paygrid-delete-topics');
  const admin = await connectAdmin(s);
  try {
    await retryUntil(s, 'delete topics', async () => {
      const ours = (await admin.listTopics()).filter((topic) => names.owns(topic));
      if (ours.length > 0) await admin.deleteTopics({ topics: ours, timeout: Math.max(1000, s.deadline - Date.now()) });
    });
  } finally {
    await admin.disconnect().catch(() => undefined);
  }
}
