import { randomInt } from 'node:crypto';
import {
  CardholderWriteView,
  CardOrderView,
  CardProductView,
  CardView,
  CardWriteView,
  CreatedWebhookEndpointView,
  DomainEvent,
  Page,
  SANDBOX_POOL_BIN,
} from '@paygrid/contracts';
import { waitFor, WebhookReceiver } from '@paygrid/testing';
import { api, ApiResponse, SandboxAccount, tokenFor } from '../../support/api-client';

/**
 * What the issuing e2e suites share: a session speaking to `/v1/issuing/*` the way the official SDK's
 * `client.issuing.*` does (no x-client-id; x-on-behalf-of only when asked), request bodies, and waits for the
 * asynchronous parts (KYC review, card orders) that poll with a deadline.
 */
export class Issuer {
  private constructor(
    readonly account: SandboxAccount,
    private readonly token: string,
    private readonly onBehalfOf?: string,
  ) {}

  static async of(account: SandboxAccount): Promise<Issuer> {
    return new Issuer(account, await tokenFor(account));
  }

  /** The same key acting for one of its sub-accounts (x-on-behalf-of). */
  actingFor(accountId: string): Issuer {
    return new Issuer(this.account, this.token, accountId);
  }

  get<T = Record<string, unknown>>(path: string): Promise<ApiResponse<T>> {
    return api<T>('GET', `/v1/issuing${path}`, { token: this.token, headers: this.headers() });
  }

  post<T = Record<string, unknown>>(path: string, body: unknown = {}, options: { idempotencyKey?: string } = {}): Promise<ApiResponse<T>> {
    return api<T>('POST', `/v1/issuing${path}`, { token: this.token, body, headers: this.headers(), idempotencyKey: options.idempotencyKey });
  }

  async ok<T>(response: Promise<ApiResponse<T>>): Promise<T> {
    const answered = await response;
    if (answered.status !== 200) throw new Error(`expected 200, got ${answered.status} ${answered.text}`);
    return answered.body;
  }

  async product(predicate: (product: CardProductView) => boolean): Promise<CardProductView> {
    const products = await this.ok(this.get<Page<CardProductView>>('/products?page_size=10&page_number=1'));
    const found = products.data.find(predicate);
    if (!found) throw new Error('no such product');
    return found;
  }

  shareProduct(): Promise<CardProductView> {
    return this.product((product) => product.card_bin === SANDBOX_POOL_BIN && product.product_status === 'ENABLED');
  }

  async cardholder(overrides: Record<string, unknown> = {}): Promise<CardholderWriteView> {
    return this.ok(this.post<CardholderWriteView>('/cardholders', cardholderBody(overrides)));
  }

  async verifiedCardholder(overrides: Record<string, unknown> = {}): Promise<string> {
    const created = await this.cardholder(overrides);
    await this.waitForCardholder(created.cardholder_id, 'SUCCESS');
    return created.cardholder_id;
  }

  waitForCardholder(cardholderId: string, status: string) {
    return waitFor(
      async () => ((await this.get<{ cardholder_status: string }>(`/cardholders/${cardholderId}`)).body.cardholder_status === status ? true : undefined),
      { what: `cardholder ${cardholderId} to be ${status}`, timeoutMs: 20_000, intervalMs: 150 },
    );
  }

  async createCard(body: Record<string, unknown>): Promise<CardWriteView> {
    return this.ok(this.post<CardWriteView>('/cards', body));
  }

  card(cardId: string): Promise<CardView> {
    return this.ok(this.get<CardView>(`/cards/${cardId}`));
  }

  waitForCard(cardId: string, status: string): Promise<CardView> {
    return waitFor(
      async () => {
        const card = await this.card(cardId);
        return card.card_status === status ? card : undefined;
      },
      { what: `card ${cardId} to be ${status}`, timeoutMs: 20_000, intervalMs: 150 },
    );
  }

  /** A verified cardholder's ACTIVE virtual USD card on the sandbox SHARE product. */
  async activeCard(extra: Record<string, unknown> = {}): Promise<string> {
    const cardholderId = await this.verifiedCardholder();
    const product = await this.shareProduct();
    const created = await this.createCard({ card_currency: 'USD', cardholder_id: cardholderId, card_product_id: product.product_id, ...extra });
    await this.waitForCard(created.card_id, 'ACTIVE');
    return created.card_id;
  }

  settled(order: CardOrderView): Promise<CardOrderView> {
    return waitFor(
      async () => {
        const current = await this.ok(this.get<CardOrderView>(`/card_orders/${order.card_order_id}`));
        return current.order_status === 'SUCCESS' || current.order_status === 'FAILED' ? current : undefined;
      },
      { what: `card order ${order.card_order_id} to finish`, timeoutMs: 20_000, intervalMs: 150 },
    );
  }

  private headers(): Record<string, string> {
    return this.onBehalfOf ? { 'x-on-behalf-of': this.onBehalfOf } : {};
  }
}

let sequence = 0;
export function cardholderBody(overrides: Record<string, unknown> = {}) {
  sequence += 1;
  const tag = `${Date.now().toString(36)}${sequence}${randomInt(1000)}`;
  return {
    email: `e2e.${tag}@example.com`,
    first_name: 'Grace',
    last_name: 'Hopper',
    country_code: 'SG',
    phone_number: `+659${String(randomInt(10_000_000)).padStart(7, '0')}`,
    date_of_birth: '1988-12-09',
    ...overrides,
  };
}

export type Delivered = DomainEvent<Record<string, unknown>>;

/** A local receiver subscribed to the account's card.* and cardholder.* events (or those named); `close` removes both. */
export async function issuingWebhooks(issuer: Issuer, receiverPath: string, eventNames: string[] = ['card.*', 'cardholder.*']) {
  const receiver = await WebhookReceiver.start();
  const created = await api<CreatedWebhookEndpointView>('POST', '/v1/webhooks/endpoints', {
    token: await tokenFor(issuer.account),
    body: { url: receiver.url(receiverPath), event_names: eventNames },
  });
  if (created.status !== 200) {
    await receiver.close();
    throw new Error(`webhook endpoint: ${created.status} ${created.text}`);
  }
  return {
    receiver,
    events(): Delivered[] {
      return receiver.received(receiverPath).map((request) => JSON.parse(request.rawBody) as Delivered);
    },
    async close() {
      await api('POST', `/v1/webhooks/endpoints/${created.body.endpoint_id}/delete`, { token: await tokenFor(issuer.account), body: {} });
      await receiver.close();
    },
  };
}
