import { webhookStageFigures, WebhookStamps } from './webhook-stages';

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
});
