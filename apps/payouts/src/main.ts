import { loadConfigOrExit, startApp } from '@paygrid/platform';
import { configSchema } from './config';
import { PayoutsModule } from './payouts.module';

const config = loadConfigOrExit('payouts', configSchema);
void startApp({ app: 'payouts', module: PayoutsModule.register(config), config, consumesCommands: true });
