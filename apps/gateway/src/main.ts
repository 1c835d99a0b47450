import { RequestMethod } from '@nestjs/common';
import { loadConfigOrExit, startApp } from '@paygrid/platform';
import { configSchema } from './config';
import { GatewayModule } from './gateway.module';
import { createValidationPipe } from './common/validation.pipe';

const config = loadConfigOrExit('gateway', configSchema);
void startApp({
  app: 'gateway',
  module: GatewayModule.register(config),
  config,
  consumesCommands: false,
  configure: (app) => {
    app.setGlobalPrefix('api', {
      exclude: [
        { path: 'health/live', method: RequestMethod.GET },
        { path: 'health/ready', method: RequestMethod.GET },
        { path: 'metrics', method: RequestMethod.GET },
      ],
    });
    app.useGlobalPipes(createValidationPipe());
  },
});
