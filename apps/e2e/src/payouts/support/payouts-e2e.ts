import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import { BalanceView, CreatedWebhookEndpointView, DomainEvent, PaymentIntentView, PayoutView } from '@paygrid/contracts';
import { waitFor, WebhookReceiver } from '@paygrid/testing';
import { ApiResponse, SANDBOX } from '../../support/api-client';
import { companySubAccount } from '../../support/fixtures';
import { CARDS, cardMethod, intentBody, Merchant } from '../../acquiring/support/acquiring-e2e';

/**
 * What the payouts e2e suites share: a fresh sub-account of the sandbox master for each scenario (so its
 * balances start at zero and no other suite's payments touch them), reached with the master's key and
 * x-on-behalf-of like an SDK caller would, and helpers to fund it through a real card payment and to
 * follow a payout to its final status.
 */
export const US_BANK_ACCOUNT = {
  currency: 'USD',
  account_number: '000987654321',
  bank_name: 'E2E Bank',
  swift_code: 'CHASUS33',
  bank_country_code: 'US',
  bank_address: '1 Main Street, New York',
  bank_code_type: 'aba',
  bank_code_value: '021000021',
};

export class SubAccount {
  private constructor(
    private readonly master: Merchant,
    readonly accountId: string,
    readonly shortReferenceId: string,
    readonly name: string,
  ) {}

  /** A new, approved sub-account of the sandbox master. */
  static async create(label: string): Promise<SubAccount> {
    const master = await Merchant.of(SANDBOX.master);
    const nickname = `${label} ${randomUUID().slice(0, 8)}`;
    const body = companySubAccount(nickname);
    const created = await master.post<{ account_id: string; short_reference_id: string }>('/v1/accounts/create_accounts', body);
    if (created.status !== 200) throw new Error(`sub-account: ${created.status} ${created.text}`);
    await waitFor(async () => (await master.get<{ status: string }>(`/v1/accounts/${created.body.account_id}`)).body.status === 'ACTIVE', {
      what: 'the sandbox review to approve the sub-account',
    });
    return new SubAccount(master, created.body.account_id, created.body.short_reference_id, body.company_info.legal_business_name_english);
  }

  get<T = Record<string, unknown>>(path: string): Promise<ApiResponse<T>> {
    return this.master.get<T>(path, { 'x-on-behalf-of': this.accountId });
  }

  post<T = Record<string, unknown>>(path: string, body: unknown, idempotencyKey?: string): Promise<ApiResponse<T>> {
    return this.master.post<T>(path, body, { headers: { 'x-on-behalf-of': this.accountId }, idempotencyKey });
  }

  async balance(currency = 'USD'): Promise<BalanceView> {
    const response = await this.get<BalanceView>(`/v2/payment/balances/${currency}`);
    if (response.status !== 200) throw new Error(`balance: ${response.status} ${response.text}`);
    return response.body;
  }

  /** Pays `amount` with an approved card and waits until it has settled into the available balance. */
  async fundWithCard(amount: string, expectedAvailable: string): Promise<PaymentIntentView> {
    const intent = await this.post<PaymentIntentView>('/v2/payment_intents/create', intentBody({ amount, payment_method: cardMethod(CARDS.visa) }));
    if (intent.status !== 200 || intent.body.intent_status !== 'SUCCEEDED') throw new Error(`payment: ${intent.status} ${intent.text}`);
    await waitFor(async () => (await this.balance()).available_balance === expectedAvailable, {
      timeoutMs: 30_000,
      intervalMs: 200,
      what: `${expectedAvailable} USD available after the settlement`,
    });
    return intent.body;
  }

  async addBankAccount(overrides: Record<string, unknown> = {}): Promise<ApiResponse<Record<string, unknown>>> {
    return this.post('/v2/payment/bankaccount/create', { ...US_BANK_ACCOUNT, ...overrides });
  }

  payout(amount: string, extra: Record<string, unknown> = {}): Promise<ApiResponse<PayoutView>> {
    return this.post<PayoutView>('/v2/payment/payout/create', { payout_currency: 'USD', payout_amount: amount, statement_descriptor: 'E2E PAYOUT', ...extra });
  }

  /** Polls the payout until it reaches `status` (deadline, never a fixed sleep). */
  waitForPayout(id: string, status: PayoutView['payout_status']): Promise<PayoutView> {
    return waitFor(
      async () => {
        const current = await this.get<PayoutView>(`/v2/payment/payout/${id}`);
        return current.body.payout_status === status ? current.body : undefined;
      },
      { timeoutMs: 30_000, intervalMs: 200, what: `payout ${id} to be ${status}` },
    );
  }
}

/** A webhook receiver subscribed to the sub-account's payout events; `close` removes both. */
export async function payoutWebhooks(account: SubAccount): Promise<{
  events(payoutId: string): DomainEvent[];
  close(): Promise<void>;
}> {
  const receiver = await WebhookReceiver.start();
  const created = await account.post<CreatedWebhookEndpointView>('/v1/webhooks/endpoints', {
    url: receiver.url('/payouts'),
    event_names: ['payout.*', 'acquiring.payout.*'],
  });
  if (created.status !== 200) {
    await receiver.close();
    throw new Error(`webhook endpoint: ${created.status} ${created.text}`);
  }
  const secret = created.body.secret;
  return {
    /** The payout's deliveries, each verified like the SDK's constructEvent (HMAC-SHA512 of body + timestamp). */
    events(payoutId) {
      return receiver
        .received('/payouts')
        .map((request) => {
          const timestamp = String(request.headers['x-wk-timestamp']);
          const signature = Buffer.from(String(request.headers['x-wk-signature']), 'hex');
          const expected = createHmac('sha512', secret).update(request.rawBody + timestamp).digest();
          if (signature.length !== expected.length || !timingSafeEqual(signature, expected)) throw new Error('bad webhook signature');
          return JSON.parse(request.rawBody) as DomainEvent;
        })
        .filter((event) => event.source_id === payoutId);
    },
    async close() {
      await account.post(`/v1/webhooks/endpoints/${created.body.endpoint_id}/delete`, {});
      await receiver.close();
    },
  };
}
