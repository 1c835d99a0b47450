import { DynamicModule, Module } from '@nestjs/common';
import { commandControllerFor, ConfigOf, PlatformModule } from '@paygrid/platform';
import { configSchema } from './config';

/**
 * The payouts service. Its domain modules arrive with their issues; until then it answers the
 * platform's ping on its command topic and refuses every other command as not available yet.
 */
@Module({})
export class PayoutsModule {
  static register(config: ConfigOf<typeof configSchema>): DynamicModule {
    return {
      module: PayoutsModule,
      imports: [PlatformModule.forRoot({ app: 'payouts', config, database: {}, commands: true })],
      controllers: [commandControllerFor('payouts', config)],
    };
  }
}
