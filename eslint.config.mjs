// Lint rules: typescript-eslint's recommended set, Prettier-compatible, and Nx module boundaries:
// apps never import apps; apps share only contracts and infrastructure/util libs; libs never import apps.
import nx from '@nx/eslint-plugin';
import tseslint from 'typescript-eslint';
import prettier from 'eslint-config-prettier';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

// The module-boundary rule reads Nx's cached project graph and, without one, warns and checks NOTHING
// (plain `eslint`, editors, a fresh clone). Compute the graph first, so the rule can never be skipped.
const root = path.dirname(fileURLToPath(import.meta.url));
if (!existsSync(path.join(root, '.nx/workspace-data/project-graph.json'))) {
  execFileSync(path.join(root, 'node_modules/.bin/nx'), ['show', 'projects'], {
    cwd: root,
    stdio: 'ignore',
    env: { ...process.env, NX_DAEMON: 'false' },
  });
}

const boundaries = ({ app = [], infra = [] } = {}) => [
  'error',
  {
    allow: [],
    banTransitiveDependencies: false,
    // platform's integration tests use the testing helpers, which are built on platform.
    ignoredCircularDependencies: [['platform', 'testing']],
    depConstraints: [
      { sourceTag: 'type:app', onlyDependOnLibsWithTags: ['type:contract', 'type:infra', 'type:util', ...app] },
      { sourceTag: 'type:e2e', onlyDependOnLibsWithTags: ['type:contract', 'type:infra', 'type:util', 'type:testing', 'type:tool'] },
      { sourceTag: 'type:testing', onlyDependOnLibsWithTags: ['type:contract', 'type:infra', 'type:util'] },
      { sourceTag: 'type:tool', onlyDependOnLibsWithTags: ['type:contract', 'type:infra', 'type:util'] },
      { sourceTag: 'type:infra', onlyDependOnLibsWithTags: ['type:contract', 'type:util', ...infra] },
      { sourceTag: 'type:contract', onlyDependOnLibsWithTags: ['type:util'] },
      { sourceTag: 'type:util', onlyDependOnLibsWithTags: ['type:util', ...infra] },
    ],
  },
];

export default [
  { ignores: ['**/dist/**', '**/node_modules/**', '.kafka/**', 'tmp/**', 'bench/results/**', '**/*.js', '**/*.mjs'] },
  ...tseslint.configs.recommended,
  prettier,
  {
    files: ['**/*.ts'],
    plugins: { '@nx': nx },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@nx/enforce-module-boundaries': boundaries(),
    },
  },
  {
    // Tests obey the same boundaries, with two additions: they may use libs/testing, an app's tests may
    // drive it through the operator CLI (a client, like an SDK), and a lib's tests may boot it on the
    // platform. Never another app, nor another app's harness.
    files: ['**/*.spec.ts', '**/*.int-spec.ts', '**/*.e2e-spec.ts', '**/test/**/*.ts'],
    rules: {
      '@nx/enforce-module-boundaries': boundaries({
        app: ['type:testing', 'type:tool'],
        infra: ['type:testing', 'type:infra'],
      }),
    },
  },
];
