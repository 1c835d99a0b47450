import { randomUUID } from 'node:crypto';
import { AccountCommand, AccountSettingsView, AccountView, PaymentIntentView } from '@paygrid/contracts';
import { waitFor } from '@paygrid/testing';
import { SANDBOX } from '../support/api-client';
import { queryE2eDatabase } from '../support/databases';
import { companySubAccount } from '../support/fixtures';
import { withOperatorBus } from '../support/operator-bus';
import { ACQUIRING_E2E_ENV, CARDS, cardMethod, Merchant, useAcquiringE2eSettings } from './support/acquiring-e2e';

/**
 * Issue 13 item 8 (decisions §7): an account's own capture window reaches acquiring. The accounts service
 * announces a settings change as account.settings.updated (with its settings_version); acquiring keeps it
 * and times the auto-capture of that account's authorisations by it. The e2e acquiring runs a test clock
 * (CAPTURE_WINDOW_HOUR_MS: one window hour lasts 2 s), so a 1-hour window closes in 2 s while accounts
 * without a setting keep CAPTURE_WINDOW_OVERRIDE_MS (6 s).
 */
const HOUR_MS = Number(ACQUIRING_E2E_ENV.CAPTURE_WINDOW_HOUR_MS);

describe('per-account capture window', () => {
  let merchant: Merchant;
  let subAccountId: string;

  beforeAll(async () => {
    await useAcquiringE2eSettings();
    merchant = await Merchant.of(SANDBOX.master);
    const created = await merchant.post<{ account_id: string }>('/v1/accounts/create_accounts', companySubAccount(`Window ${randomUUID().slice(0, 8)}`));
    if (created.status !== 200) throw new Error(`sub-account: ${created.status} ${created.text}`);
    subAccountId = created.body.account_id;
    await waitFor(async () => (await merchant.get<AccountView>(`/v1/accounts/${subAccountId}`)).body.status === 'ACTIVE', {
      what: 'the sandbox review to approve the sub-account',
    });
  }, 120_000);

  const setWindow = (hours: number) =>
    withOperatorBus((bus) =>
      bus.execute(AccountCommand.updateSettings, { account_id: subAccountId, capture_window_hours: hours }, { actor: null, commandId: `cmd_e2e_window_${randomUUID()}` }),
    );

  /** The window acquiring scheduled for an attempt: its auto_capture job's due time minus the authorisation. */
  async function scheduledWindowMs(attemptId: string): Promise<number> {
    const [row] = await queryE2eDatabase<{ window_ms: string }>(
      'paygrid_acquiring',
      `SELECT round(extract(epoch FROM j.due_at - a.authorized_at) * 1000)::text AS window_ms
         FROM durable_jobs j JOIN payment_attempts a ON a.attempt_id = j.subject_id
        WHERE j.kind = 'auto_capture' AND j.subject_id = $1`,
      [attemptId],
    );
    return Number(row.window_ms);
  }

  /** The master acting for its sub-account, as the SDK does with x-on-behalf-of. */
  const subHeaders = () => ({ 'x-on-behalf-of': subAccountId });

  it('captures a 1-hour account window when its hour ends, on the test clock', async () => {
    const settings: AccountSettingsView = await setWindow(1);
    expect(settings).toMatchObject({ account_id: subAccountId, capture_window_hours: 1 });
    await waitFor(
      async () => {
        const rows = await queryE2eDatabase<{ settings_version: number }>(
          'paygrid_acquiring',
          'SELECT settings_version FROM account_settings WHERE account_id = $1 AND capture_window_hours = 1',
          [subAccountId],
        );
        return rows[0]?.settings_version === settings.settings_version ? true : undefined;
      },
      { what: 'acquiring to learn the account window from account.settings.updated' },
    );

    const created = await merchant.post<PaymentIntentView>(
      '/v2/payment_intents/create',
      {
        amount: '30.00',
        currency: 'USD',
        merchant_order_id: `window-${randomUUID().slice(0, 8)}`,
        description: 'Window test',
        return_url: 'https://shop.example/return',
        payment_method: cardMethod(CARDS.visa, { auto_capture: false }),
      },
      { headers: subHeaders() },
    );
    expect(created.status).toBe(200);
    expect(created.body.intent_status).toBe('REQUIRES_CAPTURE');
    const attemptId = created.body.latest_payment_attempt?.attempt_id as string;
    expect(await scheduledWindowMs(attemptId)).toBe(1 * HOUR_MS);

    const captured = await waitFor(
      async () => {
        const current = await merchant.get<PaymentIntentView>(`/v2/payment_intents/${created.body.payment_intent_id}`, subHeaders());
        return current.body.intent_status === 'SUCCEEDED' ? current.body : undefined;
      },
      { timeoutMs: 30_000, intervalMs: 200, what: 'the auto-capture when the account window closes' },
    );
    expect(captured).toMatchObject({ captured_amount: '30.00' });
    expect(captured.latest_payment_attempt).toMatchObject({ attempt_status: 'CAPTURE_REQUESTED' });
  });

  it('keeps the default window for accounts without a setting of their own', async () => {
    const master = await merchant.createIntent({ payment_method: cardMethod(CARDS.visa, { auto_capture: false }) });
    expect(await scheduledWindowMs(master.latest_payment_attempt?.attempt_id as string)).toBe(Number(ACQUIRING_E2E_ENV.CAPTURE_WINDOW_OVERRIDE_MS));
  });

  it('announces a change once, with a higher settings_version, and nothing when the value does not change', async () => {
    const before: AccountSettingsView = await setWindow(3);
    const unchanged: AccountSettingsView = await setWindow(3);
    expect(unchanged).toEqual(before);
    const events = await waitFor(
      async () => {
        const rows = await queryE2eDatabase<{ payload: string }>(
          'paygrid_accounts',
          `SELECT payload FROM outbox WHERE payload::jsonb ->> 'event_name' = 'account.settings.updated' AND payload::jsonb ->> 'source_id' = $1 ORDER BY id`,
          [subAccountId],
        );
        return rows.length >= 2 ? rows.map((row) => JSON.parse(row.payload)) : undefined;
      },
      { what: 'the settings events in the accounts outbox' },
    );
    expect(events.map((event) => event.data.capture_window_hours)).toEqual([1, 3]);
    expect(events.map((event) => event.event_type)).toEqual(['OPERATIONS', 'OPERATIONS']);
    expect(events[1].data.settings_version).toBe(events[0].data.settings_version + 1);
  });
});
