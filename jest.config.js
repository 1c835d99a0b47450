// Three tiers (see docs/testing.md): unit tests beside the code (*.spec.ts), integration tests against
// the real Postgres, Redis and Kafka (*.int-spec.ts), and e2e suites driving the running stack over
// HTTP (apps/e2e, *.e2e-spec.ts). All compile with SWC, keeping decorator metadata for NestJS.
const swc = [
  '@swc/jest',
  {
    swcrc: false,
    jsc: {
      parser: { syntax: 'typescript', decorators: true },
      transform: { legacyDecorator: true, decoratorMetadata: true, useDefineForClassFields: false },
      target: 'es2022',
      keepClassNames: true,
    },
    module: { type: 'commonjs' },
    sourceMaps: 'inline',
  },
];

const shared = {
  rootDir: __dirname,
  testEnvironment: 'node',
  transform: { '^.+\\.ts$': swc },
  moduleFileExtensions: ['ts', 'js', 'json'],
  moduleNameMapper: {
    '^@paygrid/local-stack$': '<rootDir>/deploy/local/index.ts',
    '^@paygrid/cli$': '<rootDir>/tools/cli/src/index.ts',
    '^@paygrid/(.*)$': '<rootDir>/libs/$1/src/index.ts',
  },
  testPathIgnorePatterns: ['/node_modules/', '/dist/', '/.kafka/'],
};

module.exports = {
  // Integration and e2e tests wait on real brokers and databases; unit tests never get near this.
  testTimeout: 90000,
  projects: [
    { ...shared, displayName: 'unit', testMatch: ['<rootDir>/{apps,libs,deploy,bench,tools}/**/*.spec.ts'] },
    {
      ...shared,
      displayName: 'integration',
      testMatch: ['<rootDir>/{apps,libs,deploy}/**/*.int-spec.ts'],
      globalSetup: '<rootDir>/libs/testing/src/jest/global-setup.ts',
    },
    {
      ...shared,
      displayName: 'e2e',
      testMatch: ['<rootDir>/apps/e2e/**/*.e2e-spec.ts'],
      globalSetup: '<rootDir>/apps/e2e/src/support/global-setup.ts',
      globalTeardown: '<rootDir>/apps/e2e/src/support/global-teardown.ts',
    },
  ],
};
