import { AcquiringAuditCommand, PaymentIntentView, SettledTotalsView } from '@paygrid/contracts';
import { actorOf, resultOf, waitFor } from '@paygrid/testing';
import { SANDBOX_CARDS } from '../connectors/sandbox.connector';
import { AcquiringService, intentBody, sealedCard, startAcquiring } from '../../test/acquiring-service';

/**
 * `acquiring.settlements.totals` (operators, no actor): every account's succeeded settlements per
 * currency, the side of `paygrid ledger verify` that finds settlements the payouts ledger never applied.
 */
describe('settled totals over every account', () => {
  let service: AcquiringService | undefined;
  afterAll(() => service?.close());

  it('counts and sums each account and currency once its payments settle', async () => {
    const running = await startAcquiring();
    service = running;
    const [first, second] = [actorOf(), actorOf()];
    const pay = async (actor: ReturnType<typeof actorOf>, amount: string, currency: string) => {
      const body = intentBody({ amount, currency, payment_method: sealedCard(running.config, { card_number: SANDBOX_CARDS.approvedVisa, cvc: '123' }) });
      return resultOf(await running.mutate<PaymentIntentView>('acquiring.payment_intents.create', body, { actor }));
    };
    const intents = [await pay(first, '10.00', 'USD'), await pay(first, '2.50', 'USD'), await pay(first, '700', 'JPY'), await pay(second, '1.25', 'USD')];
    expect(intents.map((intent) => intent.intent_status)).toEqual(['SUCCEEDED', 'SUCCEEDED', 'SUCCEEDED', 'SUCCEEDED']);

    const ours = new Set([first.account_id, second.account_id]);
    const totals = await waitFor(
      async () => {
        const reply = resultOf(await running.send<SettledTotalsView>(AcquiringAuditCommand.settledTotals.type, {}, { actor: null }));
        const mine = reply.totals.filter((total) => ours.has(total.account_id));
        return mine.reduce((sum, total) => sum + total.settlement_count, 0) === intents.length ? mine : undefined;
      },
      { what: 'the four payments to settle' },
    );
    expect(totals).toEqual(
      expect.arrayContaining([
        { account_id: first.account_id, currency: 'USD', settlement_count: 2, gross_minor: '1250' },
        { account_id: first.account_id, currency: 'JPY', settlement_count: 1, gross_minor: '700' },
        { account_id: second.account_id, currency: 'USD', settlement_count: 1, gross_minor: '125' },
      ]),
    );
    expect(totals).toHaveLength(3);
  });
});
