import { relayBatchFigures, webhookStageFigures, WebhookStamps } from './webhook-stages';

describe("the create bench's webhook stages", () => {
  const stamps = (eventId: string, committed: number, gaps: [number, number, number]): WebhookStamps => ({
    eventId,
    committed,
    relayed: committed + gaps[0],
    takenIn: committed + gaps[0] + gaps[1],
    postStarted: committed + gaps[0] + gaps[1] + gaps[2],
  });

  it('splits commit → arrival into relay, broker, intake and post, per delivery that arrived', () => {
    const figures = webhookStageFigures(
      [
        stamps('evt_1', 1_000, [10, 20, 5]),
        stamps('evt_2', 2_000, [30, 40, 15]),
        stamps('evt_lost', 3_000, [1, 1, 1]),
      ],
      new Map([
        ['evt_1', 1_000 + 35 + 7],
        ['evt_2', 2_000 + 85 + 9],
      ]),
    );

    expect(figures).toEqual({
      webhook_stage_deliveries: 2,
      webhook_stage_relay_p50_ms: 30,
      webhook_stage_relay_p99_ms: 30,
      webhook_stage_broker_p50_ms: 40,
      webhook_stage_broker_p99_ms: 40,
      webhook_stage_intake_p50_ms: 15,
      webhook_stage_intake_p99_ms: 15,
      webhook_stage_post_p50_ms: 9,
      webhook_stage_post_p99_ms: 9,
    });
  });

  it('gives zeros, not an error, when no delivery has every stamp', () => {
    expect(webhookStageFigures([stamps('evt_1', 1_000, [1, 2, 3])], new Map())).toMatchObject({
      webhook_stage_deliveries: 0,
      webhook_stage_relay_p99_ms: 0,
    });
  });

  describe("the relay's batches", () => {
    const relayedAt = (...starts: number[]) => starts.map((relayed) => ({ relayed }));

    it('counts a batch per distinct publication stamp, with its rows and the interval to the next batch', () => {
      // Three batches: three rows at 100, one at 130, two at 190.
      expect(relayBatchFigures(relayedAt(100, 100, 130, 100, 190, 190))).toEqual({
        relay_batches: 3,
        relay_batch_rows_p50: 2,
        relay_batch_interval_p50_ms: 60,
        relay_batch_interval_p99_ms: 60,
      });
    });

    it('leaves out a pause of more than a second: an idle relay is not a cycle', () => {
      expect(relayBatchFigures(relayedAt(0, 20, 1_520, 1_545))).toMatchObject({
        relay_batches: 4,
        relay_batch_interval_p50_ms: 25,
        relay_batch_interval_p99_ms: 25,
      });
    });

    it('gives zeros, not an error, without stamps', () => {
      expect(relayBatchFigures([])).toEqual({
        relay_batches: 0,
        relay_batch_rows_p50: 0,
        relay_batch_interval_p50_ms: 0,
        relay_batch_interval_p99_ms: 0,
      });
    });
  });
});
