// One jest config, five projects (see docs/testing.md). testTimeout must sit at the root:
// jest silently ignores it inside a projects[] entry.
const aliases = {};
for (const lib of ['engine', 'contracts', 'persistence', 'queue', 'config', 'sandbox', 'net-guard', 'render', 'mcp', 'webhooks', 'tracing']) {
  aliases[`^@mailproof/${lib}$`] = `<rootDir>/libs/${lib}/src`;
  aliases[`^@mailproof/${lib}/(.*)$`] = `<rootDir>/libs/${lib}/src/$1`;
}
const ESM_ONLY = 'parse5|entities|tangerine|dohdec|private-ip|crypto-random-string|ip-regex|@chainsafe/is-ip';
const shared = {
  rootDir: __dirname,
  testEnvironment: 'node',
  transform: {
    '^.+\\.tsx?$': ['ts-jest', { tsconfig: '<rootDir>/tsconfig.spec.json' }],
    // ES-module-only packages: parse5 8 and its entities dependency; tangerine's dohdec and
    // private-ip (tangerine loads them with import(), which jest's CommonJS runtime cannot run).
    [`/node_modules/(${ESM_ONLY})/.+\\.js$`]: '<rootDir>/scripts/jest-esm-transform.js',
  },
  transformIgnorePatterns: [`/node_modules/(?!(${ESM_ONLY})/)`],
  // private-ip exports only an "import" condition, which jest's CommonJS resolver does not try.
  moduleNameMapper: { ...aliases, '^private-ip$': '<rootDir>/node_modules/private-ip/index.js' },
  modulePathIgnorePatterns: ['<rootDir>/dist/'],
};
module.exports = {
  testTimeout: 60000,
  projects: [
    { ...shared, displayName: 'engine', testMatch: ['<rootDir>/libs/engine/**/*.spec.ts'] },
    {
      ...shared,
      displayName: 'unit',
      testMatch: [
        '<rootDir>/apps/**/*.spec.ts',
        '<rootDir>/libs/!(engine)/**/*.spec.ts',
        '<rootDir>/launcher/**/*.spec.ts',
        '<rootDir>/test/unit/**/*.spec.ts',
      ],
    },
    {
      ...shared,
      displayName: 'integration',
      testMatch: ['<rootDir>/test/integration/**/*.int-spec.ts'],
      setupFiles: ['<rootDir>/test/utils/test-env.ts'],
      globalSetup: '<rootDir>/test/utils/global-setup.js',
    },
    {
      ...shared,
      displayName: 'scale',
      testMatch: ['<rootDir>/test/scale/**/*.scale-spec.ts'],
      setupFiles: ['<rootDir>/test/utils/test-env.ts'],
      globalSetup: '<rootDir>/test/utils/global-setup.js',
    },
    {
      ...shared,
      displayName: 'e2e',
      testMatch: ['<rootDir>/test/e2e/**/*.e2e-spec.ts'],
      setupFiles: ['<rootDir>/test/utils/test-env.ts'],
      globalSetup: '<rootDir>/test/utils/global-setup.js',
    },
  ],
};
