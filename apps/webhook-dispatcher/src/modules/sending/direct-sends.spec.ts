import pino from 'pino';
import { DispatcherConfig } from '../../config';
import { ClaimedDelivery } from '../deliveries/delivery.repository';
import { DeliveryProcessor, ProcessOutcome } from './delivery-processor';
import { DirectSends } from './direct-sends';

/** A processor whose attempts finish when the test says so. */
function controlledProcessor() {
  const pending: { id: string; finish: (outcome: ProcessOutcome | Error) => void }[] = [];
  const processor = {
    leaseMs: 7_000,
    attempt: (claimed: ClaimedDelivery) =>
      new Promise<ProcessOutcome>((resolve, reject) =>
        pending.push({
          id: claimed.delivery.deliveryId,
          finish: (outcome) => (outcome instanceof Error ? reject(outcome) : resolve(outcome)),
        }),
      ),
  };
  return { processor: processor as unknown as DeliveryProcessor, pending };
}

const claimedOf = (deliveryId: string) => ({ delivery: { deliveryId } }) as unknown as ClaimedDelivery;
/** Leases of 7 s (the stub's) and a 2 s HTTP deadline: a waiting delivery may start within 4 s. */
const config = (slots: number) =>
  ({ WEBHOOK_DIRECT_SENDS: slots, WEBHOOK_TIMEOUT_MS: 2_000 }) as DispatcherConfig;
const settled = () => new Promise((resolve) => setImmediate(resolve));
const silent = pino({ level: 'silent' });

describe('DirectSends', () => {
  it('grants its slots and four waiting places per slot, and a released place is granted again', () => {
    const { processor } = controlledProcessor();
    const direct = new DirectSends(processor, config(3), silent);

    expect(direct.reserve(10)).toBe(10);
    expect(direct.reserve(10)).toBe(5);
    expect(direct.reserve(1)).toBe(0);
    direct.release(2); // reserved pairs that inserted nothing
    expect(direct.reserve(4)).toBe(2);
  });

  it('sends at most its slots at once; the others wait and start in order as attempts finish, failed or not', async () => {
    const { processor, pending } = controlledProcessor();
    const direct = new DirectSends(processor, config(2), silent);
    expect(direct.reserve(5)).toBe(5);

    direct.start(['del_a', 'del_b', 'del_c', 'del_d', 'del_e'].map(claimedOf));
    expect(pending.map((attempt) => attempt.id)).toEqual(['del_a', 'del_b']);

    pending[0].finish('succeeded');
    pending[1].finish(new Error('postgres went away')); // left to the reconciler, the slot still frees
    await settled();
    expect(pending.map((attempt) => attempt.id)).toEqual(['del_a', 'del_b', 'del_c', 'del_d']);

    pending[2].finish('succeeded');
    await settled();
    expect(pending.map((attempt) => attempt.id)).toEqual(['del_a', 'del_b', 'del_c', 'del_d', 'del_e']);
    // Three of the five places are free again (two attempts are still in flight).
    expect(direct.reserve(10)).toBe(10 - 2);
  });

  describe('on a clock of the test', () => {
    beforeEach(() => jest.useFakeTimers({ doNotFake: ['setImmediate'] }));
    afterEach(() => jest.useRealTimers());

    it('does not start a waiting delivery its lease no longer covers, frees its place and says so', async () => {
      const { processor, pending } = controlledProcessor();
      const logger = { warn: jest.fn() };
      const direct = new DirectSends(processor, config(1), logger as unknown as typeof silent);
      expect(direct.reserve(3)).toBe(3);
      direct.start([claimedOf('del_a'), claimedOf('del_b')]);
      jest.advanceTimersByTime(3_000);
      direct.start([claimedOf('del_c')]);

      jest.advanceTimersByTime(1_001); // del_b may no longer start; del_c still may
      pending[0].finish('succeeded');
      await settled();
      expect(pending.map((attempt) => attempt.id)).toEqual(['del_a', 'del_c']);
      expect(logger.warn).toHaveBeenCalledWith(
        { deliveries: 1 },
        expect.stringContaining('the reconciler enqueues them'),
      );
      // del_a's and del_b's places are free; del_c holds one.
      expect(direct.reserve(10)).toBe(5 - 1);
    });
  });

  it('waits for attempts in flight at shutdown and drops those still waiting', async () => {
    const { processor, pending } = controlledProcessor();
    const direct = new DirectSends(processor, config(1), silent);
    expect(direct.reserve(2)).toBe(2);
    direct.start([claimedOf('del_a'), claimedOf('del_b')]);
    let stopped = false;
    const stopping = direct.onApplicationShutdown().then(() => (stopped = true));
    await settled();
    expect(stopped).toBe(false);
    pending[0].finish('rescheduled');
    await stopping;
    expect(stopped).toBe(true);
    expect(pending.map((attempt) => attempt.id)).toEqual(['del_a']);
  });

  it('sends nothing itself when configured with no slots', () => {
    const { processor } = controlledProcessor();
    expect(new DirectSends(processor, config(0), silent).reserve(10)).toBe(0);
  });
});
