import { Injectable } from '@nestjs/common';
import {
  ListWebhookDeliveriesPayload,
  ListWebhookEventAttemptsPayload,
  WebhookCommand,
  WebhookDeliveryRef,
} from '@paygrid/contracts';
import { CommandContext, HandleCommand, WriteContext } from '@paygrid/platform';
import { DeliveryService } from './delivery.service';

/**
 * The delivery commands (declared in libs/contracts/src/webhooks.commands.ts), for merchants (scoped to
 * the acting account: deliveries to its endpoints) and for on-call engineers through the CLI (actor
 * null: every account).
 */
@Injectable()
export class DeliveryCommandHandlers {
  constructor(private readonly deliveries: DeliveryService) {}

  @HandleCommand(WebhookCommand.listDeliveries)
  list(payload: ListWebhookDeliveriesPayload, context: CommandContext) {
    return this.deliveries.list(context.accountScope(), payload);
  }

  @HandleCommand(WebhookCommand.retrieveDelivery)
  retrieve(payload: WebhookDeliveryRef, context: CommandContext) {
    return this.deliveries.retrieve(context.accountScope(), payload);
  }

  @HandleCommand(WebhookCommand.listEventAttempts)
  eventAttempts(payload: ListWebhookEventAttemptsPayload, context: CommandContext) {
    return this.deliveries.eventAttempts(context.accountScope(), payload);
  }

  @HandleCommand(WebhookCommand.retryDelivery)
  retry(payload: WebhookDeliveryRef, context: WriteContext) {
    return this.deliveries.retry(context.tx, context.accountScope(), payload);
  }
}
