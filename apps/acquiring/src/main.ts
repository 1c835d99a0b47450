import { loadConfigOrExit, startApp } from '@paygrid/platform';
import { configSchema } from './config';
import { AcquiringModule } from './acquiring.module';

const config = loadConfigOrExit('acquiring', configSchema);
void startApp({ app: 'acquiring', module: AcquiringModule.register(config), config, consumesCommands: true });
