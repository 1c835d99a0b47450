import { PaymentIntentView } from '@paygrid/contracts';
import { waitFor } from '@paygrid/testing';
import { CARDS, cardMethod, intentBody, useAcquiringE2eSettings } from '../acquiring/support/acquiring-e2e';
import { queryE2eDatabase } from '../support/databases';
import { killApp, startAppAgain } from '../support/stack-control';
import { runLedgerVerify } from '../support/ledger-verify';
import { SubAccount } from './support/payouts-e2e';

/**
 * The payouts service SIGKILLed mid-flight (issue 9): 50 payouts on the bank rail and 100 card payments
 * (200 ledger events: a capture and a settlement each) are in flight when it dies; after a restart every
 * event is applied exactly once, every payout reaches a final status having announced each step exactly
 * once, the balance is exact and `paygrid ledger verify` passes. The kill waits on an observed barrier
 * (the ledger has applied part of the payments), never on a sleep.
 */
const PAYMENTS = 100;
const PAYOUTS = { completing: 40, failing: 10 };

describe('payouts service killed mid-flight', () => {
  beforeAll(async () => {
    await useAcquiringE2eSettings();
  }, 120_000);

  const ledgerEntries = async (accountId: string, kind: string): Promise<number> => {
    const [row] = await queryE2eDatabase<{ n: number }>(
      'paygrid_payouts',
      `SELECT count(DISTINCT e.id)::int AS n FROM ledger_entries e
         JOIN ledger_postings p ON p.entry_id = e.id JOIN ledger_accounts a ON a.id = p.ledger_account_id
        WHERE a.owner_id = $1 AND e.kind = $2`,
      [accountId, kind],
    );
    return row.n;
  };

  it('applies every event once and finishes every payout after a SIGKILL', async () => {
    const account = await SubAccount.create('Payout Faults');
    await account.addBankAccount();
    await account.fundWithCard('25.00', '25.00');

    const created = await Promise.all([
      ...Array.from({ length: PAYOUTS.completing }, () => account.payout('0.50')),
      ...Array.from({ length: PAYOUTS.failing }, () => account.payout('0.13')),
    ]);
    expect(created.map((response) => response.status)).toEqual(Array(PAYOUTS.completing + PAYOUTS.failing).fill(200));

    const payments = (async () => {
      const intents: PaymentIntentView[] = [];
      for (let batch = 0; batch < PAYMENTS / 10; batch += 1) {
        const responses = await Promise.all(
          Array.from({ length: 10 }, () => account.post<PaymentIntentView>('/v2/payment_intents/create', intentBody({ amount: '1.00', payment_method: cardMethod(CARDS.visa) }))),
        );
        intents.push(...responses.map((response) => response.body));
      }
      return intents;
    })();

    // The barrier: the ledger is part-way through the payments when the service dies.
    await waitFor(async () => (await ledgerEntries(account.accountId, 'payment.captured')) >= 11, {
      timeoutMs: 60_000,
      intervalMs: 20,
      what: 'the ledger to apply some of the payments',
    });
    await killApp('payouts');
    const intents = await payments;
    expect(intents.filter((intent) => intent.intent_status === 'SUCCEEDED')).toHaveLength(PAYMENTS);
    await startAppAgain('payouts');

    const finals = await waitFor(async () => {
      const rows = await queryE2eDatabase<{ status: string; n: number }>(
        'paygrid_payouts',
        `SELECT status, count(*)::int AS n FROM payouts WHERE account_id = $1 GROUP BY status ORDER BY status`,
        [account.accountId],
      );
      return rows.every((row) => ['COMPLETED', 'FAILED_REFUNDED'].includes(row.status)) ? rows : undefined;
    }, { timeoutMs: 60_000, intervalMs: 200, what: 'every payout to reach a final status' });
    expect(finals).toEqual([
      { status: 'COMPLETED', n: PAYOUTS.completing },
      { status: 'FAILED_REFUNDED', n: PAYOUTS.failing },
    ]);
    await waitFor(async () => (await ledgerEntries(account.accountId, 'payment.settled')) === PAYMENTS + 1, {
      timeoutMs: 60_000,
      intervalMs: 200,
      what: 'every settlement to be applied',
    });
    expect(await ledgerEntries(account.accountId, 'payment.captured')).toBe(PAYMENTS + 1);
    // 25.00 + 100 × 1.00 − 40 × 0.50 paid out; the ten failed payouts came back.
    expect(await account.balance()).toEqual({ currency: 'USD', available_balance: '105.00', pending_balance: '0.00' });

    const announced = await queryE2eDatabase<{ n: number }>(
      'paygrid_payouts',
      `SELECT count(*)::int AS n FROM outbox WHERE message_key IN (SELECT payout_id FROM payouts WHERE account_id = $1) GROUP BY message_key`,
      [account.accountId],
    );
    const perPayout = announced.map((row) => row.n).sort();
    expect(perPayout).toEqual([...Array(PAYOUTS.completing).fill(3), ...Array(PAYOUTS.failing).fill(4)].sort());

    const verify = runLedgerVerify();
    expect(verify).toEqual({
      status: 0,
      stderr: '',
      stdout: expect.stringMatching(/^ledger verify: OK/m),
    });
  }, 300_000);
});
