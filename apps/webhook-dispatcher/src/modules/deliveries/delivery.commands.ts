import { Injectable } from '@nestjs/common';
import {
  CommandEnvelope,
  ReplayedWebhookEndpointView,
  WebhookAttemptView,
  WebhookCommands,
  WebhookDeliveryDetailView,
  WebhookDeliveryView,
  WebhookPage,
} from '@paygrid/contracts';
import { CommandHandler } from '@paygrid/platform';
import { accountScopeOf, parsePayload } from '../../common/payload';
import { ReplayEndpointDto } from '../endpoints/dto/endpoint-commands.dto';
import { DeliveryService } from './delivery.service';
import { DeliveryRefDto, EventAttemptsDto, ListDeliveriesDto } from './dto/delivery-commands.dto';

/**
 * The delivery commands, for merchants (scoped to the acting account: deliveries to its endpoints) and
 * for on-call engineers through the CLI (actor null: every account).
 */
@Injectable()
export class DeliveryCommandHandlers {
  constructor(private readonly deliveries: DeliveryService) {}

  @CommandHandler(WebhookCommands.listDeliveries)
  list(command: CommandEnvelope): Promise<WebhookPage<WebhookDeliveryView>> {
    return this.deliveries.list(accountScopeOf(command), parsePayload(ListDeliveriesDto, command));
  }

  @CommandHandler(WebhookCommands.retrieveDelivery)
  retrieve(command: CommandEnvelope): Promise<WebhookDeliveryDetailView> {
    return this.deliveries.retrieve(accountScopeOf(command), parsePayload(DeliveryRefDto, command));
  }

  @CommandHandler(WebhookCommands.listEventAttempts)
  eventAttempts(command: CommandEnvelope): Promise<WebhookPage<WebhookAttemptView>> {
    return this.deliveries.eventAttempts(accountScopeOf(command), parsePayload(EventAttemptsDto, command));
  }

  @CommandHandler(WebhookCommands.retryDelivery)
  retry(command: CommandEnvelope): Promise<WebhookDeliveryView> {
    return this.deliveries.retry(command, accountScopeOf(command), parsePayload(DeliveryRefDto, command));
  }

  @CommandHandler(WebhookCommands.replayEndpoint)
  replay(command: CommandEnvelope): Promise<ReplayedWebhookEndpointView> {
    return this.deliveries.replay(command, accountScopeOf(command), parsePayload(ReplayEndpointDto, command));
  }
}
