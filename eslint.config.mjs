// npm run lint: ESLint (this file) and Prettier (.prettierrc.json) over the code. Why these rules and
// what each eslint-disable comment may mean: docs/architecture.md, "Lint and format".
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import prettier from 'eslint-config-prettier';
import globals from 'globals';
import jest from 'eslint-plugin-jest';

export default tseslint.config(
  {
    ignores: ['dist/', 'packages/*/dist/', 'apps/cli/src/api-client/openapi.ts', 'coverage/', 'node_modules/', 'docs/', '**/fixtures/**', '**/__fixtures__/**'],
  },
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
      // `x as unknown as T` claims a type the compiler cannot check (issue 39: it hid reads of other libraries'
      // private fields). Check the value instead (a type guard, `instanceof`), or wrap another library's internals
      // in one adapter with a test. Tests may cast (the file block below sets this rule for them without it).
      'no-restricted-syntax': [
        'error',
        {
          selector: "TSAsExpression[expression.type='TSAsExpression'][expression.typeAnnotation.type='TSUnknownKeyword']",
          message:
            '`as unknown as` outside tests: check the value (a type guard) or wrap the library in one adapter with a test (docs/architecture.md, "Lint and format").',
        },
      ],
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
    plugins: { jest },
    rules: {
      'max-lines-per-function': 'off',
      // A skipped or focused test is a test that did not run: CI fails on it (and `npm test` on a skipped or
      // todo test jest reports). A test that needs a component (spamd, Chromium, unbound) fails without it.
      'jest/no-focused-tests': 'error',
      'jest/no-disabled-tests': 'error',
      // The two rules see calls only; `(ready ? it : it.skip)(...)` skips just the same.
      'no-restricted-syntax': [
        'error',
        {
          selector: 'MemberExpression[object.name=/^(it|test|describe)$/][property.name=/^(skip|only)$/]',
          message: 'A test that does not run has not passed: make it fail with a message naming what is missing (docs/testing.md).',
        },
      ],
    },
  },
  prettier,
);
