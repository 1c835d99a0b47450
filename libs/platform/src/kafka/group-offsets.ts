import { Kafka } from 'kafkajs';

/**
 * Pins where a brand-new consumer group starts: at the current end of each topic, committed
 * before the group's first member joins.
 *
 * Why: kafkajs resolves "latest" lazily, after the join, so a new group can skip messages produced
 * while it was joining (observed on a fresh broker: a service's first commands, a gateway's first
 * replies). Reading from the earliest offset instead would make a new group replay every retained
 * command. Committing "now" for partitions that have no committed offset gives neither problem;
 * partitions that already have one (an existing group, a running replica) are left untouched.
 */
export async function primeConsumerGroup(kafka: Kafka, groupId: string, topics: string[]): Promise<void> {
  const admin = kafka.admin();
  await admin.connect();
  try {
    const committed = await admin.fetchOffsets({ groupId, topics });
    for (const { topic, partitions } of committed) {
      const uncommitted = partitions.filter((partition) => partition.offset === '-1');
      if (uncommitted.length === 0) continue;
      const ends = await admin.fetchTopicOffsets(topic);
      const endOf = new Map(ends.map((end) => [end.partition, end.high]));
      try {
        await admin.setOffsets({
          groupId,
          topic,
          partitions: uncommitted.map(({ partition }) => ({ partition, offset: endOf.get(partition) ?? '0' })),
        });
      } catch (error) {
        // A member of the group is already active (another replica just started): it owns the offsets.
        if (!/active|rebalanc|UNKNOWN_MEMBER|member/i.test(String((error as Error).message))) throw error;
      }
    }
  } finally {
    await admin.disconnect();
  }
}
