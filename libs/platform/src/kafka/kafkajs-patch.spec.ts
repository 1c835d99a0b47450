// kafkajs ships its internals as CommonJS without types; these tests drive the two classes
// patches/kafkajs+2.2.4.patch (applied by `postinstall`) changes. If an upgrade or a skipped postinstall loses
// the patch, the first test of each block fails.
/* eslint-disable @typescript-eslint/no-require-imports */
const RequestQueue = require('kafkajs/src/network/requestQueue') as new (options: object) => TestQueue;
const Runner = require('kafkajs/src/consumer/runner') as new (options: object) => TestRunner;
const Batch = require('kafkajs/src/consumer/batch') as new (
  topic: string,
  fetchedOffset: string,
  data: object,
) => object;
/* eslint-enable @typescript-eslint/no-require-imports */

interface TestQueue {
  pending: unknown[];
  throttleCheckTimeoutId: NodeJS.Timeout | null;
  checkPendingRequests(): void;
  push(request: { entry: { correlationId: number }; expectResponse: boolean; sendRequest: () => void }): void;
}

interface TestRunner {
  running: boolean;
  handleBatch(batch: object): Promise<void>;
  stop(): Promise<void>;
}

const quietLogger = {
  namespace: () => quietLogger,
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
};

/**
 * The request queue re-armed a 1 ms timer for the life of every connection once it had checked its queue,
 * pending requests or not (kafkajs#1556, #1704), about 4 % of a core per idle app and more under load.
 */
describe('kafkajs request queue (patched)', () => {
  const made: TestQueue[] = [];
  const queue = () => {
    const created = new RequestQueue({
      maxInFlightRequests: 1,
      requestTimeout: 30_000,
      clientId: 'test',
      broker: 'b',
      logger: quietLogger,
    });
    made.push(created);
    return created;
  };
  // An unpatched queue's timer would keep re-arming and hold Jest open: stop every queue's.
  afterEach(() => {
    for (const created of made.splice(0)) clearTimeout(created.throttleCheckTimeoutId ?? undefined);
  });

  it('arms no timer when nothing is pending', () => {
    const idle = queue();
    idle.checkPendingRequests();
    expect(idle.throttleCheckTimeoutId).toBeNull();
  });

  it('still schedules a check for a request waiting behind the in-flight limit', () => {
    const busy = queue();
    const sent: number[] = [];
    for (const correlationId of [1, 2])
      busy.push({
        entry: { correlationId },
        expectResponse: true,
        sendRequest: () => sent.push(correlationId),
      });
    expect(sent).toEqual([1]);
    expect(busy.pending).toHaveLength(1);
    expect(busy.throttleCheckTimeoutId).not.toBeNull();
  });
});

/** A consumer group that only records the calls a batch's handling makes. */
function recordingGroup(settings: { autoCommitInterval: number | null }) {
  const calls: string[] = [];
  const record = (name: string) => async () => {
    calls.push(name);
  };
  return {
    calls,
    group: {
      ...settings,
      autoCommitThreshold: null,
      groupId: 'g',
      memberId: 'm',
      commitOffsets: record('commitOffsets'),
      commitOffsetsIfNecessary: record('commitOffsetsIfNecessary'),
      heartbeat: record('heartbeat'),
      leave: record('leave'),
      resolveOffset: () => undefined,
      hasSeekOffset: () => false,
      isPaused: () => false,
      getNodeIds: () => [],
    },
  };
}

function runner(group: object): TestRunner {
  const made = new Runner({
    logger: quietLogger,
    consumerGroup: group,
    instrumentationEmitter: { emit: () => undefined },
    concurrency: 1,
    eachMessage: async () => undefined,
    onCrash: () => undefined,
  });
  made.running = true;
  return made;
}

const message = (offset: string) => ({
  offset,
  key: null,
  value: Buffer.from('x'),
  headers: {},
  timestamp: '0',
  attributes: 0,
});
const batchOf = (offsets: string[]) =>
  new Batch('t', offsets[0] ?? '0', { partition: 0, highWatermark: '10', messages: offsets.map(message) });

/**
 * The runner committed offsets after every batch whatever `autoCommitInterval` said; RUN_DEFAULTS
 * (kafka-factory.ts) sets an interval so that a consumer commits at most once per interval.
 */
describe('kafkajs offset commits (patched)', () => {
  it('leaves a handled batch to the interval when one is set', async () => {
    const { calls, group } = recordingGroup({ autoCommitInterval: 1000 });
    await runner(group).handleBatch(batchOf(['0', '1']));
    expect(calls).not.toContain('commitOffsets');
    expect(calls).toContain('commitOffsetsIfNecessary');
  });

  it('still commits after every batch without an interval or a threshold (kafkajs as shipped)', async () => {
    const { calls, group } = recordingGroup({ autoCommitInterval: null });
    await runner(group).handleBatch(batchOf(['0', '1']));
    expect(calls).toContain('commitOffsets');
  });

  it("commits an idle partition's resolved offsets once the interval is up (asks on an empty batch)", async () => {
    const { calls, group } = recordingGroup({ autoCommitInterval: 1000 });
    await runner(group).handleBatch(batchOf([]));
    expect(calls).toEqual(['commitOffsetsIfNecessary', 'heartbeat']);
  });

  it('commits what was resolved before leaving the group on a clean stop', async () => {
    const { calls, group } = recordingGroup({ autoCommitInterval: 1000 });
    await runner(group).stop();
    expect(calls).toEqual(['commitOffsets', 'leave']);
  });
});
