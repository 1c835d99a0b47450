import { defineCommand, returns } from '../command-definition';
import {
  AttemptIdPayload,
  CancelIntentPayload,
  CaptureIntentPayload,
  ConfirmIntentPayload,
  CreateIntentPayload,
  CreateRefundPayload,
  HostedConfirmPayload,
  HostedSessionPayload,
  HostedThreeDsPayload,
  IntentIdPayload,
  ListAttemptsPayload,
  ListIntentsPayload,
  ListRefundsPayload,
  ListSettlementsPayload,
  RefundIdPayload,
  UpdateIntentPayload,
} from './acquiring.payloads';
import {
  HostedSessionView,
  Page,
  PaymentAttemptView,
  PaymentIntentView,
  RefundView,
  SettlementView,
} from './acquiring.views';

/**
 * Every command of the acquiring service on paygrid.acquiring.commands, declared once: the gateway's
 * calls and the service's handlers are type-checked against these, and the service validates each
 * payload against its class before the handler runs. The type strings are on the wire: never rename
 * one, add a new command instead.
 */
export const AcquiringCommand = {
  createIntent: defineCommand('acquiring.payment_intents.create', {
    payload: CreateIntentPayload,
    result: returns<PaymentIntentView>(),
    mutates: true,
  }),
  retrieveIntent: defineCommand('acquiring.payment_intents.retrieve', {
    payload: IntentIdPayload,
    result: returns<PaymentIntentView>(),
    mutates: false,
  }),
  listIntents: defineCommand('acquiring.payment_intents.list', {
    payload: ListIntentsPayload,
    result: returns<Page<PaymentIntentView>>(),
    mutates: false,
  }),
  updateIntent: defineCommand('acquiring.payment_intents.update', {
    payload: UpdateIntentPayload,
    result: returns<PaymentIntentView>(),
    mutates: true,
  }),
  confirmIntent: defineCommand('acquiring.payment_intents.confirm', {
    payload: ConfirmIntentPayload,
    result: returns<PaymentIntentView>(),
    mutates: true,
  }),
  captureIntent: defineCommand('acquiring.payment_intents.capture', {
    payload: CaptureIntentPayload,
    result: returns<PaymentIntentView>(),
    mutates: true,
  }),
  cancelIntent: defineCommand('acquiring.payment_intents.cancel', {
    payload: CancelIntentPayload,
    result: returns<PaymentIntentView>(),
    mutates: true,
  }),
  listAttempts: defineCommand('acquiring.payment_attempts.list', {
    payload: ListAttemptsPayload,
    result: returns<Page<PaymentAttemptView>>(),
    mutates: false,
  }),
  retrieveAttempt: defineCommand('acquiring.payment_attempts.retrieve', {
    payload: AttemptIdPayload,
    result: returns<PaymentAttemptView>(),
    mutates: false,
  }),
  createRefund: defineCommand('acquiring.refunds.create', {
    payload: CreateRefundPayload,
    result: returns<RefundView>(),
    mutates: true,
  }),
  listRefunds: defineCommand('acquiring.refunds.list', {
    payload: ListRefundsPayload,
    result: returns<Page<RefundView>>(),
    mutates: false,
  }),
  retrieveRefund: defineCommand('acquiring.refunds.retrieve', {
    payload: RefundIdPayload,
    result: returns<RefundView>(),
    mutates: false,
  }),
  listSettlements: defineCommand('acquiring.settlements.list', {
    payload: ListSettlementsPayload,
    result: returns<Page<SettlementView>>(),
    mutates: false,
  }),
  /** Hosted pages: no merchant actor; the intent's client_secret authenticates. */
  hostedSession: defineCommand('acquiring.hosted.session', {
    payload: HostedSessionPayload,
    result: returns<HostedSessionView>(),
    mutates: false,
    needsActor: false,
  }),
  /** Not idempotent by key (a shopper's page has none): the intent's state table refuses a second payment. */
  hostedConfirm: defineCommand('acquiring.hosted.confirm', {
    payload: HostedConfirmPayload,
    result: returns<HostedSessionView>(),
    mutates: true,
    needsActor: false,
  }),
  hostedThreeDs: defineCommand('acquiring.hosted.three_ds', {
    payload: HostedThreeDsPayload,
    result: returns<HostedSessionView>(),
    mutates: true,
    needsActor: false,
  }),
};
