import { Module } from '@nestjs/common';
import { DeliveriesModule } from '../deliveries/deliveries.module';
import { WebhookSecretsModule } from '../secrets/webhook-secrets.module';
import { EndpointCommandHandlers } from './endpoint.commands';
import { EndpointRepository } from './endpoint.repository';
import { EndpointService } from './endpoint.service';

/**
 * Webhook endpoints: their lifecycle (create, update, rotate, disable, enable, delete) and the endpoint
 * commands, replay included. Deleting or disabling an endpoint settles its waiting deliveries, hence
 * the deliveries import. Exports what the intake (fan-out) and the sending worker use.
 */
@Module({
  imports: [DeliveriesModule, WebhookSecretsModule],
  providers: [EndpointRepository, EndpointService, EndpointCommandHandlers],
  exports: [EndpointRepository, EndpointService],
})
export class EndpointsModule {}
