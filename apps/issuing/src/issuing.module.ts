import { DynamicModule, Module } from '@nestjs/common';
import { commandControllerFor, ConfigOf, PlatformModule } from '@paygrid/platform';
import { configSchema } from './config';

/**
 * The issuing service. Its domain modules arrive with their issues; until then it answers the
 * platform's ping on its command topic and refuses every other command as not available yet.
 */
@Module({})
export class IssuingModule {
  static register(config: ConfigOf<typeof configSchema>): DynamicModule {
    return {
      module: IssuingModule,
      imports: [PlatformModule.forRoot({ app: 'issuing', config, database: {}, commands: true })],
      controllers: [commandControllerFor('issuing', config)],
    };
  }
}
