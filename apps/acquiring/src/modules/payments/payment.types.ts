import {
  AttemptStatus,
  AuthenticationData,
  BrowserInfo,
  IntentStatus,
  MaskedCard,
  PaymentOrders,
} from '@paygrid/contracts';

/**
 * Domain types of payments: camelCase, bigint money, Dates. Storage rows live in the repositories and
 * wire shapes in libs/contracts; the presenter is the only crossing to the wire.
 */
export interface PaymentIntent {
  id: string;
  accountId: string;
  masterAccountId: string;
  amountMinor: bigint;
  currency: string;
  status: IntentStatus;
  description: string;
  merchantOrderId: string;
  returnUrl: string;
  metadata: Record<string, string>;
  paymentOrders: PaymentOrders | null;
  customerId: string | null;
  clientSecret: string;
  clientSecretExpiresAt: Date;
  capturedAmountMinor: bigint;
  cancellationReason: string | null;
  cancelledAt: Date | null;
  completedAt: Date | null;
  latestAttemptId: string | null;
  ipAddress: string | null;
  browserInfo: BrowserInfo | null;
  createdAt: Date;
  updatedAt: Date;
}

/** The card as an attempt keeps it: masked, never the number or the CVC. */
export type StoredCard = Omit<MaskedCard, 'auto_capture'>;

export interface PaymentAttempt {
  id: string;
  intentId: string;
  accountId: string;
  /** The command that started the attempt: a retry of it resumes this attempt instead of starting another. */
  commandId: string | null;
  status: AttemptStatus;
  amountMinor: bigint;
  currency: string;
  capturedAmountMinor: bigint;
  refundedAmountMinor: bigint;
  autoCapture: boolean;
  card: StoredCard;
  savedCardId: string | null;
  threeDsAction: string | null;
  processor: string;
  processorReference: string | null;
  authCode: string;
  arn: string;
  rrn: string;
  adviceCode: string;
  authenticationData: AuthenticationData;
  failureCode: string;
  failureMessage: string;
  cancellationReason: string;
  authorizedAt: Date | null;
  completedAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

/** Failure codes after which the shopper may not try again: the intent itself fails (decisions §6). */
export const TERMINAL_FAILURE_CODES: ReadonlySet<string> = new Set(['fraudulent']);

export const EMPTY_AUTHENTICATION: AuthenticationData = { avs_result: '', cvv_result: '', three_ds: null };
