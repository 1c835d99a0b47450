import { createHash, randomBytes } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import {
  ActivateCardPayload,
  ActivationView,
  Actor,
  AssignCardPayload,
  BulkCreateCardsPayload,
  CardEventData,
  CardStatusEventData,
  CardView,
  CardWriteView,
  CreateCardPayload,
  IssuingEvents,
  ListCardsPayload,
  NetworkProtectionEventData,
  PanTokenView,
  PinResetView,
  ResetPinPayload,
  SealedSecureDetails,
  UpdateCardPayload,
  UpdateCardStatusPayload,
} from '@paygrid/contracts';
import { toMajorNumber } from '@paygrid/money';
import { uuidV4 } from '@paygrid/ids';
import { ApiError, DurableJobs, Executor, TransactionContext } from '@paygrid/platform';
import { ISSUING_CONFIG, IssuingConfig } from '../../config';
import { CardErrors, CardholderErrors } from '../../common/issuing-errors';
import { recordIssuingEvent } from '../../common/issuing-events';
import { pageOf } from '../../common/paging';
import { IssuingBalances } from '../balances/issuing-balances';
import { CatalogueRepository } from '../catalogue/catalogue.repository';
import { Product } from '../catalogue/product.types';
import { missingFields } from '../cardholders/cardholder-requirements';
import { CardholderRepository } from '../cardholders/cardholder.repository';
import { CardholderService } from '../cardholders/cardholder.service';
import { Cardholder } from '../cardholders/cardholder.types';
import { CardMint } from '../crypto/card-mint';
import { IssuingTransport, SecretHasher, TransportError } from '../crypto/card-secrets';
import { PoolRepository } from '../pool/pool.repository';
import { PoolService } from '../pool/pool.service';
import { CardOrder, CardOrderRepository } from './card-order.repository';
import { formatExpiry, isExpired } from './card-number';
import { presentCard, presentCardWrite } from './card.presenter';
import { CardRepository } from './card.repository';
import { decideCreate, decideNoPinAmount, decideUpdate, updateReasonTooLong } from './card.rules';
import { SENSITIVE_DETAIL_STATUSES, STATUS_TARGET_EVENTS } from './card.states';
import { Card } from './card.types';

/**
 * Cards (wire-compat §11.4–11.8, spec 4.7, 7.3, 7.4): create, list, retrieve, update, status, activate, assign,
 * PIN reset, network protection, bulk create and the sensitive details. Creating and updating produce card
 * orders that the `card_order` job completes (CardOrderService); everything else is decided here, under the
 * card's row lock where two requests could race.
 */
export const CARD_ORDER_JOB = 'card_order';
/** What a one-step (no cardholder_id) create must be told at least. */
const ONE_STEP_BASICS = ['first_name', 'last_name', 'email', 'country_code', 'phone_number'] as const;

@Injectable()
export class CardService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly cards: CardRepository,
    private readonly orders: CardOrderRepository,
    private readonly catalogue: CatalogueRepository,
    private readonly cardholders: CardholderRepository,
    private readonly cardholderService: CardholderService,
    private readonly pool: PoolRepository,
    private readonly poolService: PoolService,
    private readonly balances: IssuingBalances,
    private readonly mint: CardMint,
    private readonly transport: IssuingTransport,
    private readonly hasher: SecretHasher,
    private readonly jobs: DurableJobs,
    @Inject(ISSUING_CONFIG) private readonly config: Pick<IssuingConfig, 'CARD_ORDER_DELAY_MS' | 'PAN_TOKEN_TTL_SECONDS'>,
  ) {}

  async create(tx: TransactionContext, actor: Actor, payload: CreateCardPayload): Promise<CardWriteView> {
    const product = await this.catalogue.findProduct(tx.manager, actor.account_id, payload.card_product_id, true);
    if (!product) throw CardErrors.productNotFound();
    const decision = decideCreate(product, payload);
    if (decision instanceof ApiError) throw decision;
    const cardArtId = await this.cardArtFor(tx.manager, actor.account_id, product, payload.card_art_id);
    const cardholder = await this.cardholderForCreate(tx, actor, product, payload);
    if ((await this.cards.liveCount(tx.manager, { cardholderId: cardholder.cardholderId })) >= product.maxCardsPerCardholder) {
      throw CardErrors.cardholderQuotaExceeded();
    }
    if ((await this.cards.liveCount(tx.manager, { productId: product.productId })) >= product.maxCardQuota) throw CardErrors.accountQuotaExceeded();

    const cardId = uuidV4();
    const number = this.mint.mint(product.cardBin, cardId);
    // Sandbox physical cards: the code on the carrier is the card's last four digits (docs/issuing.md).
    const activationCodeHash = decision.formFactor === 'PHYSICAL' ? await this.hasher.hash(number.pan.slice(-4)) : null;
    const card = await this.cards.insert(tx.manager, {
      cardId,
      accountId: actor.account_id,
      masterAccountId: actor.master_account_id,
      cardholderId: cardholder.cardholderId,
      productId: product.productId,
      status: 'PENDING',
      formFactor: decision.formFactor,
      modeType: product.modeType,
      currency: payload.card_currency,
      ...number,
      cardLimitMinor: decision.cardLimitMinor,
      spendingControls: payload.spending_controls ?? [],
      riskControls: payload.risk_controls ?? {},
      metadata: payload.metadata ?? {},
      usageType: payload.usage_type ?? 'NORMAL',
      autoCancelTrigger: decision.autoCancelTrigger,
      expiryAt: decision.expiryAt,
      noPinAmountMinor: 0n,
      cardArtId,
      activationCodeHash,
      issuedAt: null,
    });
    const order = await this.placeOrder(tx, card, 'CARD_CREATE', decision.cardLimitMinor);
    return presentCardWrite(card, order, cardholder.status);
  }

  async list(actor: Actor, payload: ListCardsPayload) {
    if (payload.cardholder_id && !(await this.cardholders.find(this.dataSource, actor.account_id, payload.cardholder_id))) {
      throw CardErrors.cardholderNotFoundForList();
    }
    const fingerprint = payload.sealed_card_number === undefined ? undefined : this.mint.fingerprint(this.openNumber(payload.sealed_card_number));
    const { items, total } = await this.cards.list(this.dataSource, actor.account_id, {
      status: payload.card_status,
      cardholderId: payload.cardholder_id,
      fingerprint,
      pageNumber: payload.page_number,
      pageSize: payload.page_size,
    });
    const balances = await this.balances.cardsAvailable(
      this.dataSource,
      items.map((item) => item.card.cardId),
    );
    return pageOf(
      items.map(({ card, cardholder }) => presentCard(card, cardholder, balances.get(card.cardId) ?? 0n)),
      total,
      payload.page_size,
    );
  }

  async retrieve(actor: Actor, cardId: string): Promise<CardView> {
    const found = await this.cards.findWithHolder(this.dataSource, actor.account_id, cardId);
    if (!found) throw CardErrors.notFound();
    if (found.card.status === 'FAILED') throw CardErrors.cardFailed();
    return this.view(this.dataSource, found.card, found.cardholder);
  }

  /** Validates now (spec 7.4), applies with the CARD_UPDATE order's job (card.update.succeeded / .failed). */
  async update(tx: TransactionContext, actor: Actor, payload: UpdateCardPayload): Promise<CardWriteView> {
    const { card_id: cardId, ...changes } = payload;
    const card = await this.lockCard(tx.manager, actor, cardId);
    if (!['PENDING', 'ACTIVE', 'FROZEN'].includes(card.status)) throw CardErrors.notActive();
    if (isExpired(card)) throw CardErrors.expiredLegacy();
    const product = await this.productOf(tx.manager, card);
    const decision = decideUpdate(card, product, changes, 0n);
    if (decision instanceof ApiError) throw decision;
    if (changes.card_art_id !== undefined) await this.cardArtFor(tx.manager, actor.account_id, product, changes.card_art_id);
    const order = await this.placeOrder(tx, card, 'CARD_UPDATE', decision.cardLimitMinor ?? card.cardLimitMinor, {
      changes: {
        ...(decision.cardLimitMinor !== undefined ? { card_limit_minor: String(decision.cardLimitMinor) } : {}),
        ...(decision.noPinAmountMinor !== undefined ? { no_pin_amount_minor: String(decision.noPinAmountMinor) } : {}),
        ...(changes.spending_controls !== undefined ? { spending_controls: JSON.stringify(changes.spending_controls) } : {}),
        ...(changes.risk_controls !== undefined ? { risk_controls: JSON.stringify({ ...card.riskControls, ...changes.risk_controls }) } : {}),
        ...(changes.metadata !== undefined ? { metadata: JSON.stringify(changes.metadata) } : {}),
        ...(changes.card_art_id !== undefined ? { card_art_id: changes.card_art_id } : {}),
      },
    });
    return presentCardWrite(card, order);
  }

  /** Synchronous: the machine decides, the order is recorded final, card.status.update.succeeded announces it. */
  async updateStatus(tx: TransactionContext, actor: Actor, payload: UpdateCardStatusPayload) {
    const reason = payload.update_reason ?? '';
    if (updateReasonTooLong(reason)) throw CardErrors.updateReasonTooLong();
    const card = await this.lockCard(tx.manager, actor, payload.card_id);
    if (isExpired(card) && card.status !== 'CANCELLED') throw CardErrors.expiredLegacy();
    const changed = await this.cards.transition(tx.manager, card.cardId, STATUS_TARGET_EVENTS[payload.card_status], { update_reason: reason });
    if (changed.status === 'CANCELLED' || changed.status === 'LOST' || changed.status === 'STOLEN') {
      await this.balances.sweepCard(tx.manager, changed, changed.status);
    }
    const order = await this.recordFinalOrder(tx.manager, changed, 'CARD_STATUS_UPDATE', { from: card.status, to: changed.status });
    await this.announceStatus(tx.manager, changed, order, reason);
    return { card_id: card.cardId, card_order_id: order.cardOrderId, order_status: order.status, update_reason: reason };
  }

  /** Physical cards only: the carrier's activation code must match; the PIN is stored only as a slow hash. */
  async activate(tx: TransactionContext, actor: Actor, payload: ActivateCardPayload): Promise<ActivationView> {
    const secrets = this.openSecrets(payload.sealed);
    const card = await this.lockCard(tx.manager, actor, payload.card_id);
    if (card.formFactor !== 'PHYSICAL') throw CardErrors.invalidCardType();
    if (card.activatedAt !== null || card.status === 'ACTIVE') throw CardErrors.alreadyActivated();
    if (card.status !== 'PENDING' || card.issuedAt === null) throw CardErrors.statusInvalid();
    if (isExpired(card)) throw CardErrors.expiredLegacy();
    if (!secrets.activation_code || !(await this.hasher.matches(secrets.activation_code, card.activationCodeHash))) {
      throw CardErrors.invalidActivationCode();
    }
    if (!secrets.pin || !/^\d{4,6}$/.test(secrets.pin)) throw CardErrors.statusInvalid();
    let noPinAmountMinor: bigint | undefined;
    if (payload.no_pin_payment_amount !== undefined) {
      const decided = decideNoPinAmount(await this.productOf(tx.manager, card), card.currency, payload.no_pin_payment_amount);
      if (decided instanceof ApiError) throw decided;
      noPinAmountMinor = decided;
    }
    const activated = await this.cards.transition(tx.manager, card.cardId, 'ACTIVATE', {
      pin_hash: await this.hasher.hash(secrets.pin),
      activated_at: new Date(),
      activation_code_hash: null,
      ...(noPinAmountMinor !== undefined ? { no_pin_amount_minor: String(noPinAmountMinor) } : {}),
    });
    const order = await this.recordFinalOrder(tx.manager, activated, 'CARD_STATUS_UPDATE', { from: 'PENDING', to: 'ACTIVE', activation: true });
    await this.announceStatus(tx.manager, activated, order, 'activated');
    return { request_status: 'SUCCESS' };
  }

  /** Binds a pool number to a cardholder (spec 4.7): physical cards then wait for activation. */
  async assign(tx: TransactionContext, actor: Actor, payload: AssignCardPayload): Promise<CardWriteView> {
    const number = this.openNumber(payload.sealed_card_number).replace(/[ -]/g, '');
    if (!/^\d{16}$/.test(number)) throw CardErrors.cardNumberNotExist();
    const pooled = await this.pool.lockUnassigned(tx.manager, actor.account_id, this.mint.fingerprint(number));
    if (!pooled) throw CardErrors.cardNumberNotExist();
    const cardholder = await this.cardholders.find(tx.manager, actor.account_id, payload.cardholder_id, { lock: true });
    if (!cardholder) throw CardholderErrors.notFound();
    this.requireVerified(cardholder);
    const product = await this.catalogue.findProduct(tx.manager, actor.account_id, pooled.productId, true);
    if (!product || product.productStatus !== 'ENABLED') throw CardErrors.productNotFound();
    if (product.modeType !== payload.card_mode) throw CardErrors.cardModeMismatch();
    if (!product.currencies.includes(payload.card_currency)) throw CardErrors.currencyNotAllowed(payload.card_currency);
    const missing = missingFields(cardholder, product.requiredFields);
    if (missing.length > 0) throw CardholderErrors.kycInsufficient(missing);
    if ((await this.cards.liveCount(tx.manager, { cardholderId: cardholder.cardholderId })) >= product.maxCardsPerCardholder) {
      throw CardErrors.cardholderQuotaExceededLegacy();
    }
    if ((await this.cards.liveCount(tx.manager, { productId: product.productId })) >= product.maxCardQuota) throw CardErrors.accountQuotaExceededLegacy();

    const cardId = uuidV4();
    const physical = pooled.formFactor === 'PHYSICAL';
    const card = await this.cards.insert(tx.manager, {
      cardId,
      accountId: actor.account_id,
      masterAccountId: actor.master_account_id,
      cardholderId: cardholder.cardholderId,
      productId: product.productId,
      status: physical ? 'PENDING' : 'ACTIVE',
      formFactor: pooled.formFactor,
      modeType: product.modeType,
      currency: payload.card_currency,
      ...this.mint.rehome(pooled, pooled.poolCardId, cardId),
      cardLimitMinor: 0n,
      spendingControls: [],
      riskControls: {},
      metadata: {},
      usageType: 'NORMAL',
      autoCancelTrigger: null,
      expiryAt: null,
      noPinAmountMinor: 0n,
      cardArtId: null,
      activationCodeHash: pooled.activationCodeHash,
      issuedAt: new Date(),
    });
    await this.pool.markAssigned(tx.manager, pooled.poolCardId, cardId);
    const order = await this.recordFinalOrder(tx.manager, card, 'CARD_CREATE', { assigned_from_pool: pooled.poolCardId });
    await this.announceCreated(tx.manager, card, order);
    return presentCardWrite(card, order, cardholder.status);
  }

  async resetPin(tx: TransactionContext, actor: Actor, payload: ResetPinPayload): Promise<PinResetView> {
    const { pin } = this.openSecrets(payload.sealed);
    const card = await this.lockCard(tx.manager, actor, payload.card_id);
    if (card.formFactor !== 'PHYSICAL') throw CardErrors.virtualCardPin();
    if (isExpired(card)) throw CardErrors.expired();
    if (card.activatedAt === null || !['ACTIVE', 'FROZEN'].includes(card.status)) throw CardErrors.statusNotSupported(card.status);
    if (!pin || !/^\d{4,6}$/.test(pin)) throw CardErrors.statusNotSupported(card.status);
    await this.cards.setFields(tx.manager, card.cardId, { pin_hash: await this.hasher.hash(pin) });
    return { card_id: card.cardId, request_status: 'SUCCESS' };
  }

  async setNetworkProtection(tx: TransactionContext, actor: Actor, cardId: string, enrol: boolean): Promise<CardView> {
    const card = await this.lockCard(tx.manager, actor, cardId);
    if (!['ACTIVE', 'FROZEN'].includes(card.status)) throw CardErrors.statusNotSupported(card.status);
    if (enrol === (card.networkProtectionAt !== null)) {
      throw enrol ? CardErrors.networkProtectionEnrolled() : CardErrors.networkProtectionNotEnrolled();
    }
    const changed = await this.cards.setFields(tx.manager, card.cardId, { network_protection_at: enrol ? new Date() : null });
    const view = await this.view(tx.manager, changed, null);
    await recordIssuingEvent<NetworkProtectionEventData>(
      tx.manager,
      changed,
      enrol ? IssuingEvents.networkProtectionEnrolled : IssuingEvents.networkProtectionRemoved,
      changed.cardId,
      { card_id: changed.cardId, card_number: changed.maskedNumber, network_protection: view.network_protection },
    );
    return view;
  }

  async bulkCreate(tx: TransactionContext, actor: Actor, payload: BulkCreateCardsPayload) {
    const product = await this.catalogue.findProduct(tx.manager, actor.account_id, payload.card_product_id);
    if (!product || product.productStatus !== 'ENABLED') throw CardErrors.productNotFound();
    if (!product.cardForms.includes('VIR')) throw CardErrors.operationNotAuthorized('the card product does not issue virtual cards');
    if (!product.currencies.includes(payload.card_currency)) throw CardErrors.currencyNotAllowed(payload.card_currency);
    return this.poolService.bulkCreateVirtual(tx.manager, actor.account_id, product, payload.card_currency, payload.quantity);
  }

  /** Full number, CVV and expiry, sealed for the gateway (rule 7: no clear PAN on the bus). */
  async secureDetails(actor: Actor, cardId: string): Promise<SealedSecureDetails> {
    const card = await this.sensitiveCard(actor, cardId);
    const { pan, cvv } = this.mint.reveal(card, card.cardId);
    return { sealed: this.transport.seal({ card_number: pan, cvv }), expire_date: formatExpiry(card.expiryMonth, card.expiryYear) };
  }

  /** A short-lived token for one card's details (the embedded display); only its hash is stored. */
  async panToken(tx: TransactionContext, actor: Actor, cardId: string): Promise<PanTokenView> {
    const card = await this.sensitiveCard(actor, cardId, tx.manager);
    const token = randomBytes(32).toString('base64url');
    const expiresAt = new Date(Date.now() + this.config.PAN_TOKEN_TTL_SECONDS * 1000);
    await tx.manager.query(`INSERT INTO pan_tokens (token_hash, card_id, expires_at) VALUES ($1, $2, $3)`, [
      createHash('sha256').update(token).digest('hex'),
      card.cardId,
      expiresAt,
    ]);
    return { token, expires_in: this.config.PAN_TOKEN_TTL_SECONDS, expires_at: expiresAt.toISOString() };
  }

  /** A card's view with its available balance from the ledger. */
  async view(executor: Executor, card: Card, holder: { cardholderId: string; firstName: string; lastName: string; email: string } | null) {
    let cardholder = holder;
    if (!cardholder && card.cardholderId) {
      const found = await this.cardholders.findById(executor, card.cardholderId);
      cardholder = found ?? null;
    }
    return presentCard(card, cardholder, await this.balances.cardAvailable(executor, card.cardId, card.currency));
  }

  async announceCreated(executor: Executor, card: Card, order: CardOrder): Promise<void> {
    const view = await this.view(executor, card, null);
    await recordIssuingEvent<CardEventData>(executor, card, order.status === 'SUCCESS' ? IssuingEvents.cardCreateSucceeded : IssuingEvents.cardCreateFailed, card.cardId, {
      ...view,
      card_order_id: order.cardOrderId,
      order_status: order.status,
      card_available_balance: view.available_balance,
    });
  }

  private async announceStatus(executor: Executor, card: Card, order: CardOrder, reason: string): Promise<void> {
    const available = await this.balances.cardAvailable(executor, card.cardId, card.currency);
    await recordIssuingEvent<CardStatusEventData>(executor, card, IssuingEvents.cardStatusUpdateSucceeded, card.cardId, {
      card_id: card.cardId,
      card_order_id: order.cardOrderId,
      card_status: card.status,
      order_status: order.status,
      update_reason: reason,
      available_balance: toMajorNumber(available),
      card_available_balance: toMajorNumber(available),
      currency: card.currency,
    });
  }

  async placeOrder(
    tx: TransactionContext,
    card: Card,
    orderType: CardOrder['orderType'],
    amountMinor: bigint,
    details: Record<string, unknown> = {},
  ): Promise<CardOrder> {
    const order = await this.orders.insert(tx.manager, {
      cardOrderId: uuidV4(),
      cardId: card.cardId,
      accountId: card.accountId,
      orderType,
      status: 'PENDING',
      amountMinor,
      currency: card.currency,
      details,
    });
    await this.jobs.schedule(tx, { kind: CARD_ORDER_JOB, subjectId: order.cardOrderId, dueAt: new Date(Date.now() + this.config.CARD_ORDER_DELAY_MS) });
    return order;
  }

  /** An order that completed with the request (status updates, activations, assignments): recorded final. */
  private recordFinalOrder(executor: Executor, card: Card, orderType: CardOrder['orderType'], details: Record<string, unknown>): Promise<CardOrder> {
    return this.orders.insert(executor, {
      cardOrderId: uuidV4(),
      cardId: card.cardId,
      accountId: card.accountId,
      orderType,
      status: 'SUCCESS',
      amountMinor: 0n,
      currency: card.currency,
      details,
    });
  }

  async lockCard(executor: Executor, actor: Actor, cardId: string): Promise<Card> {
    const card = await this.cards.find(executor, actor.account_id, cardId, { lock: true });
    if (!card) throw CardErrors.notFound();
    return card;
  }

  async productOf(executor: Executor, card: Card): Promise<Product> {
    const product = await this.catalogue.findProduct(executor, card.accountId, card.productId);
    if (!product) throw CardErrors.productNotFound();
    return product;
  }

  private async sensitiveCard(actor: Actor, cardId: string, executor: Executor = this.dataSource): Promise<Card> {
    const card = await this.cards.find(executor, actor.account_id, cardId);
    if (!card) throw CardErrors.notFound();
    if (!(SENSITIVE_DETAIL_STATUSES as readonly string[]).includes(card.status)) throw CardErrors.statusNotSupported(card.status);
    return card;
  }

  /** The cardholder a new card is for: found (and supplemented), or created in one step (spec 2026-04-24). */
  private async cardholderForCreate(tx: TransactionContext, actor: Actor, product: Product, payload: CreateCardPayload): Promise<Cardholder> {
    const supplied = payload.cardholder_required_fields;
    if (payload.cardholder_id === undefined) {
      if (!supplied) throw CardholderErrors.missingInfo();
      const basics = ONE_STEP_BASICS.filter((field) => !supplied[field]).map((name) => ({ name, type: 'string' as const, required: true }));
      const lacking = missingFields(asCardholder(supplied), product.requiredFields);
      const missing = [...basics, ...lacking.filter((field) => !basics.some((basic) => basic.name === field.name))];
      if (missing.length > 0) throw CardholderErrors.incompleteFields(missing);
      return this.cardholderService.createCardholder(tx, actor, supplied as Parameters<CardholderService['createCardholder']>[2]);
    }
    let cardholder = await this.cardholders.find(tx.manager, actor.account_id, payload.cardholder_id, { lock: true });
    if (!cardholder) throw CardholderErrors.notFound();
    if (supplied) {
      if (cardholder.status === 'FAILED') throw CardholderErrors.kycFailed();
      cardholder = await this.cardholderService.applyChanges(tx, cardholder, supplied);
      const missing = missingFields(cardholder, product.requiredFields);
      if (missing.length > 0) throw CardholderErrors.supplementIncomplete(missing);
      return cardholder;
    }
    this.requireVerified(cardholder);
    const missing = missingFields(cardholder, product.requiredFields);
    if (missing.length > 0) throw CardholderErrors.kycInsufficient(missing);
    return cardholder;
  }

  private requireVerified(cardholder: Cardholder): void {
    if (cardholder.status === 'PENDING') throw CardholderErrors.kycPending();
    if (cardholder.status === 'FAILED') throw CardholderErrors.kycFailed();
  }

  private async cardArtFor(executor: Executor, accountId: string, product: Product, cardArtId: string | undefined): Promise<string | null> {
    if (cardArtId !== undefined) {
      if (!product.supportsCardArt) throw CardErrors.cardArtNotSupported();
      if (!(await this.catalogue.findCardArt(executor, accountId, cardArtId))) throw CardErrors.cardArtNotAvailable();
      return cardArtId;
    }
    if (!product.supportsCardArt) return null;
    const fallback = await this.catalogue.defaultCardArt(executor, accountId);
    if (!fallback) throw CardErrors.cardArtNotConfigured();
    return fallback.cardArtId;
  }

  private openSecrets(sealed: string) {
    try {
      return this.transport.open(sealed);
    } catch (error) {
      if (error instanceof TransportError) throw CardErrors.statusInvalid();
      throw error;
    }
  }

  private openNumber(sealed: string): string {
    try {
      return this.transport.open(sealed).card_number ?? '';
    } catch (error) {
      if (error instanceof TransportError) throw CardErrors.cardNumberNotExist();
      throw error;
    }
  }
}

/** The supplied one-step fields read as a cardholder, for the product's required-field check. */
function asCardholder(supplied: NonNullable<CreateCardPayload['cardholder_required_fields']>): Cardholder {
  return {
    firstName: supplied.first_name ?? '',
    lastName: supplied.last_name ?? '',
    email: supplied.email ?? '',
    countryCode: supplied.country_code ?? '',
    phoneNumber: supplied.phone_number ?? '',
    dateOfBirth: supplied.date_of_birth ?? null,
    gender: supplied.gender ?? null,
    nationality: supplied.nationality ?? null,
    residentialAddress: (supplied.residential_address as Record<string, string> | undefined) ?? null,
    deliveryAddress: (supplied.delivery_address as Record<string, string> | undefined) ?? null,
    identity: supplied.identity
      ? {
          type: supplied.identity.type,
          number: supplied.identity.number,
          files: (['front_file', 'back_file', 'hand_file'] as const).filter((file) => supplied.identity?.[file] !== undefined),
        }
      : null,
  } as Cardholder;
}
