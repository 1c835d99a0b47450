import { randomBytes, randomInt } from 'node:crypto';
import { CreatedWebhookEndpointView, passesLuhn, PaymentIntentView } from '@paygrid/contracts';
import { waitFor, WebhookReceiver } from '@paygrid/testing';
import { api, ApiResponse, SANDBOX, SandboxAccount, tokenFor } from '../../support/api-client';

/**
 * What the acquiring e2e suites share: the acquiring settings they need (a short capture window and
 * sandbox delays, the e2e gateway's address for hosted links), an HTTP client that sends x-client-id
 * like the SDKs, request bodies and the test cards of decisions §6.
 */
export { ACQUIRING_E2E_ENV } from '../../support/stack-settings';

export const CARDS = {
  visa: '4242424242424242',
  mastercard: '5555555555554444',
  declined: '4000000000000002',
  insufficientFunds: '4000000000009995',
  expiredCard: '4000000000000069',
  incorrectCvc: '4000000000000127',
  threeDs: '4000000000003220',
  async: '4000000000000077',
  fraud: '4100000000000019',
} as const;


/** Waits until the gateway reaches acquiring (the e2e stack runs it with ACQUIRING_E2E_ENV). */
export async function useAcquiringE2eSettings(): Promise<void> {
  const merchant = await Merchant.of(SANDBOX.master);
  await waitFor(async () => (await merchant.get('/v2/payment_intents')).status === 200, {
    timeoutMs: 60_000,
    intervalMs: 500,
    what: 'acquiring to answer through the gateway',
  });
}

/** A merchant session: its token and x-client-id on every call, like the SDK's client.payment.*. */
export class Merchant {
  private constructor(
    readonly account: SandboxAccount,
    private readonly token: string,
  ) {}

  static async of(account: SandboxAccount): Promise<Merchant> {
    return new Merchant(account, await tokenFor(account));
  }

  get<T = Record<string, unknown>>(pathName: string, headers: Record<string, string> = {}): Promise<ApiResponse<T>> {
    return api<T>('GET', pathName, { token: this.token, headers: { 'x-client-id': this.account.clientId, ...headers } });
  }

  post<T = Record<string, unknown>>(
    pathName: string,
    body: unknown = {},
    options: { headers?: Record<string, string>; idempotencyKey?: string } = {},
  ): Promise<ApiResponse<T>> {
    return api<T>('POST', pathName, {
      token: this.token,
      body,
      headers: { 'x-client-id': this.account.clientId, ...options.headers },
      idempotencyKey: options.idempotencyKey,
    });
  }

  async createIntent(overrides: Record<string, unknown> = {}): Promise<PaymentIntentView> {
    const response = await this.post<PaymentIntentView>('/v2/payment_intents/create', intentBody(overrides));
    if (response.status !== 200) throw new Error(`create intent: ${response.status} ${response.text}`);
    return response.body;
  }

  async intent(id: string): Promise<PaymentIntentView> {
    const response = await this.get<PaymentIntentView>(`/v2/payment_intents/${id}`);
    if (response.status !== 200) throw new Error(`retrieve intent: ${response.status} ${response.text}`);
    return response.body;
  }

  /** Polls the intent until `accept` holds (deadline, never a fixed sleep). */
  waitForIntent(id: string, accept: (intent: PaymentIntentView) => boolean, what: string, timeoutMs = 20_000) {
    return waitFor(
      async () => {
        const intent = await this.intent(id);
        return accept(intent) ? intent : undefined;
      },
      { timeoutMs, intervalMs: 200, what },
    );
  }
}

export function intentBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    amount: '25.00',
    currency: 'USD',
    merchant_order_id: `order-${randomBytes(5).toString('hex')}`,
    description: 'E2E order',
    return_url: 'https://shop.example/return',
    ...overrides,
  };
}

export function cardMethod(number: string, extra: Record<string, unknown> = {}) {
  return {
    card: {
      card_name: 'Grace Hopper',
      card_number: number,
      expiry_month: '12',
      expiry_year: String(new Date().getUTCFullYear() + 2),
      cvc: '123',
      ...extra,
    },
  };
}

/** A Visa number no one else uses (the sandbox approves any valid number): for leak searches. */
export function uniqueVisaNumber(): string {
  const body = `4${Array.from({ length: 14 }, () => randomInt(10)).join('')}`;
  for (let check = 0; check < 10; check += 1) {
    const candidate = `${body}${check}`;
    if (passesLuhn(candidate)) return candidate;
  }
  throw new Error('unreachable: one check digit always fits');
}

/** A local webhook receiver subscribed to the merchant's acquiring.* events; `close` removes both. */
export async function acquiringWebhooks(
  merchant: Merchant,
  receiverPath: string,
): Promise<{ receiver: WebhookReceiver; endpoint: CreatedWebhookEndpointView; close(): Promise<void> }> {
  const receiver = await WebhookReceiver.start();
  const created = await merchant.post<CreatedWebhookEndpointView>('/v1/webhooks/endpoints', {
    url: receiver.url(receiverPath),
    event_names: ['acquiring.*'],
  });
  if (created.status !== 200) {
    await receiver.close();
    throw new Error(`webhook endpoint: ${created.status} ${created.text}`);
  }
  return {
    receiver,
    endpoint: created.body,
    async close() {
      await merchant.post(`/v1/webhooks/endpoints/${created.body.endpoint_id}/delete`, {});
      await receiver.close();
    },
  };
}
