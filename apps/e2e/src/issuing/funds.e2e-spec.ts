import { randomUUID } from 'node:crypto';
import {
  IssuingBalanceTransactionView,
  IssuingBalanceView,
  IssuingFundsEvents,
  IssuingReportCreatedView,
  IssuingTransferCreatedView,
  IssuingTransferView,
  Page,
  SimulatedDepositView,
} from '@paygrid/contracts';
import { waitFor } from '@paygrid/testing';
import { api, isEnvelope, SANDBOX, tokenFor } from '../support/api-client';
import { Delivered, Issuer, issuingWebhooks } from './support/issuing-e2e';

/**
 * Issuing money through the gateway on the real stack (issue 11, part A): a deposit funds the master's SGD
 * issuing balance, a transfer moves part of it to a sub-account (both sides exact to the cent), a transfer the
 * source cannot cover is refused with nothing moved, every transfer status and the report are delivered once as
 * webhooks, and a report is produced and downloaded as CSV. The stack's balances persist between runs, so every
 * amount is checked as a change from what the test read first. Waits poll with a deadline.
 */
const sub = SANDBOX.sub1.accountId;

/** "1234.50" → 123450n: balances are strings with two decimals. */
const cents = (amount: string): bigint => BigInt(amount.replace('.', ''));

describe('issuing funds', () => {
  let issuer: Issuer;
  let forSub: Issuer;
  let webhooks: Awaited<ReturnType<typeof issuingWebhooks>>;

  beforeAll(async () => {
    issuer = await Issuer.of(SANDBOX.master);
    forSub = issuer.actingFor(sub);
    webhooks = await issuingWebhooks(issuer, '/issuing-funds', ['issuing.*']);
  }, 120_000);

  afterAll(async () => {
    await webhooks?.close();
  });

  async function balance(who: Issuer, currency = 'SGD'): Promise<IssuingBalanceView> {
    return who.ok(who.post<IssuingBalanceView>('/balances', { currency }));
  }

  async function transfer(who: Issuer, transferId: string): Promise<IssuingTransferView> {
    return who.ok(who.get<IssuingTransferView>(`/transfers/${transferId}`));
  }

  function delivered(sourceId: string, count: number): Promise<Delivered[]> {
    return waitFor(
      () => {
        const events = webhooks.events().filter((event) => event.source_id === sourceId);
        return events.length >= count ? events : undefined;
      },
      { what: `${count} webhooks of ${sourceId}`, timeoutMs: 30_000 },
    );
  }

  it('funds the master by a deposit, transfers to a sub-account, and both balances move exactly to the cent', async () => {
    const masterBefore = await balance(issuer);
    const subBefore = await balance(forSub);

    const deposit = await api<SimulatedDepositView>('POST', '/v1/simulation/deposit', {
      token: await tokenFor(SANDBOX.master),
      body: { amount: 100.01, currency: 'SGD', sender_swift_code: 'DBSSSGSG', sender_name: 'E2E Funding', sender_country: 'SG' },
    });
    expect(deposit.status).toBe(200);
    expect(deposit.body).toMatchObject({ amount: '100.01', currency: 'SGD', deposit_status: 'COMPLETED' });
    expect(cents((await balance(issuer)).available_balance) - cents(masterBefore.available_balance)).toBe(10001n);

    const created = await issuer.ok(
      issuer.post<IssuingTransferCreatedView>('/transfers', {
        source_account_id: SANDBOX.master.accountId,
        destination_account_id: sub,
        currency: 'SGD',
        amount: 12.34,
        remark: 'e2e float',
      }),
    );
    const done = await waitFor(
      async () => {
        const current = await transfer(issuer, created.transfer_id);
        return current.transfer_status === 'PENDING' ? undefined : current;
      },
      { what: 'the transfer to complete', timeoutMs: 20_000, intervalMs: 150 },
    );
    expect(done).toMatchObject({ transfer_status: 'COMPLETED', amount: '12.34', currency: 'SGD', source_account_id: SANDBOX.master.accountId, destination_account_id: sub });

    const masterAfter = await balance(issuer);
    const subAfter = await balance(forSub);
    expect(cents(masterAfter.available_balance) - cents(masterBefore.available_balance)).toBe(10001n - 1234n);
    expect(cents(subAfter.available_balance) - cents(subBefore.available_balance)).toBe(1234n);
    expect(masterAfter.frozen_balance).toBe(masterBefore.frozen_balance);

    // The sub-account's statement shows the transfer in, its ending balance the balance now.
    const incoming = await forSub.ok(forSub.get<Page<IssuingBalanceTransactionView>>('/balances/transactions?page_size=10&page_number=1&transaction_type=TRANSFER_IN&currency=SGD'));
    expect(incoming.data[0]).toMatchObject({ transaction_type: 'TRANSFER_IN', amount: 12.34, ending_balance: Number(subAfter.available_balance), transaction_status: 'COMPLETED' });

    // Each status of the transfer delivered once, as the SDK's webhook shape.
    const events = await delivered(created.transfer_id, 2);
    const seen = events.map((event) => [event.event_type, event.event_name, event.data.transfer_status]);
    expect(seen.sort((a, b) => String(a[2]).localeCompare(String(b[2])))).toEqual([
      ['ISSUING', IssuingFundsEvents.transferStatusChanged, 'COMPLETED'],
      ['ISSUING', IssuingFundsEvents.transferStatusChanged, 'PENDING'],
    ]);
    expect(new Set(events.map((event) => event.event_id)).size).toBe(2);
  }, 90_000);

  it('refuses a transfer the source cannot cover, with nothing moved or stored', async () => {
    const subBefore = await balance(forSub);
    const masterBefore = await balance(issuer);
    const listed = () => forSub.ok(forSub.get<Page<IssuingTransferView>>('/transfers?page_size=10&page_number=1'));
    const transfersBefore = (await listed()).total_items;
    const tooMuch = (Number(cents(subBefore.available_balance) + 100n) / 100).toFixed(2);

    const refused = await forSub.post('/transfers', {
      source_account_id: sub,
      destination_account_id: SANDBOX.master.accountId,
      currency: 'SGD',
      amount: Number(tooMuch),
    });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ type: 'account_error', code: 'insufficient_balance' });
    expect(await balance(forSub)).toEqual(subBefore);
    expect((await balance(issuer)).available_balance).toBe(masterBefore.available_balance);
    expect((await listed()).total_items).toBe(transfersBefore);
  }, 30_000);

  it('retrieves a balance by POST as a read, whatever idempotency key it carries, and refuses an unknown currency', async () => {
    const key = randomUUID();
    const first = await issuer.post<IssuingBalanceView>('/balances', { currency: 'SGD' }, { idempotencyKey: key });
    await api('POST', '/v1/simulation/deposit', { token: await tokenFor(SANDBOX.master), body: { amount: 0.07, currency: 'SGD', sender_swift_code: 'DBSSSGSG' } });
    const second = await issuer.post<IssuingBalanceView>('/balances', { currency: 'SGD' }, { idempotencyKey: key });
    expect(second.headers.get('x-idempotent-replayed')).toBeNull();
    expect(cents(second.body.available_balance) - cents(first.body.available_balance)).toBe(7n);

    const unknown = await issuer.post('/balances', { currency: 'EUR' });
    expect(unknown).toMatchObject({ status: 400, body: { type: 'account_error', code: 'account_balance_error' } });
    const list = await issuer.ok(issuer.get<Page<IssuingBalanceView>>('/balances?page_size=10&page_number=1'));
    expect(list.data.map((item) => item.currency)).toEqual(expect.arrayContaining(['SGD', 'USD']));
  });

  it('produces a report in the background, announces it once, and downloads it as CSV', async () => {
    const start = new Date(Date.now() - 10 * 60_000).toISOString();
    const end = new Date(Date.now() + 60_000).toISOString();
    const created = await issuer.ok(issuer.post<IssuingReportCreatedView>('/reports', { report_type: 'BALANCE_TRANSACTION', start_time: start, end_time: end }));
    const [announced] = await delivered(created.report_id, 1);
    expect(announced).toMatchObject({ event_name: IssuingFundsEvents.reportSucceeded, data: { report_id: created.report_id, report_status: 'SUCCEEDED' } });

    const file = await issuer.get(`/reports/${created.report_id}`);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toMatch(/^text\/csv/);
    const lines = file.text.trimEnd().split('\r\n');
    expect(lines[0]).toMatch(/^"create_time","transaction_id"/);
    expect(lines.length - 1).toBe((announced.data as { row_count: number }).row_count);
    expect(lines.some((line) => line.includes('"DEPOSIT"') && line.includes('"SGD"'))).toBe(true);

    const missing = await issuer.get(`/reports/${randomUUID()}`);
    expect(missing).toMatchObject({ status: 400, body: { code: 'resource_not_found' } });
  }, 60_000);

  it('refuses malformed bodies in an envelope and stores nothing', async () => {
    const bodies: [string, unknown][] = [
      ['/transfers', { source_account_id: 'x', destination_account_id: sub, currency: 'SGD', amount: 1 }],
      ['/transfers', { source_account_id: SANDBOX.master.accountId, destination_account_id: sub, currency: 'SGD', amount: 1.001 }],
      ['/transfers', { source_account_id: SANDBOX.master.accountId, destination_account_id: sub, currency: 'EUR', amount: 1 }],
      ['/reports', { report_type: 'SETTLEMENT', start_time: '2026-01-02T00:00:00Z', end_time: '2026-01-01T00:00:00Z' }],
      ['/reports', { report_type: 'OTHER', start_time: '2026-01-01T00:00:00Z', end_time: '2026-01-02T00:00:00Z' }],
      ['/balances', { currency: 'SGD', extra: true }],
    ];
    for (const [path, body] of bodies) {
      const answer = await issuer.post(path, body);
      expect({ path, status: answer.status, envelope: isEnvelope(answer.body) }).toEqual({ path, status: 400, envelope: true });
    }
    const deposit = await api('POST', '/v1/simulation/deposit', { token: await tokenFor(SANDBOX.master), body: { amount: 5, currency: 'SGD' } });
    expect(deposit.status).toBe(400);
    expect(isEnvelope(deposit.body)).toBe(true);
  });
});
