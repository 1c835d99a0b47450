// Lint rules: typescript-eslint's recommended set, Prettier-compatible, and Nx module boundaries:
// apps never import apps; apps share only contracts and infrastructure/util libs; libs never import apps.
import nx from '@nx/eslint-plugin';
import tseslint from 'typescript-eslint';
import prettier from 'eslint-config-prettier';

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
      '@nx/enforce-module-boundaries': [
        'error',
        {
          allow: [],
          banTransitiveDependencies: false,
          // platform's integration tests use the testing helpers, which are built on platform.
          ignoredCircularDependencies: [['platform', 'testing']],
          depConstraints: [
            { sourceTag: 'type:app', onlyDependOnLibsWithTags: ['type:contract', 'type:infra', 'type:util', 'type:card-crypto'] },
            // Card cryptography (libs/card-crypto) only where card data lives: gateway, acquiring, issuing
            // (tag pci:in-scope). Every other app is tagged pci:out-of-scope; no lib may import it.
            { sourceTag: 'pci:out-of-scope', notDependOnLibsWithTags: ['type:card-crypto'] },
            { sourceTag: 'type:card-crypto', onlyDependOnLibsWithTags: ['type:util'] },
            { sourceTag: 'type:e2e', onlyDependOnLibsWithTags: ['type:contract', 'type:infra', 'type:util', 'type:testing', 'type:tool'] },
            { sourceTag: 'type:testing', onlyDependOnLibsWithTags: ['type:contract', 'type:infra', 'type:util'] },
            { sourceTag: 'type:tool', onlyDependOnLibsWithTags: ['type:contract', 'type:infra', 'type:util'] },
            { sourceTag: 'type:infra', onlyDependOnLibsWithTags: ['type:contract', 'type:util'] },
            { sourceTag: 'type:contract', onlyDependOnLibsWithTags: ['type:util'] },
            { sourceTag: 'type:util', onlyDependOnLibsWithTags: ['type:util'] },
          ],
        },
      ],
    },
  },
  {
    // Tests may import the app they test and the testing lib.
    files: ['**/*.spec.ts', '**/*.int-spec.ts', '**/*.e2e-spec.ts', '**/test/**/*.ts'],
    rules: { '@nx/enforce-module-boundaries': 'off' },
  },
];
