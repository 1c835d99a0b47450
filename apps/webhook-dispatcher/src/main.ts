import { loadConfigOrExit, startApp } from '@paygrid/platform';
import { configSchema } from './config';
import { WebhookDispatcherModule } from './webhook-dispatcher.module';

const config = loadConfigOrExit('webhook-dispatcher', configSchema);
void startApp({
  app: 'webhook-dispatcher',
  module: WebhookDispatcherModule.register(config),
  config,
  consumesCommands: true,
});
