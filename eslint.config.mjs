// npm run lint: ESLint (this file) and Prettier (.prettierrc.json) over the code. Why these rules and
// what each eslint-disable comment may mean: docs/architecture.md, "Lint and format".
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import prettier from 'eslint-config-prettier';
import globals from 'globals';

export default tseslint.config(
  { ignores: ['dist/', 'packages/*/dist/', 'apps/cli/src/api-client/openapi.ts', 'coverage/', 'node_modules/', 'docs/', '**/fixtures/**', '**/__fixtures__/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    languageOptions: { globals: { ...globals.node } },
    rules: {
      // Long functions are where this codebase hid its hardest code (issue 29): split them into named parts.
      'max-lines-per-function': ['error', { max: 120 }],
      '@typescript-eslint/no-explicit-any': 'error',
      // `_name` marks an argument kept for its position (a framework callback's signature).
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      // Matching control characters is these regexes' job (NUL that PostgreSQL text refuses, ANSI color codes,
      // JSON's whitespace, unsafe file names), and the invisible-text checks list zero-width and joining
      // characters one by one on purpose: both rules would flag exactly the code that does this.
      'no-control-regex': 'off',
      'no-misleading-character-class': 'off',
    },
  },
  {
    // Plain Node scripts (CommonJS): require() is their import.
    files: ['**/*.js', '**/*.cjs'],
    languageOptions: { sourceType: 'commonjs' },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    // Tests may be long (a table of cases is one function) and run in jest's globals.
    files: ['**/*.spec.ts', '**/*.int-spec.ts', '**/*.e2e-spec.ts', '**/*.scale-spec.ts', 'test/**'],
    languageOptions: { globals: { ...globals.jest } },
    rules: { 'max-lines-per-function': 'off' },
  },
  prettier,
);
