import { warmUpSeconds, webhookLatencyByEvent } from './create-load';

describe("the create bench's webhook latency by event", () => {
  it('gives each event name its own p50 and p99, from arrival minus create_time', () => {
    const arrival = (eventName: string, createdAt: number, at: number) => ({
      path: '/a',
      eventName,
      eventId: '',
      createdAt,
      at,
    });
    const figures = webhookLatencyByEvent([
      arrival('acquiring.payment_intent.created', 1_000, 1_040),
      arrival('acquiring.payment_intent.created', 2_000, 2_060),
      arrival('acquiring.settlement.created', 1_000, 1_005),
      arrival('', 1_000, 1_001),
    ]);
    expect(figures).toEqual({
      webhook_p50_ms_unnamed: 1,
      webhook_p99_ms_unnamed: 1,
      webhook_p50_ms_acquiring_payment_intent_created: 60,
      webhook_p99_ms_acquiring_payment_intent_created: 60,
      webhook_p50_ms_acquiring_settlement_created: 5,
      webhook_p99_ms_acquiring_settlement_created: 5,
    });
  });
});

describe("the create bench's warm-up length (ACQUIRING_BENCH_WARM_UP_SECONDS)", () => {
  it('is 20 s when unset or blank, and the given whole seconds otherwise', () => {
    expect(warmUpSeconds(undefined)).toBe(20);
    expect(warmUpSeconds('  ')).toBe(20);
    expect(warmUpSeconds('80')).toBe(80);
  });

  it('refuses what is not whole seconds from 1 to 600, naming the variable', () => {
    for (const raw of ['0', '-5', '1.5', 'abc', '601'])
      expect(() => warmUpSeconds(raw)).toThrow(
        `ACQUIRING_BENCH_WARM_UP_SECONDS must be whole seconds from 1 to 600, got "${raw}"`,
      );
  });
});
