import type { Producer, ProducerBatch, ProducerRecord, RecordMetadata } from 'kafkajs';
import { coalesceSends } from './coalesced-sends';

/** A producer whose requests the test answers by hand, recording what each one carried. */
function heldProducer() {
  const requests: { kind: 'send' | 'sendBatch'; topics: string[]; values: string[] }[] = [];
  const answers: ((outcome: Error | null) => void)[] = [];
  const answered = (topics: string[]) =>
    new Promise<RecordMetadata[]>((resolve, reject) =>
      answers.push((outcome) =>
        outcome
          ? reject(outcome)
          : resolve(topics.map((topicName) => ({ topicName, partition: 0, errorCode: 0 }))),
      ),
    );
  const valuesOf = (records: Pick<ProducerRecord, 'messages'>[]) =>
    records.flatMap((record) => record.messages.map((message) => String(message.value)));
  const producer = {
    send: (record: ProducerRecord) => {
      requests.push({ kind: 'send', topics: [record.topic], values: valuesOf([record]) });
      return answered([record.topic]);
    },
    sendBatch: (batch: ProducerBatch) => {
      const records = batch.topicMessages ?? [];
      requests.push({ kind: 'sendBatch', topics: records.map((r) => r.topic), values: valuesOf(records) });
      return answered(records.map((r) => r.topic));
    },
  } as unknown as Producer;
  return { producer: coalesceSends(producer), requests, answers };
}

const record = (topic: string, value: string): ProducerRecord => ({
  topic,
  messages: [{ key: value, value }],
});
const turn = () => new Promise((resolve) => setImmediate(resolve));

describe('coalesceSends', () => {
  it("sends a quiet moment's record at once, and the records sent meanwhile together in one request", async () => {
    const { producer, requests, answers } = heldProducer();
    const first = producer.send(record('commands', 'a'));
    expect(requests).toEqual([{ kind: 'sendBatch', topics: ['commands'], values: ['a'] }]);

    const waiting = [
      producer.send(record('commands', 'b')),
      producer.send(record('replies', 'c')),
      producer.send(record('commands', 'd')),
    ];
    await turn();
    expect(requests).toHaveLength(1);

    answers[0](null);
    expect(await first).toEqual([{ topicName: 'commands', partition: 0, errorCode: 0 }]);
    await turn();
    expect(requests[1]).toEqual({
      kind: 'sendBatch',
      topics: ['commands', 'replies', 'commands'],
      values: ['b', 'c', 'd'],
    });
    answers[1](null);
    const [b, c] = await Promise.all(waiting);
    expect(b.map((metadata) => metadata.topicName)).toEqual(['commands', 'commands']);
    expect(c.map((metadata) => metadata.topicName)).toEqual(['replies']);
  });

  it('sends again one record at a time after a failed request of several, failing only the record that fails alone', async () => {
    const { producer, requests, answers } = heldProducer();
    const first = producer.send(record('replies', 'a'));
    const big = producer.send(record('replies', 'too large together'));
    const small = producer.send(record('replies', 'b'));
    answers[0](null);
    await first;
    await turn();
    answers[1](
      new Error('The request included a message larger than the max message size the server will accept'),
    );
    await turn();
    expect(requests.slice(2)).toEqual([
      { kind: 'send', topics: ['replies'], values: ['too large together'] },
      { kind: 'send', topics: ['replies'], values: ['b'] },
    ]);
    answers[2](new Error('too large'));
    answers[3](null);
    await expect(big).rejects.toThrow('too large');
    expect(await small).toEqual([{ topicName: 'replies', partition: 0, errorCode: 0 }]);
  });

  it("rejects a lone record's failed request without sending it again", async () => {
    const { producer, requests, answers } = heldProducer();
    const lone = producer.send(record('commands', 'a'));
    answers[0](new Error('broker unreachable'));
    await expect(lone).rejects.toThrow('broker unreachable');
    expect(requests).toHaveLength(1);
  });

  it('sends a record with its own acks, timeout or compression by itself, at once', async () => {
    const { producer, requests } = heldProducer();
    void producer.send(record('commands', 'a'));
    void producer.send({ ...record('commands', 'acks'), acks: 1 });
    void producer.send({ ...record('commands', 'timeout'), timeout: 5_000 });
    expect(requests.map((request) => [request.kind, request.values[0]])).toEqual([
      ['sendBatch', 'a'],
      ['send', 'acks'],
      ['send', 'timeout'],
    ]);
  });
});
