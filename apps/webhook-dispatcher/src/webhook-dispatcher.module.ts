import { DynamicModule, Module } from '@nestjs/common';
import { CommandTopics } from '@paygrid/contracts';
import { commandControllerFor, ConfigOf, PlatformModule } from '@paygrid/platform';
import { configSchema } from './config';
import { WebhookEvents1710000000100 } from './migrations/1710000000100-webhook-events';
import { EventIntakeService } from './modules/events/event-intake.service';

/** Consumes domain events and (with the webhooks issue) delivers them to merchant endpoints. */
@Module({})
export class WebhookDispatcherModule {
  static register(config: ConfigOf<typeof configSchema>): DynamicModule {
    return {
      module: WebhookDispatcherModule,
      imports: [
        PlatformModule.forRoot({
          app: 'webhook-dispatcher',
          config,
          database: { migrations: [WebhookEvents1710000000100] },
          commands: true,
          redis: true,
        }),
      ],
      controllers: [commandControllerFor(CommandTopics.webhooks)],
      providers: [EventIntakeService],
    };
  }
}
