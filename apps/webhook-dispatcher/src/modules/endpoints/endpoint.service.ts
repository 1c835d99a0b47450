import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import {
  Actor,
  CreatedWebhookEndpointView,
  CreateWebhookEndpointPayload,
  DeletedWebhookEndpointView,
  EventTopics,
  ListWebhookEndpointsPayload,
  ReplayedWebhookEndpointView,
  ReplayWebhookEndpointPayload,
  RotatedWebhookSecretView,
  RotateWebhookSecretPayload,
  UpdateWebhookEndpointPayload,
  WebhookEndpointDisabledData,
  WebhookEndpointView,
  WebhookEvents,
  WebhookPage,
} from '@paygrid/contracts';
import {
  appendToOutbox,
  assertPublicTarget,
  Executor,
  privateUrlsAllowed,
  TransactionContext,
  UrlRefusedError,
} from '@paygrid/platform';
import { newId } from '@paygrid/ids';
import { offsetOf, pageOf } from '../../common/pagination';
import { WebhookErrors } from '../../common/webhook-errors';
import { DISPATCHER_CONFIG, DispatcherConfig } from '../../config';
import { DeliveryRepository } from '../deliveries/delivery.repository';
import { DeliveryQueue } from '../sending/delivery-queue';
import { WebhookMetrics } from '../sending/webhook-metrics';
import { newWebhookSecret } from '../sending/webhook-signer';
import { DisableReason, Endpoint } from './endpoint.types';
import { presentEndpoint } from './endpoint.presenter';
import { EndpointRepository } from './endpoint.repository';

/**
 * Webhook endpoints: one method per use case. Endpoints belong to the acting account; an operator
 * (scope null) sees every account's. A secret is shown once, in the reply that minted it. Disabling
 * (by the delivery worker) fails the endpoint's waiting deliveries, so they can be replayed after the
 * endpoint is enabled again, and announces itself with an OPERATIONS event through the outbox. Writes
 * run in their command's transaction (`tx`); work that must follow the commit (enqueueing, counting)
 * is registered on it.
 */
export const ENDPOINT_ID_PREFIX = 'whep';

@Injectable()
export class EndpointService {
  private readonly allowPrivate: boolean;

  constructor(
    private readonly dataSource: DataSource,
    private readonly endpoints: EndpointRepository,
    private readonly deliveries: DeliveryRepository,
    private readonly queue: DeliveryQueue,
    private readonly metrics: WebhookMetrics,
    @Inject(DISPATCHER_CONFIG) private readonly config: DispatcherConfig,
  ) {
    this.allowPrivate = privateUrlsAllowed(config.WEBHOOK_ALLOW_PRIVATE_URLS, config.NODE_ENV);
  }

  /** Call it with no transaction open: a DNS lookup may take a while. */
  async checkUrl(url: string): Promise<void> {
    try {
      await assertPublicTarget(url, this.allowPrivate);
    } catch (error) {
      if (error instanceof UrlRefusedError) throw WebhookErrors.invalidUrl(error.message);
      throw error;
    }
  }

  async create(
    tx: TransactionContext,
    actor: Actor,
    request: CreateWebhookEndpointPayload,
  ): Promise<CreatedWebhookEndpointView> {
    const endpoint = await this.endpoints.insert(tx.manager, {
      endpointId: newId(ENDPOINT_ID_PREFIX),
      accountId: actor.account_id,
      masterAccountId: actor.master_account_id,
      url: request.url,
      description: request.description ?? null,
      eventNames: request.event_names ?? [],
      includeSubAccounts: request.include_sub_accounts ?? false,
    });
    const secret = newWebhookSecret();
    await this.endpoints.insertSecret(tx.manager, endpoint.endpointId, secret);
    return { ...presentEndpoint(endpoint), secret };
  }

  async list(
    scope: string | null,
    request: ListWebhookEndpointsPayload,
  ): Promise<WebhookPage<WebhookEndpointView>> {
    const accountId = scope ?? request.account_id ?? null;
    const { endpoints, total } = await this.endpoints.list(
      this.dataSource,
      accountId,
      request.page_size,
      offsetOf(request),
    );
    return pageOf(endpoints.map(presentEndpoint), total, request);
  }

  async retrieve(scope: string | null, endpointId: string): Promise<WebhookEndpointView> {
    return presentEndpoint(await this.visible(this.dataSource, scope, endpointId));
  }

  async update(
    tx: TransactionContext,
    scope: string,
    request: UpdateWebhookEndpointPayload,
  ): Promise<WebhookEndpointView> {
    await this.visible(tx.manager, scope, request.endpoint_id, { lock: true });
    const updated = await this.endpoints.update(tx.manager, request.endpoint_id, {
      url: request.url,
      description: request.description,
      eventNames: request.event_names,
      includeSubAccounts: request.include_sub_accounts,
    });
    return presentEndpoint(updated);
  }

  /** Deleted endpoints disappear; their waiting deliveries are cancelled (not failed: nothing to replay to). */
  async delete(
    tx: TransactionContext,
    scope: string,
    endpointId: string,
  ): Promise<DeletedWebhookEndpointView> {
    await this.visible(tx.manager, scope, endpointId, { lock: true });
    await this.endpoints.transition(tx.manager, endpointId, 'DELETE');
    const cancelled = await this.deliveries.settlePendingOfEndpoint(
      tx.manager,
      endpointId,
      'CANCEL',
      'endpoint deleted',
    );
    tx.afterCommit(() => this.metrics.deliveries.inc({ outcome: 'cancelled' }, cancelled));
    return { endpoint_id: endpointId, deleted: true };
  }

  /**
   * A new secret signs from now on; the secrets active so far keep signing until the overlap ends, so
   * receivers can switch without losing a delivery (webhook-signature carries one entry per secret).
   */
  async rotateSecret(
    tx: TransactionContext,
    scope: string,
    request: RotateWebhookSecretPayload,
  ): Promise<RotatedWebhookSecretView> {
    await this.visible(tx.manager, scope, request.endpoint_id, { lock: true });
    const overlapMs =
      request.overlap_seconds !== undefined
        ? request.overlap_seconds * 1000
        : this.config.WEBHOOK_SECRET_OVERLAP_MS;
    const previousExpiresAt = new Date(Date.now() + overlapMs);
    await this.endpoints.expireActiveSecrets(tx.manager, request.endpoint_id, previousExpiresAt);
    const secret = newWebhookSecret();
    await this.endpoints.insertSecret(tx.manager, request.endpoint_id, secret);
    return {
      endpoint_id: request.endpoint_id,
      secret,
      previous_secret_expire_time: previousExpiresAt.toISOString(),
    };
  }

  /** Enabling an enabled endpoint changes nothing and answers the same. */
  async enable(
    tx: TransactionContext,
    scope: string | null,
    endpointId: string,
  ): Promise<WebhookEndpointView> {
    const endpoint = await this.visible(tx.manager, scope, endpointId, { lock: true });
    if (endpoint.status === 'ENABLED') return presentEndpoint(endpoint);
    const enabled = await this.endpoints.transition(tx.manager, endpointId, 'ENABLE', {
      disabled_reason: null,
      disabled_at: null,
      failing_since: null,
    });
    return presentEndpoint(enabled ?? endpoint);
  }

  /**
   * Every failed delivery of the endpoint created at or after `since`, once more (after it recovered);
   * the endpoint must be enabled. Jobs are enqueued once the transaction committed.
   */
  async replay(
    tx: TransactionContext,
    scope: string | null,
    request: ReplayWebhookEndpointPayload,
  ): Promise<ReplayedWebhookEndpointView> {
    const endpoint = await this.visible(tx.manager, scope, request.endpoint_id, { lock: true });
    if (endpoint.status !== 'ENABLED') throw WebhookErrors.endpointDisabled();
    const since = new Date(request.since);
    const due = await this.deliveries.replayFailed(tx.manager, request.endpoint_id, since);
    tx.afterCommit(() => this.queue.enqueue(due));
    return { endpoint_id: request.endpoint_id, since: since.toISOString(), replayed: due.length };
  }

  /** Called inside the worker's transaction; false when another worker disabled it first. */
  async disable(executor: Executor, endpoint: Endpoint, reason: DisableReason, now: Date): Promise<boolean> {
    const disabled = await this.endpoints.transition(executor, endpoint.endpointId, 'DISABLE', {
      disabled_reason: reason,
      disabled_at: now,
    });
    if (!disabled) return false;
    const failed = await this.deliveries.settlePendingOfEndpoint(
      executor,
      endpoint.endpointId,
      'FAIL',
      'endpoint disabled',
    );
    this.metrics.deliveries.inc({ outcome: 'failed' }, failed);
    const data: WebhookEndpointDisabledData = {
      endpoint_id: disabled.endpointId,
      account_id: disabled.accountId,
      url: disabled.url,
      reason,
      failing_since: disabled.failingSince?.toISOString() ?? null,
      disabled_time: now.toISOString(),
    };
    await appendToOutbox(executor, {
      topic: EventTopics.webhooks,
      event_name: WebhookEvents.endpointDisabled,
      event_type: 'OPERATIONS',
      source_id: disabled.endpointId,
      account_id: disabled.accountId,
      master_account_id: disabled.masterAccountId,
      data,
    });
    return true;
  }

  async visible(
    executor: Executor,
    scope: string | null,
    endpointId: string,
    options: { lock?: boolean } = {},
  ): Promise<Endpoint> {
    const endpoint = options.lock
      ? await this.endpoints.lockVisible(executor, endpointId, scope)
      : await this.endpoints.findVisible(executor, endpointId, scope);
    if (!endpoint) throw WebhookErrors.endpointNotFound();
    return endpoint;
  }
}
