import type { Producer, ProducerRecord, RecordMetadata } from 'kafkajs';
import { GroupCommit } from '../database/group-commit';

/** Records written by one produce request at most. */
export const SENDS_PER_REQUEST = 64;

/**
 * Makes a producer's `send` coalesce: a record sent while an earlier produce request of this producer is
 * in flight waits for it, and every record that waited goes out in the next request (`sendBatch`, one
 * record batch per topic-partition), as group commit does for statements (group-commit.ts). A quiet
 * producer sends at once, so nothing waits that did not wait before.
 *
 * kafkajs sends each `send` as its own produce request, which the broker answers (and the consumers of the
 * partition are woken for) one by one. Nest's transport sends every command and every reply that way: at
 * 16 creates in flight, the gateway's commands and a service's replies were each a request of their own.
 *
 * Order is kept: records of one partition go out in the order they were sent, and a request leaves only
 * after the one before it was answered (the coalesced records never overtake each other). Each caller
 * resolves with the request's metadata for its record's topic.
 *
 * A failed request of several records is sent again one request per record (in their order, without waiting
 * for each other, as every send went before), so a record fails its caller only for what it would have
 * failed alone: a batch over the broker's `message.max.bytes` made of records under it, say. During a broker
 * outage that doubles the time a failed send takes to fail; its caller bounds it anyway (the command's
 * timeout; an unsent reply is dropped and the sender's retry gets the stored reply).
 * A request refused for one partition may have written another's records, which the retry then writes
 * again: a duplicate on the bus, as a kafkajs retry can make, and which every consumer already drops (a
 * command by its ledger, a reply by its correlation id, an event by its inbox).
 *
 * Only records with kafkajs' defaults (acks, timeout, compression) are coalesced; any other is sent alone.
 */
export function coalesceSends(producer: Producer, maxRecords = SENDS_PER_REQUEST): Producer {
  const sendAlone = producer.send.bind(producer);
  const requests = new GroupCommit<ProducerRecord, RecordMetadata[]>(
    async (records) => {
      const written = await producer.sendBatch({
        topicMessages: records.map(({ topic, messages }) => ({ topic, messages })),
      });
      return records.map(({ topic }) => written.filter((metadata) => metadata.topicName === topic));
    },
    maxRecords,
    { alone: sendAlone },
  );
  producer.send = (record) => (hasDefaultOptions(record) ? requests.submit(record) : sendAlone(record));
  return producer;
}

function hasDefaultOptions(record: ProducerRecord): boolean {
  return record.acks === undefined && record.timeout === undefined && record.compression === undefined;
}
