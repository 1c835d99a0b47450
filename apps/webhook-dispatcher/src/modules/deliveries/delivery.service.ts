import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import {
  CommandEnvelope,
  ReplayedWebhookEndpointView,
  WebhookAttemptView,
  WebhookDeliveryDetailView,
  WebhookDeliveryView,
  WebhookPage,
} from '@paygrid/contracts';
import { Executor } from '@paygrid/platform';
import { TransitionRefusedError } from '@paygrid/state-machine';
import { applyOnce } from '../../common/apply-once';
import { offsetOf, pageOf } from '../../common/pagination';
import { EndpointService } from '../endpoints/endpoint.service';
import { WebhookErrors } from '../endpoints/endpoint.errors';
import { ReplayEndpointDto } from '../endpoints/dto/endpoint-commands.dto';
import { DeliveryQueue } from '../sending/delivery-queue';
import { DueDelivery } from './delivery.entity';
import { presentAttempt, presentDelivery, storedStatus } from './delivery.presenter';
import { DeliveryRepository } from './delivery.repository';
import { deliveryMachine } from './delivery.states';
import { DeliveryRefDto, EventAttemptsDto, ListDeliveriesDto } from './dto/delivery-commands.dto';

/**
 * What merchants and on-call do with deliveries: list them, inspect one with its attempts, list an
 * event's attempts, retry one, replay an endpoint's failures since a time. Retry and replay go through
 * the command ledger (a repeated command_id answers the stored reply) and enqueue only after their
 * transaction committed, so the worker finds the delivery pending when the job runs.
 */
@Injectable()
export class DeliveryService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly deliveries: DeliveryRepository,
    private readonly endpoints: EndpointService,
    private readonly queue: DeliveryQueue,
  ) {}

  async list(scope: string | null, request: ListDeliveriesDto): Promise<WebhookPage<WebhookDeliveryView>> {
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

  async retrieve(scope: string | null, request: DeliveryRefDto): Promise<WebhookDeliveryDetailView> {
    const delivery = await this.deliveries.findVisible(this.dataSource, request.delivery_id, scope);
    if (!delivery) throw WebhookErrors.deliveryNotFound();
    const endpoint = await this.endpoints
      .visible(this.dataSource, null, delivery.endpointId)
      .catch(() => null);
    const attempts = await this.deliveries.attemptsOf(this.dataSource, delivery.deliveryId);
    return {
      ...presentDelivery(delivery),
      url: endpoint?.url ?? attempts.at(-1)?.url ?? '',
      attempts: attempts.map(presentAttempt),
    };
  }

  async eventAttempts(
    scope: string | null,
    request: EventAttemptsDto,
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
    command: CommandEnvelope,
    scope: string | null,
    request: DeliveryRefDto,
  ): Promise<WebhookDeliveryView> {
    const due: DueDelivery[] = [];
    const view = await applyOnce(this.dataSource, command, async (manager) => {
      const current = await this.deliveries.findVisible(manager, request.delivery_id, scope);
      if (!current) throw WebhookErrors.deliveryNotFound();
      await this.assertEnabled(manager, current.endpointId);
      const retried = await this.deliveries.retry(manager, current.deliveryId, scope);
      if (!retried) throw refusal('RETRY', current.status, current.deliveryId);
      due.push(retried);
      const updated = await this.deliveries.findVisible(manager, current.deliveryId, scope);
      return presentDelivery(updated ?? current);
    });
    await this.queue.enqueue(due);
    return view;
  }

  /** Every failed delivery of the endpoint created at or after `since`, once more (after it recovered). */
  async replay(
    command: CommandEnvelope,
    scope: string | null,
    request: ReplayEndpointDto,
  ): Promise<ReplayedWebhookEndpointView> {
    const due: DueDelivery[] = [];
    const since = new Date(request.since);
    const view = await applyOnce(this.dataSource, command, async (manager) => {
      await this.assertEnabled(manager, request.endpoint_id, scope);
      due.push(...(await this.deliveries.replayFailed(manager, request.endpoint_id, since)));
      return { endpoint_id: request.endpoint_id, since: since.toISOString(), replayed: due.length };
    });
    await this.queue.enqueue(due);
    return view;
  }

  private async assertEnabled(
    executor: Executor,
    endpointId: string,
    scope: string | null = null,
  ): Promise<void> {
    const endpoint = await this.endpoints.visible(executor, scope, endpointId, { lock: true });
    if (endpoint.status !== 'ENABLED') throw WebhookErrors.endpointDisabled();
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
