import { loadConfigOrExit, startApp } from '@paygrid/platform';
import { configSchema } from './config';
import { WebhookDispatcherModule } from './webhook-dispatcher.module';
import { mountBullBoard } from './modules/ops/bull-board';

const config = loadConfigOrExit('webhook-dispatcher', configSchema);
void startApp({
  app: 'webhook-dispatcher',
  module: WebhookDispatcherModule.register(config),
  config,
  consumesCommands: true,
  configure: (app) => mountBullBoard(app, config.OPS_TOKEN),
});
