import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { renderEnvExample } from './env-example';
import { appSchemas } from './app-schemas';

writeFileSync(path.resolve(__dirname, '../../../.env.example'), renderEnvExample(appSchemas()));
process.stdout.write('wrote .env.example\n');
