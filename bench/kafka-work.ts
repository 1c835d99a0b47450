import { Kafka, logLevel } from 'kafkajs';

/**
 * Kafka's own count of offset commits: every committed offset of every consumer group is one record
 * appended to `__consumer_offsets`, so the sum of its partitions' high watermarks, read before and after a
 * run, counts the records the run's commits wrote (a group's join and sync add a few too). The broker is
 * shared: run the bench alone (the stack lock), as for the CPU figures.
 */
export async function offsetCommitRecords(brokers: string): Promise<number> {
  const admin = new Kafka({ clientId: 'bench-offsets', brokers: brokers.split(','), logLevel: logLevel.NOTHING }).admin();
  await admin.connect();
  try {
    const partitions = await admin.fetchTopicOffsets('__consumer_offsets');
    return partitions.reduce((sum, partition) => sum + Number(partition.high), 0);
  } finally {
    await admin.disconnect();
  }
}
