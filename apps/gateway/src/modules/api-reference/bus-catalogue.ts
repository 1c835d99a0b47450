import {
  NoPayload,
  CardTransactionView,
  DecisionEndpointView,
  DecisionEndpointWriteView,
  IssuingTransactionCommand,
  IssuingTransactionEvents,
  ListCardTransactionsPayload,
  SetDecisionEndpointPayload,
  SimulateAuthorizationPayload,
  SimulateChargebackPayload,
  SimulatedTransactionView,
  SimulateReturnPayload,
  TransactionRef,
  ActivateCardPayload,
  ActivationView,
  AssignCardPayload,
  BulkCreateCardsPayload,
  BulkCreateView,
  CardAmountPayload,
  CardArtRef,
  CardArtView,
  CardEventData,
  CardholderEventData,
  CardholderRef,
  CardholderView,
  CardholderWriteView,
  CardOrderEventData,
  CardOrderRef,
  CardOrderView,
  CardProductView,
  CardRef,
  CardStatusEventData,
  CardStatusUpdateView,
  CardView,
  CardWriteView,
  CreateCardholderPayload,
  CreateCardPayload,
  DeletedCardholderView,
  ElevateLimitPayload,
  IssuingCommand,
  IssuingLedgerAuditCommand,
  IssuingLedgerAuditReport,
  IssuingEvents,
  CreateIssuingReportPayload,
  CreateIssuingTransferPayload,
  IssuingBalanceTransactionView,
  IssuingBalanceView,
  IssuingFundsCommand,
  IssuingFundsEvents,
  IssuingReportCreatedView,
  IssuingReportFile,
  IssuingReportRef,
  IssuingReportView,
  IssuingTransferCreatedView,
  IssuingTransferRef,
  IssuingTransferView,
  ListBalanceTransactionsPayload,
  ListIssuingBalancesPayload,
  ListIssuingTransfersPayload,
  RetrieveIssuingBalancePayload,
  SimulatedDepositView,
  SimulateDepositPayload,
  ListCardArtsPayload,
  ListCardholdersPayload,
  ListCardsPayload,
  ListProductsPayload,
  NetworkProtectionEventData,
  PanTokenView,
  PinResetView,
  ResetPinPayload,
  SealedSecureDetails,
  UpdateCardholderPayload,
  UpdateCardPayload,
  UpdateCardStatusPayload,
  UpdateAccountSettingsPayload,
  AccountCommand,
  AccountEvents,
  AccountPage,
  AccountSettingsView,
  AccountView,
  AcquiringAuditCommand,
  AcquiringCommand,
  AcquiringEvents,
  AdditionalDocument,
  AttemptIdPayload,
  BalanceCurrencyPayload,
  BalanceView,
  BankAccountIdPayload,
  BankAccountView,
  CancelIntentPayload,
  CaptureIntentPayload,
  CommandDefinition,
  CommandFamily,
  CommandTopics,
  ConfirmIntentPayload,
  CreateCredentialPayload,
  CreatedCredential,
  CredentialCommand,
  CreatedSubAccountView,
  CreatedWebhookEndpointView,
  CreateBankAccountPayload,
  CreateIntentPayload,
  CreatePayoutPayload,
  CreateRefundPayload,
  CreateSubAccountDto,
  CreateWebhookEndpointPayload,
  CredentialView,
  DeletedWebhookEndpointView,
  EVENT_ENVELOPE_VERSION,
  EventTopics,
  GetAdditionalPayload,
  HostedConfirmPayload,
  HostedSessionPayload,
  HostedSessionView,
  HostedThreeDsPayload,
  IntentIdPayload,
  LedgerAuditReport,
  ListBalancesPayload,
  ListBankAccountsPayload,
  ListAccountsPayload,
  ListAttemptsPayload,
  ListIntentsPayload,
  ListPayoutsPayload,
  ListRefundsPayload,
  ListSettlementsPayload,
  ListWebhookDeliveriesPayload,
  ListWebhookEndpointsPayload,
  ListWebhookEventAttemptsPayload,
  Page,
  PaymentAttemptView,
  PaymentIntentView,
  PayoutCommand,
  PayoutEvents,
  PayoutIdPayload,
  PayoutView,
  PING_COMMAND,
  PingResult,
  RefundIdPayload,
  RefundView,
  ReplayedWebhookEndpointView,
  ReplayWebhookEndpointPayload,
  replyTopicOf,
  ResolvedAccount,
  ResolveOnBehalfOfPayload,
  RetrieveAccountPayload,
  RevokeCredentialPayload,
  RotatedWebhookSecretView,
  RotateWebhookSecretPayload,
  SettledTotalsView,
  SettlementView,
  UpdateBankAccountPayload,
  UpdateIntentPayload,
  UpdateWebhookEndpointPayload,
  VerifiedCredential,
  VerifyCredentialsPayload,
  WebhookAttemptView,
  WebhookCommand,
  WebhookDeliveryDetailView,
  WebhookDeliveryRef,
  WebhookDeliveryView,
  WebhookEndpointDisabledData,
  WebhookEndpointRef,
  WebhookEndpointView,
  WebhookEvents,
  WebhookPage,
} from '@paygrid/contracts';

/**
 * The one adapter between libs/contracts and the bus reference (AsyncAPI): which topics exist, which
 * commands each family answers with what payload and result, and which events it publishes with what
 * data. Everything else (asyncapi-document.ts, the schema generator) reads only this file, so moving
 * to a typed command registry in libs/contracts changes this file alone.
 *
 * Two halves, checked against each other at compile time:
 * - the types `BusCommandShapes` / `BusEventShapes`, from which the JSON schemas are generated
 *   (wire-schemas.generated.ts; TypeScript types are erased, so schemas are generated at build time);
 * - `readBusCatalogue()`, the runtime list built from the exported topic and `*Commands`/`*Events` maps.
 */
export interface BusCommandShapes {
  'system.ping': { payload: Record<string, never>; result: PingResult };

  'accounts.list': { payload: ListAccountsPayload; result: AccountPage };
  'accounts.retrieve': { payload: RetrieveAccountPayload; result: AccountView };
  'accounts.create_sub_account': { payload: CreateSubAccountDto; result: CreatedSubAccountView };
  'accounts.get_additional': { payload: GetAdditionalPayload; result: AdditionalDocument[] };
  'accounts.resolve_on_behalf_of': { payload: ResolveOnBehalfOfPayload; result: ResolvedAccount };
  'accounts.update_settings': { payload: UpdateAccountSettingsPayload; result: AccountSettingsView };
  'accounts.credentials.verify': { payload: VerifyCredentialsPayload; result: VerifiedCredential };
  'accounts.credentials.create': { payload: CreateCredentialPayload; result: CreatedCredential };
  'accounts.credentials.list': { payload: { account_id?: string }; result: CredentialView[] };
  'accounts.credentials.revoke': { payload: RevokeCredentialPayload; result: CredentialView };

  'acquiring.payment_intents.create': { payload: CreateIntentPayload; result: PaymentIntentView };
  'acquiring.payment_intents.retrieve': { payload: IntentIdPayload; result: PaymentIntentView };
  'acquiring.payment_intents.list': { payload: ListIntentsPayload; result: Page<PaymentIntentView> };
  'acquiring.payment_intents.update': { payload: UpdateIntentPayload; result: PaymentIntentView };
  'acquiring.payment_intents.confirm': { payload: ConfirmIntentPayload; result: PaymentIntentView };
  'acquiring.payment_intents.capture': { payload: CaptureIntentPayload; result: PaymentIntentView };
  'acquiring.payment_intents.cancel': { payload: CancelIntentPayload; result: PaymentIntentView };
  'acquiring.payment_attempts.list': { payload: ListAttemptsPayload; result: Page<PaymentAttemptView> };
  'acquiring.payment_attempts.retrieve': { payload: AttemptIdPayload; result: PaymentAttemptView };
  'acquiring.refunds.create': { payload: CreateRefundPayload; result: RefundView };
  'acquiring.refunds.list': { payload: ListRefundsPayload; result: Page<RefundView> };
  'acquiring.refunds.retrieve': { payload: RefundIdPayload; result: RefundView };
  'acquiring.settlements.list': { payload: ListSettlementsPayload; result: Page<SettlementView> };
  'acquiring.settlements.totals': { payload: Record<string, never>; result: SettledTotalsView };
  'acquiring.hosted.session': { payload: HostedSessionPayload; result: HostedSessionView };
  'acquiring.hosted.confirm': { payload: HostedConfirmPayload; result: HostedSessionView };
  'acquiring.hosted.three_ds': { payload: HostedThreeDsPayload; result: HostedSessionView };

  'issuing.products.list': { payload: ListProductsPayload; result: Page<CardProductView> };
  'issuing.cardholders.create': { payload: CreateCardholderPayload; result: CardholderWriteView };
  'issuing.cardholders.list': { payload: ListCardholdersPayload; result: Page<CardholderView> };
  'issuing.cardholders.retrieve': { payload: CardholderRef; result: CardholderView };
  'issuing.cardholders.update': { payload: UpdateCardholderPayload; result: CardholderWriteView };
  'issuing.cardholders.delete': { payload: CardholderRef; result: DeletedCardholderView };
  'issuing.cards.create': { payload: CreateCardPayload; result: CardWriteView };
  'issuing.cards.list': { payload: ListCardsPayload; result: Page<CardView> };
  'issuing.cards.retrieve': { payload: CardRef; result: CardView };
  'issuing.cards.update': { payload: UpdateCardPayload; result: CardWriteView };
  'issuing.cards.update_status': { payload: UpdateCardStatusPayload; result: CardStatusUpdateView };
  'issuing.cards.activate': { payload: ActivateCardPayload; result: ActivationView };
  'issuing.cards.assign': { payload: AssignCardPayload; result: CardWriteView };
  'issuing.cards.reset_pin': { payload: ResetPinPayload; result: PinResetView };
  'issuing.cards.elevate_limit': { payload: ElevateLimitPayload; result: CardOrderView };
  'issuing.cards.network_protection.enrol': { payload: CardRef; result: CardView };
  'issuing.cards.network_protection.remove': { payload: CardRef; result: CardView };
  'issuing.cards.bulk_create': { payload: BulkCreateCardsPayload; result: BulkCreateView };
  'issuing.cards.secure': { payload: CardRef; result: SealedSecureDetails };
  'issuing.cards.pan_token': { payload: CardRef; result: PanTokenView };
  'issuing.cards.recharge': { payload: CardAmountPayload; result: CardOrderView };
  'issuing.cards.withdraw': { payload: CardAmountPayload; result: CardOrderView };
  'issuing.card_orders.retrieve': { payload: CardOrderRef; result: CardOrderView };
  'issuing.card_arts.list': { payload: ListCardArtsPayload; result: Page<CardArtView> };
  'issuing.card_arts.set_default': { payload: CardArtRef; result: CardArtView };
  'issuing.balances.list': { payload: ListIssuingBalancesPayload; result: Page<IssuingBalanceView> };
  'issuing.balances.retrieve': { payload: RetrieveIssuingBalancePayload; result: IssuingBalanceView };
  'issuing.balances.transactions': { payload: ListBalanceTransactionsPayload; result: Page<IssuingBalanceTransactionView> };
  'issuing.simulation.deposit': { payload: SimulateDepositPayload; result: SimulatedDepositView };
  'issuing.transfers.create': { payload: CreateIssuingTransferPayload; result: IssuingTransferCreatedView };
  'issuing.transfers.retrieve': { payload: IssuingTransferRef; result: IssuingTransferView };
  'issuing.transfers.list': { payload: ListIssuingTransfersPayload; result: Page<IssuingTransferView> };
  'issuing.reports.create': { payload: CreateIssuingReportPayload; result: IssuingReportCreatedView };
  'issuing.reports.download': { payload: IssuingReportRef; result: IssuingReportFile };
  'issuing.ledger.verify': { payload: Record<string, never>; result: IssuingLedgerAuditReport };
  'issuing.simulation.authorization': { payload: SimulateAuthorizationPayload; result: SimulatedTransactionView };
  'issuing.simulation.reversal': { payload: TransactionRef; result: SimulatedTransactionView };
  'issuing.simulation.refund': { payload: SimulateReturnPayload; result: SimulatedTransactionView };
  'issuing.simulation.chargeback': { payload: SimulateChargebackPayload; result: SimulatedTransactionView };
  'issuing.transactions.list': { payload: ListCardTransactionsPayload; result: Page<CardTransactionView> };
  'issuing.transactions.retrieve': { payload: TransactionRef; result: CardTransactionView };
  'issuing.decision_endpoint.set': { payload: SetDecisionEndpointPayload; result: DecisionEndpointWriteView };
  'issuing.decision_endpoint.retrieve': { payload: NoPayload; result: DecisionEndpointView };
  'issuing.decision_endpoint.delete': { payload: NoPayload; result: DecisionEndpointView };
  'payouts.bank_accounts.create': { payload: CreateBankAccountPayload; result: BankAccountView };
  'payouts.bank_accounts.update': { payload: UpdateBankAccountPayload; result: BankAccountView };
  'payouts.bank_accounts.list': { payload: ListBankAccountsPayload; result: Page<BankAccountView> };
  'payouts.bank_accounts.retrieve': { payload: BankAccountIdPayload; result: BankAccountView };
  'payouts.payouts.create': { payload: CreatePayoutPayload; result: PayoutView };
  'payouts.payouts.list': { payload: ListPayoutsPayload; result: Page<PayoutView> };
  'payouts.payouts.retrieve': { payload: PayoutIdPayload; result: PayoutView };
  'payouts.balances.list': { payload: ListBalancesPayload; result: Page<BalanceView> };
  'payouts.balances.retrieve': { payload: BalanceCurrencyPayload; result: BalanceView };
  'payouts.ledger.verify': { payload: Record<string, never>; result: LedgerAuditReport };

  'webhooks.endpoints.create': { payload: CreateWebhookEndpointPayload; result: CreatedWebhookEndpointView };
  'webhooks.endpoints.list': { payload: ListWebhookEndpointsPayload; result: WebhookPage<WebhookEndpointView> };
  'webhooks.endpoints.retrieve': { payload: WebhookEndpointRef; result: WebhookEndpointView };
  'webhooks.endpoints.update': { payload: UpdateWebhookEndpointPayload; result: WebhookEndpointView };
  'webhooks.endpoints.delete': { payload: WebhookEndpointRef; result: DeletedWebhookEndpointView };
  'webhooks.endpoints.rotate_secret': { payload: RotateWebhookSecretPayload; result: RotatedWebhookSecretView };
  'webhooks.endpoints.enable': { payload: WebhookEndpointRef; result: WebhookEndpointView };
  'webhooks.endpoints.replay': { payload: ReplayWebhookEndpointPayload; result: ReplayedWebhookEndpointView };
  'webhooks.deliveries.list': { payload: ListWebhookDeliveriesPayload; result: WebhookPage<WebhookDeliveryView> };
  'webhooks.deliveries.retrieve': { payload: WebhookDeliveryRef; result: WebhookDeliveryDetailView };
  'webhooks.deliveries.retry': { payload: WebhookDeliveryRef; result: WebhookDeliveryView };
  'webhooks.events.list_attempts': { payload: ListWebhookEventAttemptsPayload; result: WebhookPage<WebhookAttemptView> };
}

export interface BusEventShapes {
  'account.created': { category: 'ONBOARDING'; data: AccountView };
  'account.status.updated': { category: 'ONBOARDING'; data: AccountView };
  'account.verification_status.updated': { category: 'ONBOARDING'; data: AccountView };
  'account.credential.created': { category: 'OPERATIONS'; data: CredentialView };
  'account.credential.revoked': { category: 'OPERATIONS'; data: CredentialView };
  'account.settings.updated': { category: 'OPERATIONS'; data: AccountSettingsView };

  'acquiring.payment_intent.created': { category: 'ACQUIRING'; data: PaymentIntentView };
  'acquiring.payment_intent.updated': { category: 'ACQUIRING'; data: PaymentIntentView };
  'acquiring.payment_intent.pending': { category: 'ACQUIRING'; data: PaymentIntentView };
  'acquiring.payment_intent.requires_action': { category: 'ACQUIRING'; data: PaymentIntentView };
  'acquiring.payment_intent.requires_capture': { category: 'ACQUIRING'; data: PaymentIntentView };
  'acquiring.payment_intent.payment_failed': { category: 'ACQUIRING'; data: PaymentIntentView };
  'acquiring.payment_intent.succeeded': { category: 'ACQUIRING'; data: PaymentIntentView };
  'acquiring.payment_intent.cancelled': { category: 'ACQUIRING'; data: PaymentIntentView };
  'acquiring.payment_intent.failed': { category: 'ACQUIRING'; data: PaymentIntentView };
  'acquiring.payment_attempt.created': { category: 'ACQUIRING'; data: PaymentAttemptView };
  'acquiring.payment_attempt.authorized': { category: 'ACQUIRING'; data: PaymentAttemptView };
  'acquiring.payment_attempt.capture_requested': { category: 'ACQUIRING'; data: PaymentAttemptView };
  'acquiring.payment_attempt.cancelled': { category: 'ACQUIRING'; data: PaymentAttemptView };
  'acquiring.payment_attempt.failed': { category: 'ACQUIRING'; data: PaymentAttemptView };
  'acquiring.refund.created': { category: 'ACQUIRING'; data: RefundView };
  'acquiring.refund.succeeded': { category: 'ACQUIRING'; data: RefundView };
  'acquiring.refund.failed': { category: 'ACQUIRING'; data: RefundView };
  'acquiring.settlement.succeeded': { category: 'ACQUIRING'; data: SettlementView };

  'card.create.succeeded': { category: 'ISSUING'; data: CardEventData };
  'card.create.failed': { category: 'ISSUING'; data: CardEventData };
  'card.update.succeeded': { category: 'ISSUING'; data: CardEventData };
  'card.update.failed': { category: 'ISSUING'; data: CardEventData };
  'card.recharge.succeeded': { category: 'ISSUING'; data: CardOrderEventData };
  'card.recharge.failed': { category: 'ISSUING'; data: CardOrderEventData };
  'card.withdraw.succeeded': { category: 'ISSUING'; data: CardOrderEventData };
  'card.withdraw.failed': { category: 'ISSUING'; data: CardOrderEventData };
  'card.status.update.succeeded': { category: 'ISSUING'; data: CardStatusEventData };
  'card.status.update.failed': { category: 'ISSUING'; data: CardStatusEventData };
  'card.elevate_limit.succeeded': { category: 'ISSUING'; data: CardOrderEventData };
  'card.elevate_limit.failed': { category: 'ISSUING'; data: CardOrderEventData };
  'card.risk_control.network_protection.enrolled': { category: 'ISSUING'; data: NetworkProtectionEventData };
  'card.risk_control.network_protection.removed': { category: 'ISSUING'; data: NetworkProtectionEventData };
  'cardholder.kyc.status_changed': { category: 'ISSUING'; data: CardholderEventData };
  'cardholder.updated': { category: 'ISSUING'; data: CardholderEventData };
  'issuing.transfer.status_changed': { category: 'ISSUING'; data: IssuingTransferView };
  'issuing.report.succeeded': { category: 'ISSUING'; data: IssuingReportView };
  'issuing.transaction.authorization': { category: 'ISSUING'; data: CardTransactionView };
  'issuing.transaction.declined': { category: 'ISSUING'; data: CardTransactionView };
  'issuing.transaction.reversal': { category: 'ISSUING'; data: CardTransactionView };
  'issuing.transaction.clearing': { category: 'ISSUING'; data: CardTransactionView };
  'issuing.transaction.refund': { category: 'ISSUING'; data: CardTransactionView };
  'issuing.transaction.chargeback.credit': { category: 'ISSUING'; data: CardTransactionView };
  'issuing.transaction.chargeback.debit': { category: 'ISSUING'; data: CardTransactionView };
  'acquiring.payout.created': { category: 'PAYOUT'; data: PayoutView };
  'payout.processing': { category: 'PAYOUT'; data: PayoutView };
  'payout.completed': { category: 'PAYOUT'; data: PayoutView };
  'payout.failed': { category: 'PAYOUT'; data: PayoutView };
  'payout.failed_refunded': { category: 'PAYOUT'; data: PayoutView };

  'webhook.endpoint.disabled': { category: 'OPERATIONS'; data: WebhookEndpointDisabledData };
}

/**
 * Which maps of libs/contracts belong to which family (topic pair). A family's commands are one or more
 * maps of command declarations (defineCommand) or, until a family has moved to them, bare type strings.
 */
const FAMILIES = {
  accounts: { commands: [AccountCommand, CredentialCommand], events: AccountEvents },
  acquiring: { commands: [AcquiringCommand, AcquiringAuditCommand], events: AcquiringEvents },
  payouts: { commands: [PayoutCommand], events: PayoutEvents },
  issuing: {
    commands: [IssuingCommand, IssuingFundsCommand, IssuingLedgerAuditCommand, IssuingTransactionCommand],
    events: { ...IssuingEvents, ...IssuingFundsEvents, ...IssuingTransactionEvents },
  },
  webhooks: { commands: [WebhookCommand], events: WebhookEvents },
} as const satisfies Record<CommandFamily, { commands: readonly object[]; events: object }>;

type ValuesOf<T> = T[keyof T];
/** The values of each map in a union of maps (keyof a union would keep only the shared keys). */
type ValuesOfEach<M> = M extends object ? ValuesOf<M> : never;
type CommandTypeOf<V> = V extends string ? V : V extends CommandDefinition<object, unknown, boolean, infer T> ? T : never;
type DeclaredCommand =
  | CommandTypeOf<ValuesOf<{ [F in CommandFamily]: ValuesOfEach<(typeof FAMILIES)[F]['commands'][number]> }>>
  | typeof PING_COMMAND;
type DeclaredEvent = ValuesOf<{ [F in CommandFamily]: ValuesOf<(typeof FAMILIES)[F]['events']> }>;
/** `true` only when the two key sets are equal: a command or event missing on either side fails to compile. */
type SameKeys<A, B> = [Exclude<A, B>, Exclude<B, A>] extends [never, never] ? true : false;
const commandsDescribed: SameKeys<keyof BusCommandShapes, DeclaredCommand> = true;
const eventsDescribed: SameKeys<keyof BusEventShapes, DeclaredEvent> = true;
void [commandsDescribed, eventsDescribed];

export interface BusFamily {
  family: CommandFamily;
  commandTopic: string;
  replyTopic: string;
  eventTopic: string;
  /** Command types the family's service answers (ping included: every service answers it). */
  commands: (keyof BusCommandShapes)[];
  events: (keyof BusEventShapes)[];
}

export interface BusCatalogue {
  eventEnvelopeVersion: string;
  families: BusFamily[];
}

export function readBusCatalogue(): BusCatalogue {
  const families = (Object.keys(FAMILIES) as CommandFamily[]).map((family) => ({
    family,
    commandTopic: CommandTopics[family],
    replyTopic: replyTopicOf(CommandTopics[family]),
    eventTopic: EventTopics[family],
    commands: [
      PING_COMMAND,
      ...FAMILIES[family].commands.flatMap((map: object) => Object.values(map).map(commandTypeOf)),
    ] as (keyof BusCommandShapes)[],
    events: Object.values(FAMILIES[family].events) as (keyof BusEventShapes)[],
  }));
  return { eventEnvelopeVersion: EVENT_ENVELOPE_VERSION, families };
}

function commandTypeOf(entry: string | CommandDefinition): string {
  return typeof entry === 'string' ? entry : entry.type;
}
