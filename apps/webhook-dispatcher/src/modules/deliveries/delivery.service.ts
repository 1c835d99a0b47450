import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import {
  ListWebhookDeliveriesPayload,
  ListWebhookEventAttemptsPayload,
  WebhookAttemptView,
  WebhookDeliveryDetailView,
  WebhookDeliveryRef,
  WebhookDeliveryView,
  WebhookPage,
} from '@paygrid/contracts';
import { TransactionContext } from '@paygrid/platform';
import { TransitionRefusedError } from '@paygrid/state-machine';
import { offsetOf, pageOf } from '../../common/pagination';
import { WebhookErrors } from '../../common/webhook-errors';
import { DeliveryQueue } from '../sending/delivery-queue';
import { presentAttempt, presentDelivery, storedStatus } from './delivery.presenter';
import { DeliveryRepository } from './delivery.repository';
import { deliveryMachine } from './delivery.states';

/**
 * What merchants and on-call do with deliveries: list them, inspect one with its attempts, list an
 * event's attempts, retry one. A retry runs in its command's transaction (the command ledger answers a
 * repeated command_id with the stored reply) and enqueues its job only once that transaction committed,
 * so the worker finds the delivery pending when the job runs. Scope: the acting account, or null for an
 * operator (every account).
 */
@Injectable()
export class DeliveryService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly deliveries: DeliveryRepository,
    private readonly queue: DeliveryQueue,
  ) {}

  async list(
    scope: string | null,
    request: ListWebhookDeliveriesPayload,
  ): Promise<WebhookPage<WebhookDeliveryView>> {
    const { deliveries, total } = await this.deliveries.list(
      this.dataSource,
      {
        accountId: scope ?? request.account_id ?? null,
        status: request.delivery_status ? storedStatus(request.delivery_status) : undefined,
        eventName: request.event_name,
        endpointId: request.endpoint_id,
        createdFrom: request.create_start_time ? new Date(request.create_start_time) : undefined,
        createdTo: request.create_end_time ? new Date(request.create_end_time) : undefined,
      },
      request.page_size,
      offsetOf(request),
    );
    return pageOf(deliveries.map(presentDelivery), total, request);
  }

  async retrieve(scope: string | null, request: WebhookDeliveryRef): Promise<WebhookDeliveryDetailView> {
    const delivery = await this.deliveries.findVisible(this.dataSource, request.delivery_id, scope);
    if (!delivery) throw WebhookErrors.deliveryNotFound();
    const attempts = await this.deliveries.attemptsOf(this.dataSource, delivery.deliveryId);
    return {
      ...presentDelivery(delivery),
      url: delivery.endpointUrl ?? attempts.at(-1)?.url ?? '',
      attempts: attempts.map(presentAttempt),
    };
  }

  async eventAttempts(
    scope: string | null,
    request: ListWebhookEventAttemptsPayload,
  ): Promise<WebhookPage<WebhookAttemptView>> {
    const { attempts, total } = await this.deliveries.eventAttempts(
      this.dataSource,
      request.event_id,
      scope,
      request.page_size,
      offsetOf(request),
    );
    return pageOf(attempts.map(presentAttempt), total, request);
  }

  /** One more (manual) attempt of a failed or succeeded delivery; its endpoint must be enabled. */
  async retry(
    tx: TransactionContext,
    scope: string | null,
    request: WebhookDeliveryRef,
  ): Promise<WebhookDeliveryView> {
    const current = await this.deliveries.findVisible(tx.manager, request.delivery_id, scope);
    if (!current) throw WebhookErrors.deliveryNotFound();
    const endpointStatus = await this.deliveries.lockEndpointStatus(tx.manager, current.endpointId);
    if (endpointStatus === null) throw WebhookErrors.endpointNotFound();
    if (endpointStatus !== 'ENABLED') throw WebhookErrors.endpointDisabled();
    const due = await this.deliveries.retry(tx.manager, current.deliveryId, scope);
    if (!due) throw refusal('RETRY', current.status, current.deliveryId);
    tx.afterCommit(() => this.queue.enqueue([due]));
    const updated = await this.deliveries.findVisible(tx.manager, current.deliveryId, scope);
    return presentDelivery(updated ?? current);
  }
}

function refusal(event: 'RETRY', status: string, deliveryId: string) {
  try {
    deliveryMachine.assertTransition(status, event, deliveryId);
  } catch (error) {
    if (error instanceof TransitionRefusedError) return WebhookErrors.transitionRefused(error);
  }
  return WebhookErrors.deliveryNotFound();
}
