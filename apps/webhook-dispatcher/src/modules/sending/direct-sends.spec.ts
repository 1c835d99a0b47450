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
const config = (slots: number) => ({ WEBHOOK_DIRECT_SENDS: slots }) as DispatcherConfig;
const settled = () => new Promise((resolve) => setImmediate(resolve));

describe('DirectSends', () => {
  it('grants at most its slots, and a released or finished attempt frees its slot', async () => {
    const { processor, pending } = controlledProcessor();
    const direct = new DirectSends(processor, config(3), pino({ level: 'silent' }));

    expect(direct.reserve(2)).toBe(2);
    expect(direct.reserve(5)).toBe(1);
    expect(direct.reserve(1)).toBe(0);

    direct.release(1); // a reserved pair that inserted nothing
    expect(direct.reserve(4)).toBe(1);

    direct.start([claimedOf('del_a'), claimedOf('del_b'), claimedOf('del_c')]);
    expect(pending.map((attempt) => attempt.id)).toEqual(['del_a', 'del_b', 'del_c']);
    expect(direct.reserve(1)).toBe(0);

    pending[0].finish('succeeded');
    pending[1].finish(new Error('postgres went away')); // left to the reconciler, the slot still frees
    await settled();
    expect(direct.reserve(3)).toBe(2);
  });

  it('waits for attempts in flight at shutdown', async () => {
    const { processor, pending } = controlledProcessor();
    const direct = new DirectSends(processor, config(1), pino({ level: 'silent' }));
    direct.start([claimedOf('del_a')]);
    let stopped = false;
    const stopping = direct.onApplicationShutdown().then(() => (stopped = true));
    await settled();
    expect(stopped).toBe(false);
    pending[0].finish('rescheduled');
    await stopping;
    expect(stopped).toBe(true);
  });

  it('sends nothing itself when configured with no slots', () => {
    const { processor } = controlledProcessor();
    expect(new DirectSends(processor, config(0), pino({ level: 'silent' })).reserve(10)).toBe(0);
  });
});
