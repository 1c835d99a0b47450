// Preloaded into every compiled app (`node -r ./deploy/local/register-paths.js dist/...`): resolves the
// `@paygrid/<lib>` aliases to the SWC output in dist/, as tsconfig.base.json does for the sources.
const path = require('node:path');
const tsconfigPaths = require('tsconfig-paths');

tsconfigPaths.register({
  baseUrl: path.resolve(__dirname, '../../dist'),
  paths: { '@paygrid/local-stack': ['deploy/local/index.js'], '@paygrid/cli': ['tools/cli/src/index.js'], '@paygrid/*': ['libs/*/src/index.js'] },
});
