// kafkajs ships its internals as CommonJS without types; this test drives the one class patches/ changes
// for offset commits, with a stand-in consumer group that records what the runner asks of it.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const Runner = require('kafkajs/src/consumer/runner') as new (options: object) => TestRunner;
// eslint-disable-next-line @typescript-eslint/no-require-imports
const Batch = require('kafkajs/src/consumer/batch') as new (topic: string, fetchedOffset: string, data: object) => object;

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

const message = (offset: string) => ({ offset, key: null, value: Buffer.from('x'), headers: {}, timestamp: '0', attributes: 0 });
const batchOf = (offsets: string[]) =>
  new Batch('t', offsets[0] ?? '0', { partition: 0, highWatermark: '10', messages: offsets.map(message) });

/**
 * patches/kafkajs+2.2.4.patch (applied by `postinstall`): kafkajs committed offsets after every batch whatever
 * `autoCommitInterval` said; RUN_DEFAULTS (kafka-factory.ts) sets an interval so that a consumer commits at
 * most once per interval. If an upgrade or a skipped postinstall loses the patch, the first test fails.
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
