import { loadConfigOrExit, startApp } from '@paygrid/platform';
import { configSchema } from './config';
import { AccountsModule } from './accounts.module';

const config = loadConfigOrExit('accounts', configSchema);
void startApp({ app: 'accounts', module: AccountsModule.register(config), config, consumesCommands: true });
