import {
  BrowserInfo,
  CANCELLATION_REASONS,
  CancellationReason,
  CardCommandInput,
  crossFieldProblems,
  CustomerInput,
  PaymentOrders,
  THREE_DS_ACTIONS,
} from '@paygrid/contracts';
import { PayloadReader } from '../../common/payload-reader';

/**
 * The service's reading of the payment command payloads (the gateway validated the HTTP bodies with
 * the same limits: spec 4.1, 8 and wire-compat §9.2–9.5). One reader per payload shape, shared by the
 * operations that take it.
 */
export const LIMITS = {
  merchantOrderId: 36,
  description: 32,
  returnUrl: 1024,
  ipAddress: 45,
  customerId: 36,
  intentId: 36,
  name: 100,
} as const;

export interface CreateIntentInput {
  amountMinor: bigint;
  currency: string;
  merchantOrderId: string;
  description: string;
  returnUrl: string;
  card?: CardCommandInput;
  ipAddress?: string;
  browserInfo?: BrowserInfo;
  metadata: Record<string, string>;
  paymentOrders?: PaymentOrders;
  customerId?: string;
  customer?: CustomerInput;
}

export function readCard(reader: PayloadReader, path: string): CardCommandInput | undefined {
  if (reader.object(`${path}`) === undefined) return undefined;
  return {
    sealed: reader.string(`${path}.sealed`, { required: true }),
    card_name: reader.string(`${path}.card_name`, { max: LIMITS.name }),
    expiry_month: reader.string(`${path}.expiry_month`, { required: true, max: 2 }),
    expiry_year: reader.string(`${path}.expiry_year`, { required: true, max: 4 }),
    billing: reader.object(`${path}.billing`),
    auto_capture: reader.bool(`${path}.auto_capture`),
    three_ds: reader.object(`${path}.three_ds`),
    three_ds_action: reader.oneOf(`${path}.three_ds_action`, THREE_DS_ACTIONS),
  };
}

export function readCreateIntent(reader: PayloadReader, payload: unknown): CreateIntentInput {
  const currency = reader.currency('currency');
  const input: CreateIntentInput = {
    amountMinor: reader.amount('amount', currency) ?? 0n,
    currency: currency ?? '',
    merchantOrderId: reader.string('merchant_order_id', { required: true, max: LIMITS.merchantOrderId }),
    description: reader.string('description', { required: true, max: LIMITS.description }),
    returnUrl: reader.string('return_url', { required: true, max: LIMITS.returnUrl }),
    card: readCard(reader, 'payment_method.card'),
    ipAddress: reader.string('ip_address', { max: LIMITS.ipAddress }),
    browserInfo: reader.object('browser_info'),
    metadata: reader.stringMap('metadata') ?? {},
    paymentOrders: reader.object('payment_orders'),
    customerId: reader.string('customer_id', { max: LIMITS.customerId }),
    customer: reader.object('customer'),
  };
  reader.add(crossFieldProblems(payload as Parameters<typeof crossFieldProblems>[0]));
  reader.done();
  return input;
}

export function readIntentId(reader: PayloadReader): string {
  return reader.string('payment_intent_id', { required: true, max: LIMITS.intentId });
}

export interface ConfirmIntentInput {
  intentId: string;
  card?: CardCommandInput;
  ipAddress?: string;
  browserInfo?: BrowserInfo;
  returnUrl?: string;
}

export function readConfirmIntent(reader: PayloadReader, payload: unknown): ConfirmIntentInput {
  const input: ConfirmIntentInput = {
    intentId: readIntentId(reader),
    card: readCard(reader, 'payment_method.card'),
    ipAddress: reader.string('ip_address', { max: LIMITS.ipAddress }),
    browserInfo: reader.object('browser_info'),
    returnUrl: reader.string('return_url', { max: LIMITS.returnUrl }),
  };
  reader.add(crossFieldProblems(payload as Parameters<typeof crossFieldProblems>[0]));
  reader.done();
  return input;
}

export function readCancellationReason(reader: PayloadReader): CancellationReason | undefined {
  return reader.oneOf('cancellation_reason', CANCELLATION_REASONS);
}
