import { randomUUID } from 'node:crypto';
import {
  BalanceView,
  Page,
  PayoutCommand,
  PayoutView,
  SANDBOX_SEED_DEFAULTS,
} from '@paygrid/contracts';
import { actorOf, refusalOf, resultOf, waitFor } from '@paygrid/testing';
import { SANDBOX_BANK_DETAILS } from './modules/sandbox-seed/sandbox-seed.service';
import { accountCreated, acquiringEvents, execute, PayoutsService, publish, startPayouts } from './test/payouts-service';

/**
 * The payouts service against the real Postgres and Kafka: settlement bank accounts, money in from
 * acquiring's events (exactly once, in any order), balances, payouts reserved at once and moved along
 * the sandbox bank rail with an event per status, and the ledger audit staying clean throughout.
 */
describe('payouts service', () => {
  let service: PayoutsService;

  beforeAll(async () => {
    service = await startPayouts();
  }, 120_000);

  afterAll(async () => {
    await service?.close();
  });

  /** The sandbox seed's USD account, as a merchant would send it. */
  const usBank = {
    currency: SANDBOX_BANK_DETAILS.currency,
    account_number: SANDBOX_BANK_DETAILS.accountNumber,
    bank_name: SANDBOX_BANK_DETAILS.bankName,
    swift_code: SANDBOX_BANK_DETAILS.swiftCode,
    bank_country_code: SANDBOX_BANK_DETAILS.bankCountryCode,
    bank_address: SANDBOX_BANK_DETAILS.bankAddress,
    bank_code_type: SANDBOX_BANK_DETAILS.bankCodeType,
    bank_code_value: SANDBOX_BANK_DETAILS.bankCodeValue,
  };

  async function balance(accountId: string, currency = 'USD'): Promise<BalanceView> {
    return resultOf(await execute(service, PayoutCommand.retrieveBalance, { currency }, actorOf(accountId)));
  }

  /** A merchant with a USD bank account and `amount` settled into its available balance. */
  async function fundedMerchant(amount: string): Promise<string> {
    const accountId = randomUUID();
    resultOf(await execute(service, PayoutCommand.createBankAccount, usBank, actorOf(accountId)));
    const attemptId = `att_${randomUUID()}`;
    const minor = BigInt(amount.replace('.', ''));
    await publish(service, 'acquiring', [acquiringEvents.captured(accountId, attemptId, amount), acquiringEvents.settled(accountId, attemptId, minor)]);
    await waitFor(async () => (await balance(accountId)).available_balance === amount, { what: `${amount} available` });
    return accountId;
  }

  async function payoutOf(accountId: string, id: string): Promise<PayoutView> {
    return resultOf(await execute(service, PayoutCommand.retrievePayout, { id }, actorOf(accountId)));
  }

  const outboxNames = async (sourceId: string): Promise<string[]> =>
    (
      await service.dataSource.query(`SELECT payload::jsonb->>'event_name' AS name FROM outbox WHERE message_key = $1 ORDER BY id`, [sourceId])
    ).map((row: { name: string }) => row.name);

  describe('settlement bank accounts', () => {
    it('creates, retrieves, lists and updates an account, named after its owner', async () => {
      const accountId = randomUUID();
      await publish(service, 'accounts', [accountCreated(accountId, 'P123456789', 'Acme Trading Pte Ltd')]);
      const actor = actorOf(accountId);
      const created = resultOf(await execute(service, PayoutCommand.createBankAccount, usBank, actor));
      expect(created).toMatchObject({ ...usBank, bank_branch_code: '', account_status: 'Valid' });
      expect(created.id).toMatch(/^[0-9a-f-]{36}$/);
      await waitFor(
        async () => resultOf(await execute(service, PayoutCommand.retrieveBankAccount, { id: created.id }, actor)).account_name === 'Acme Trading Pte Ltd',
        { what: 'the account name from the accounts event' },
      );
      const listed = resultOf(await execute(service, PayoutCommand.listBankAccounts, {}, actor));
      expect(listed).toMatchObject({ total_items: 1, total_pages: 1, data: [{ id: created.id }] });

      const { currency: _currency, ...update } = { ...usBank, bank_name: 'Other Bank', account_number: 'INVALID1234' };
      const updated = resultOf(await execute(service, PayoutCommand.updateBankAccount, { ...update, id: created.id }, actor));
      expect(updated).toMatchObject({ id: created.id, bank_name: 'Other Bank', currency: 'USD', account_status: 'Invalid' });
    });

    it('refuses a second account in the same currency and another account of an unknown id', async () => {
      const actor = actorOf();
      resultOf(await execute(service, PayoutCommand.createBankAccount, usBank, actor));
      expect(refusalOf(await execute(service, PayoutCommand.createBankAccount, usBank, actor)).body).toMatchObject({
        code: 'bank_account_exists',
      });
      const other = resultOf(await execute(service, PayoutCommand.createBankAccount, usBank, actorOf()));
      expect(refusalOf(await execute(service, PayoutCommand.retrieveBankAccount, { id: other.id }, actor)).body).toEqual({
        type: 'invalid_request_error',
        code: 'resource_not_found',
        message: 'bank account not found',
      });
    });

    it('refuses broken rules naming the field, and stores nothing', async () => {
      const actor = actorOf();
      const refused = refusalOf(await execute(service, PayoutCommand.createBankAccount, { ...usBank, bank_code_value: '1234' }, actor));
      expect(refused).toEqual({
        status: 400,
        body: { type: 'invalid_request_error', code: 'invalid_request_error', message: 'bank_code_value: must be exactly 9 digits for bank_code_type aba' },
      });
      expect(resultOf(await execute(service, PayoutCommand.listBankAccounts, {}, actor)).total_items).toBe(0);
    });

    it('re-checks an update against the stored currency: a CAD account keeps needing its branch code', async () => {
      const actor = actorOf();
      const cad = { ...usBank, currency: 'CAD', bank_country_code: 'CA', bank_code_type: 'bank_code', bank_code_value: '001', bank_branch_code: '00011' };
      const created = resultOf(await execute(service, PayoutCommand.createBankAccount, cad, actor));
      const { currency: _currency, bank_branch_code: _branch, ...update } = cad;
      expect(refusalOf(await execute(service, PayoutCommand.updateBankAccount, { ...update, id: created.id }, actor)).body.message).toBe(
        'bank_branch_code: is required for CAD accounts',
      );
    });

    it('gives the sandbox accounts a Valid USD account named after them', async () => {
      for (const seeded of Object.values(SANDBOX_SEED_DEFAULTS)) {
        const page = resultOf(await execute(service, PayoutCommand.listBankAccounts, {}, actorOf(seeded.accountId, SANDBOX_SEED_DEFAULTS.master.accountId)));
        expect(page.data).toEqual([expect.objectContaining({ currency: 'USD', account_status: 'Valid', account_name: seeded.accountName })]);
      }
    });
  });

  describe('balances from acquiring events', () => {
    it('credits a capture to pending and moves it to available at settlement, once whatever the redelivery', async () => {
      const accountId = randomUUID();
      const attemptId = `att_${randomUUID()}`;
      const captured = acquiringEvents.captured(accountId, attemptId, '25.00');
      await publish(service, 'acquiring', [captured, captured]);
      await waitFor(async () => (await balance(accountId)).pending_balance === '25.00', { what: 'the capture in pending' });
      const settled = acquiringEvents.settled(accountId, attemptId, 2500n);
      await publish(service, 'acquiring', [settled, settled, captured]);
      await waitFor(async () => (await balance(accountId)).available_balance === '25.00', { what: 'the settlement in available' });
      expect(await balance(accountId)).toEqual({ currency: 'USD', available_balance: '25.00', pending_balance: '0.00' });
    });

    it('applies a settlement that arrives before its capture exactly as in order', async () => {
      const accountId = randomUUID();
      const attemptId = `att_${randomUUID()}`;
      await publish(service, 'acquiring', [acquiringEvents.settled(accountId, attemptId, 1000n)]);
      await waitFor(async () => (await balance(accountId)).available_balance === '10.00', { what: 'the settlement' });
      const lateCapture = acquiringEvents.captured(accountId, attemptId, '10.00');
      await publish(service, 'acquiring', [lateCapture]);
      await waitFor(async () => (await service.dataSource.query('SELECT 1 FROM inbox WHERE event_id = $1', [lateCapture.event_id])).length === 1, {
        what: 'the late capture to be consumed',
      });
      expect(await balance(accountId)).toEqual({ currency: 'USD', available_balance: '10.00', pending_balance: '0.00' });
    });

    it('sets a refund aside at once, pays it out on success and gives it back on failure', async () => {
      const accountId = await fundedMerchant('50.00');
      await publish(service, 'acquiring', [acquiringEvents.refund('created', accountId, 're_1', 2000n), acquiringEvents.refund('created', accountId, 're_2', 500n)]);
      await waitFor(async () => (await balance(accountId)).available_balance === '25.00', { what: 'both refunds set aside' });
      await publish(service, 'acquiring', [acquiringEvents.refund('succeeded', accountId, 're_1', 2000n), acquiringEvents.refund('failed', accountId, 're_2', 500n)]);
      await waitFor(async () => (await balance(accountId)).available_balance === '30.00', { what: 'the failed refund back' });
    });

    it('answers zeros for a currency never held, and lists every currency held', async () => {
      const accountId = randomUUID();
      expect(await balance(accountId, 'JPY')).toEqual({ currency: 'JPY', available_balance: '0', pending_balance: '0' });
      await publish(service, 'acquiring', [
        acquiringEvents.captured(accountId, `att_${randomUUID()}`, '7.50', 'SGD'),
        acquiringEvents.captured(accountId, `att_${randomUUID()}`, '3', 'JPY'),
      ]);
      await waitFor(async () => (await balance(accountId, 'SGD')).pending_balance === '7.50', { what: 'SGD' });
      await waitFor(async () => (await balance(accountId, 'JPY')).pending_balance === '3', { what: 'JPY' });
      const page: Page<BalanceView> = resultOf(await execute(service, PayoutCommand.listBalances, {}, actorOf(accountId)));
      expect(page).toEqual({
        total_pages: 1,
        total_items: 2,
        data: [
          { currency: 'JPY', available_balance: '0', pending_balance: '3' },
          { currency: 'SGD', available_balance: '0.00', pending_balance: '7.50' },
        ],
      });
      expect(refusalOf(await execute(service, PayoutCommand.retrieveBalance, { currency: 'XXX1' }, actorOf(accountId))).status).toBe(400);
    });
  });

  describe('payouts', () => {
    const payout = { payout_currency: 'USD', statement_descriptor: 'ACME PAYOUT' };

    it('reserves at once and completes on the rail, announcing every status once', async () => {
      const accountId = await fundedMerchant('100.00');
      const created = resultOf(await execute(service, PayoutCommand.createPayout, { ...payout, payout_amount: '60.00', internal_note: 'weekly' }, actorOf(accountId)));
      expect(created).toMatchObject({ payout_currency: 'USD', payout_amount: '60.00', payout_status: 'INITIATED', completed_time: '', internal_note: 'weekly' });
      expect(created.payout_id).toMatch(/^po_/);
      expect((await balance(accountId)).available_balance).toBe('40.00');
      const done = await waitFor(async () => {
        const current = await payoutOf(accountId, created.payout_id);
        return current.payout_status === 'COMPLETED' ? current : undefined;
      }, { what: 'the payout to complete' });
      expect(Date.parse(done.completed_time)).toBeGreaterThan(0);
      expect(await outboxNames(created.payout_id)).toEqual(['acquiring.payout.created', 'payout.processing', 'payout.completed']);
      expect((await balance(accountId)).available_balance).toBe('40.00');
    });

    it('fails an amount ending in .13 on the rail and refunds it', async () => {
      const accountId = await fundedMerchant('20.00');
      const created = resultOf(await execute(service, PayoutCommand.createPayout, { ...payout, payout_amount: '10.13' }, actorOf(accountId)));
      expect((await balance(accountId)).available_balance).toBe('9.87');
      const refunded = await waitFor(async () => {
        const current = await payoutOf(accountId, created.payout_id);
        return current.payout_status === 'FAILED_REFUNDED' ? current : undefined;
      }, { what: 'the payout to be refunded' });
      expect(refunded).toMatchObject({ failure_reason: 'bank_rejected', completed_time: '' });
      expect((await balance(accountId)).available_balance).toBe('20.00');
      expect(await outboxNames(created.payout_id)).toEqual(['acquiring.payout.created', 'payout.processing', 'payout.failed', 'payout.failed_refunded']);
    });

    it('refuses a payout above the available balance and changes nothing', async () => {
      const accountId = await fundedMerchant('5.00');
      const refused = refusalOf(await execute(service, PayoutCommand.createPayout, { ...payout, payout_amount: '5.01' }, actorOf(accountId)));
      expect(refused).toEqual({
        status: 400,
        body: { type: 'account_error', code: 'account_balance_error', message: 'payout_amount: exceeds the available balance in payout_currency' },
      });
      expect((await balance(accountId)).available_balance).toBe('5.00');
      expect(resultOf(await execute(service, PayoutCommand.listPayouts, {}, actorOf(accountId))).total_items).toBe(0);
    });

    it('accepts exactly as many of 100 concurrent payouts as the balance covers', async () => {
      const accountId = await fundedMerchant('50.00');
      const replies = await Promise.all(
        Array.from({ length: 100 }, () => execute(service, PayoutCommand.createPayout, { ...payout, payout_amount: '1.00' }, actorOf(accountId))),
      );
      expect(replies.filter((reply) => reply.ok)).toHaveLength(50);
      expect(replies.filter((reply) => !reply.ok && reply.error.body.code === 'account_balance_error')).toHaveLength(50);
      expect((await balance(accountId)).available_balance).toBe('0.00');
    });

    it('pays out internally to the own account by long or short id, never to another', async () => {
      const accountId = await fundedMerchant('10.00');
      await publish(service, 'accounts', [accountCreated(accountId, 'P987654321', 'Internal Ltd')]);
      const actor = actorOf(accountId);
      const byLong = resultOf(await execute(service, PayoutCommand.createPayout, { ...payout, payout_amount: '1.00', payout_account_id: accountId }, actor));
      expect(byLong).toMatchObject({ payout_account_id: accountId, bank_account_id: '' });
      const byShort = await waitFor(async () => {
        const reply = await execute(service, PayoutCommand.createPayout, { ...payout, payout_amount: '1.00', payout_account_id: 'P987654321' }, actor);
        return reply.ok ? reply.result : undefined;
      }, { what: 'the short id to be known' });
      expect(byShort.payout_account_id).toBe(accountId);
      expect(refusalOf(await execute(service, PayoutCommand.createPayout, { ...payout, payout_amount: '1.00', payout_account_id: randomUUID() }, actor)).body.message).toBe(
        'payout_account_id: must be the id (long or short) of your own account level',
      );
    });

    it('refuses an external payout without a Valid settlement account in the currency', async () => {
      const accountId = randomUUID();
      expect(refusalOf(await execute(service, PayoutCommand.createPayout, { ...payout, payout_amount: '1.00' }, actorOf(accountId))).body.code).toBe(
        'bank_account_not_configured',
      );
      resultOf(await execute(service, PayoutCommand.createBankAccount, { ...usBank, account_number: 'INVALID0001' }, actorOf(accountId)));
      expect(refusalOf(await execute(service, PayoutCommand.createPayout, { ...payout, payout_amount: '1.00' }, actorOf(accountId))).body.code).toBe(
        'bank_account_invalid',
      );
    });

    it('answers a repeated command id with the first reply and reserves once', async () => {
      const accountId = await fundedMerchant('10.00');
      const commandId = `cmd-${randomUUID()}`;
      const first = resultOf(await execute(service, PayoutCommand.createPayout, { ...payout, payout_amount: '4.00' }, actorOf(accountId), commandId));
      const again = resultOf(await execute(service, PayoutCommand.createPayout, { ...payout, payout_amount: '4.00' }, actorOf(accountId), commandId));
      expect(again.payout_id).toBe(first.payout_id);
      expect((await balance(accountId)).available_balance).toBe('6.00');
    });
  });

  it('keeps the ledger audit clean', async () => {
    await waitFor(
      async () => (await service.dataSource.query(`SELECT count(*)::int AS n FROM payouts WHERE status IN ('INITIATED', 'PROCESSING', 'FAILED')`))[0].n === 0,
      { timeoutMs: 30_000, what: 'every payout to reach a final status' },
    );
    const report = resultOf(await execute(service, PayoutCommand.verifyLedger, {}, null));
    expect(report.discrepancies).toEqual([]);
    expect(report.accounts.length).toBeGreaterThan(5);
  });
});
