import { RequestMethod } from '@nestjs/common';
import { loadConfigOrExit, startApp } from '@paygrid/platform';
import { configSchema } from './config';
import { GatewayModule } from './gateway.module';
import { createValidationPipe } from './common/validation.pipe';
import { serveApiReference } from './modules/api-reference/api-reference';
import { installLeanAsyncResourceBind } from './common/lean-async-resource-bind';

// Before the first request: every POST binds three times (lean-async-resource-bind.ts).
installLeanAsyncResourceBind();

const config = loadConfigOrExit('gateway', configSchema);
const gateway = GatewayModule.register(config);
void startApp({
  app: 'gateway',
  module: gateway,
  config,
  consumesCommands: false,
  configure: async (app) => {
    app.setGlobalPrefix('api', {
      exclude: [
        { path: 'health/live', method: RequestMethod.GET },
        { path: 'health/ready', method: RequestMethod.GET },
        { path: 'metrics', method: RequestMethod.GET },
      ],
    });
    app.useGlobalPipes(createValidationPipe());
    serveApiReference(app);
  },
});
