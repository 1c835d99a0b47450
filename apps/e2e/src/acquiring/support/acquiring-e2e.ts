import { randomBytes, randomInt } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { passesLuhn, PaymentIntentView } from '@paygrid/contracts';
import { waitFor } from '@paygrid/testing';
import { api, ApiResponse, SANDBOX, SandboxAccount, tokenFor } from '../../support/api-client';
import { killApp, startExtraInstance } from '../../support/stack-control';
import { E2E_GATEWAY, E2E_LOG_DIRECTORY, E2E_PIDS_FILE } from '../../support/stack-settings';

/**
 * What the acquiring e2e suites share: the acquiring settings they need (a short capture window and
 * sandbox delays, the e2e gateway's address for hosted links), an HTTP client that sends x-client-id
 * like the SDKs, request bodies and the test cards of decisions §6.
 */
export const ACQUIRING_E2E_ENV = {
  GATEWAY_PUBLIC_URL: E2E_GATEWAY,
  CAPTURE_WINDOW_OVERRIDE_MS: '6000',
  ASYNC_CARD_DELAY_MS: '1000',
  SETTLEMENT_DELAY_MS: '800',
  REFUND_DELAY_MS: '300',
  JOBS_RECONCILE_INTERVAL_MS: '300',
};

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

const MARKER = path.join(E2E_LOG_DIRECTORY, 'acquiring-e2e-settings.json');

/**
 * Restarts the stack's acquiring service once per e2e run with ACQUIRING_E2E_ENV (the e2e stack's own
 * settings do not carry acquiring's yet), then waits until the gateway reaches it again.
 */
export async function useAcquiringE2eSettings(): Promise<void> {
  const pids: Record<string, number> = existsSync(E2E_PIDS_FILE) ? JSON.parse(readFileSync(E2E_PIDS_FILE, 'utf8')) : {};
  const marker = existsSync(MARKER) ? (JSON.parse(readFileSync(MARKER, 'utf8')) as { pid: number }) : undefined;
  if (!marker || marker.pid !== pids.acquiring) {
    await killApp('acquiring');
    const app = await startExtraInstance('acquiring', 0, ACQUIRING_E2E_ENV);
    const current = existsSync(E2E_PIDS_FILE) ? JSON.parse(readFileSync(E2E_PIDS_FILE, 'utf8')) : {};
    writeFileSync(E2E_PIDS_FILE, JSON.stringify({ ...current, acquiring: app.process.pid }));
    writeFileSync(MARKER, JSON.stringify({ pid: app.process.pid }));
  }
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
