// Jest's moduleNameMapper does not apply to globalSetup; map the @paygrid aliases for it here.
import path from 'node:path';
import { register } from 'tsconfig-paths';

register({
  baseUrl: path.resolve(__dirname, '../../../..'),
  paths: { '@paygrid/local-stack': ['deploy/local/index.ts'], '@paygrid/cli': ['tools/cli/src/index.ts'], '@paygrid/*': ['libs/*/src/index.ts'] },
});
