import { loadConfigOrExit, startApp } from '@paygrid/platform';
import { configSchema } from './config';
import { IssuingModule } from './issuing.module';

const config = loadConfigOrExit('issuing', configSchema);
void startApp({ app: 'issuing', module: IssuingModule.register(config), config, consumesCommands: true });
