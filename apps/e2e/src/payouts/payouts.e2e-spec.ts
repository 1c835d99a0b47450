import { randomUUID } from 'node:crypto';
import { BalanceView, BankAccountView, Page, PayoutView } from '@paygrid/contracts';
import { waitFor } from '@paygrid/testing';
import { SANDBOX } from '../support/api-client';
import { queryE2eDatabase } from '../support/databases';
import { Merchant, useAcquiringE2eSettings } from '../acquiring/support/acquiring-e2e';
import { runLedgerVerify } from '../support/ledger-verify';
import { payoutWebhooks, SubAccount, US_BANK_ACCOUNT } from './support/payouts-e2e';

/**
 * Payouts through the gateway on the real stack (issue 9): money in from a card payment, settled into
 * the available balance, paid out along the sandbox bank rail with a signed webhook per status; the
 * `.13` trigger failing and refunding; 100 racing payouts against a balance covering 50; bank accounts
 * and balances with their rules; and `paygrid ledger verify` agreeing with the API and acquiring.
 */
describe('payouts', () => {
  beforeAll(async () => {
    await useAcquiringE2eSettings();
  }, 120_000);

  it('pays out a settled card payment: INITIATED, PROCESSING, COMPLETED, each announced by a signed webhook', async () => {
    const account = await SubAccount.create('Payout Flow');
    expect((await account.addBankAccount()).status).toBe(200);
    const webhooks = await payoutWebhooks(account);
    try {
      expect(await account.balance()).toEqual({ currency: 'USD', available_balance: '0.00', pending_balance: '0.00' });
      await account.fundWithCard('80.00', '80.00');
      const created = await account.payout('50.00', { internal_note: 'first payout' });
      expect(created.status).toBe(200);
      expect(created.body).toMatchObject({ payout_status: 'INITIATED', payout_amount: '50.00', payout_currency: 'USD', completed_time: '', internal_note: 'first payout' });
      expect(await account.balance()).toMatchObject({ available_balance: '30.00' });
      const completed = await account.waitForPayout(created.body.payout_id, 'COMPLETED');
      expect(Date.parse(completed.completed_time)).toBeGreaterThanOrEqual(Date.parse(completed.create_time));
      const delivered = await waitFor(
        () => {
          const events = webhooks.events(created.body.payout_id);
          return events.length >= 3 ? events : undefined;
        },
        { timeoutMs: 30_000, intervalMs: 200, what: 'the three payout webhooks' },
      );
      expect(delivered.map((event) => event.event_name).sort()).toEqual(['acquiring.payout.created', 'payout.completed', 'payout.processing']);
      expect(new Set(delivered.map((event) => event.event_type))).toEqual(new Set(['PAYOUT']));
      expect(delivered.find((event) => event.event_name === 'payout.completed')?.data).toMatchObject({ payout_status: 'COMPLETED', payout_amount: '50.00' });
      expect(await account.balance()).toEqual({ currency: 'USD', available_balance: '30.00', pending_balance: '0.00' });
      const listed = await account.get<Page<PayoutView>>('/v2/payment/payouts?payout_status=COMPLETED');
      expect(listed.body).toMatchObject({ total_items: 1, data: [{ payout_id: created.body.payout_id }] });
    } finally {
      await webhooks.close();
    }
  });

  it('fails a payout ending in .13 and gives the money back (FAILED_REFUNDED)', async () => {
    const account = await SubAccount.create('Payout Fails');
    await account.addBankAccount();
    const webhooks = await payoutWebhooks(account);
    try {
      await account.fundWithCard('20.00', '20.00');
      const created = await account.payout('12.13');
      expect(created.status).toBe(200);
      expect(await account.balance()).toMatchObject({ available_balance: '7.87' });
      const refunded = await account.waitForPayout(created.body.payout_id, 'FAILED_REFUNDED');
      expect(refunded).toMatchObject({ failure_reason: 'bank_rejected', completed_time: '' });
      expect(await account.balance()).toMatchObject({ available_balance: '20.00' });
      const names = await waitFor(
        () => {
          const events = webhooks.events(created.body.payout_id).map((event) => event.event_name);
          return events.length >= 4 ? events.sort() : undefined;
        },
        { timeoutMs: 30_000, intervalMs: 200, what: 'the four payout webhooks' },
      );
      expect(names).toEqual(['acquiring.payout.created', 'payout.failed', 'payout.failed_refunded', 'payout.processing']);
    } finally {
      await webhooks.close();
    }
  });

  it('accepts exactly 50 of 100 concurrent payouts against a balance that covers 50, never going negative', async () => {
    const account = await SubAccount.create('Payout Race');
    await account.addBankAccount();
    await account.fundWithCard('50.00', '50.00');
    const responses = await Promise.all(Array.from({ length: 100 }, () => account.payout('1.00')));
    const accepted = responses.filter((response) => response.status === 200);
    const refused = responses.filter((response) => response.status === 400);
    expect(accepted).toHaveLength(50);
    expect(refused).toHaveLength(50);
    expect(refused.every((response) => (response.body as unknown as { code: string }).code === 'account_balance_error')).toBe(true);
    expect(await account.balance()).toMatchObject({ available_balance: '0.00' });
    const stored = await queryE2eDatabase<{ n: number }>('paygrid_payouts', 'SELECT count(*)::int AS n FROM payouts WHERE account_id = $1', [account.accountId]);
    expect(stored[0].n).toBe(50);
    const negative = await queryE2eDatabase('paygrid_payouts', 'SELECT 1 FROM ledger_postings p JOIN ledger_accounts a ON a.id = p.ledger_account_id WHERE a.owner_id = $1 AND NOT a.allows_negative AND p.balance_after < 0', [account.accountId]);
    expect(negative).toEqual([]);
  });

  it('pays out internally to the own account by its short id, and refuses another account', async () => {
    const account = await SubAccount.create('Payout Internal');
    await account.fundWithCard('10.00', '10.00');
    const internal = await account.payout('4.00', { payout_account_id: account.shortReferenceId });
    expect(internal.status).toBe(200);
    expect(internal.body).toMatchObject({ payout_account_id: account.accountId, bank_account_id: '' });
    await account.waitForPayout(internal.body.payout_id, 'COMPLETED');
    const toOther = await account.payout('1.00', { payout_account_id: SANDBOX.master.accountId });
    expect(toOther.status).toBe(400);
    expect(toOther.body).toMatchObject({ message: 'payout_account_id: must be the id (long or short) of your own account level' });
    const noBank = await account.payout('1.00');
    expect(noBank.body).toMatchObject({ code: 'bank_account_not_configured' });
    expect(await account.balance()).toMatchObject({ available_balance: '6.00' });
  });

  it('manages settlement bank accounts with the rules of spec 4.3 as field-level 400s, storing nothing refused', async () => {
    const account = await SubAccount.create('Bank Accounts');
    const refusals = await Promise.all([
      account.addBankAccount({ bank_code_value: '12345' }),
      account.addBankAccount({ currency: 'GBP', bank_country_code: 'GB', bank_code_type: 'aba' }),
      account.addBankAccount({ currency: 'CAD', bank_country_code: 'CA', bank_code_type: 'bank_code', bank_code_value: '001' }),
      account.addBankAccount({ account_number: 'AB-12' }),
      account.addBankAccount({ swift_code: 'CHASUS3' }),
      account.addBankAccount({ nickname: 'extra' }),
    ]);
    expect(refusals.map((response) => [response.status, (response.body as { message: string }).message])).toEqual([
      [400, 'bank_code_value: must be exactly 9 digits for bank_code_type aba'],
      [400, 'bank_code_type: must be sort_code for GBP accounts'],
      [400, 'bank_branch_code: is required for CAD accounts'],
      [400, 'account_number: must contain only letters and digits'],
      [400, 'swift_code: must be longer than or equal to 8 characters'],
      [400, 'nickname: is not an accepted field'],
    ]);
    expect((await account.get<Page<BankAccountView>>('/v2/payment/bankaccount')).body.total_items).toBe(0);

    const created = await account.addBankAccount();
    expect(created.status).toBe(200);
    const id = String(created.body.id);
    const named = await waitFor(async () => {
      const current = await account.get<BankAccountView>(`/v2/payment/bankaccount/${id}`);
      return current.body.account_name === account.name ? current.body : undefined;
    }, { what: 'the account name from the accounts events' });
    expect(named).toMatchObject({ ...US_BANK_ACCOUNT, account_status: 'Valid' });
    const { currency: _currency, ...update } = US_BANK_ACCOUNT;
    const updated = await account.post<BankAccountView>(`/v2/payment/bankaccount/${id}`, { ...update, bank_name: 'Renamed Bank' });
    expect(updated.body).toMatchObject({ id, bank_name: 'Renamed Bank', currency: 'USD' });
    const master = await Merchant.of(SANDBOX.master);
    expect((await master.get(`/v2/payment/bankaccount/${id}`)).body).toMatchObject({ code: 'resource_not_found' });
    expect((await account.get('/v2/payment/bankaccount/not-a-uuid')).body).toMatchObject({ message: 'id: must be a uuid' });
  });

  it('answers balances per account and currency: zeros never held, 400 for an invalid code, nothing of another account', async () => {
    const account = await SubAccount.create('Balances');
    await account.fundWithCard('3.00', '3.00');
    expect(await account.balance('JPY')).toEqual({ currency: 'JPY', available_balance: '0', pending_balance: '0' });
    expect((await account.get('/v2/payment/balances/usd')).status).toBe(400);
    const list = await account.get<Page<BalanceView>>('/v2/payment/balances');
    expect(list.body).toEqual({ total_pages: 1, total_items: 1, data: [{ currency: 'USD', available_balance: '3.00', pending_balance: '0.00' }] });
    const stranger = await (await Merchant.of(SANDBOX.master)).get('/v2/payment/balances/USD', { 'x-on-behalf-of': randomUUID() });
    expect(stranger.body).toMatchObject({ code: 'sub_account_not_found' });
    expect((await account.get('/v2/payment/balances?page_size=5')).status).toBe(400);
  });

  it('passes paygrid ledger verify: postings, API balances and acquiring settlements agree', () => {
    const run = runLedgerVerify();
    expect(run).toEqual({ status: 0, stderr: '', stdout: expect.stringMatching(/^ledger verify: OK/m) });
  }, 120_000);
});
