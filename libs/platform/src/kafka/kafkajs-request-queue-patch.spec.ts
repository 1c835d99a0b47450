// kafkajs ships its internals as CommonJS without types; this test reaches into the one patch/ touches.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const RequestQueue = require('kafkajs/src/network/requestQueue') as new (options: object) => TestQueue;

interface TestQueue {
  pending: unknown[];
  throttleCheckTimeoutId: NodeJS.Timeout | null;
  checkPendingRequests(): void;
  push(request: { entry: { correlationId: number }; expectResponse: boolean; sendRequest: () => void }): void;
}

const silent = {
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
};

/**
 * patches/kafkajs+2.2.4.patch (applied by `postinstall`): kafkajs's request queue re-armed a 1 ms timer for
 * the life of every connection once it had checked its queue, pending requests or not (kafkajs#1556, #1704),
 * about 4 % of a core per idle app and more under load. If an upgrade or a skipped postinstall loses the
 * patch, the first test fails.
 */
describe('kafkajs request queue (patched)', () => {
  const made: TestQueue[] = [];
  const queue = () => {
    const created = new RequestQueue({
      maxInFlightRequests: 1,
      requestTimeout: 30_000,
      clientId: 'test',
      broker: 'b',
      logger: silent,
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
