import { DynamicModule, Module } from '@nestjs/common';
import { CommandTopics } from '@paygrid/contracts';
import { commandControllerFor, ConfigOf, PlatformModule } from '@paygrid/platform';
import { configSchema } from './config';

/**
 * The acquiring service. Its domain modules arrive with their issues; until then it answers the
 * platform's ping on its command topic and refuses every other command as not available yet.
 */
@Module({})
export class AcquiringModule {
  static register(config: ConfigOf<typeof configSchema>): DynamicModule {
    return {
      module: AcquiringModule,
      imports: [PlatformModule.forRoot({ app: 'acquiring', config, database: {}, commands: true })],
      controllers: [commandControllerFor(CommandTopics.acquiring)],
    };
  }
}
