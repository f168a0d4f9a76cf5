// Environment defaults for integration and e2e tests (jest setupFiles). CI may override any of them.
process.env.NODE_ENV ??= 'test';
// eslint-disable-next-line @typescript-eslint/no-require-imports -- plain JS shared with global-setup.js
const { databaseUrlForWorker } = require('./worker-database') as { databaseUrlForWorker: (url: string, worker?: string) => string };
// Each parallel jest worker has a database of its own (worker-database.js).
process.env.DATABASE_URL = databaseUrlForWorker(process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/mailproof_test', process.env.JEST_WORKER_ID);
process.env.REDIS_URL ??= 'redis://127.0.0.1:6379';
process.env.LOG_LEVEL ??= 'silent';
process.env.DATABASE_RETRY_ATTEMPTS ??= '1';
process.env.PUBLIC_BASE_URL ??= 'http://127.0.0.1:3000';
// Encryption at rest (docs/privacy.md) with a key of the suite's own, not the built-in development key.
process.env.MAILPROOF_DATA_KEYS ??= 'test1:bWFpbHByb29mLXRlc3Qta2V5LTAwMDAwMDAwMDAwMDA=';
// A queue prefix per test file (setupFiles run once per file) keeps suites and reruns from seeing
// each other's jobs and rate-limit counters.
process.env.QUEUE_PREFIX = `mpt${process.env.JEST_WORKER_ID ?? '0'}-${Math.random().toString(36).slice(2, 10)}`;
// Generous limits unless a test sets its own: the rate limiter must not interfere by accident.
process.env.RATE_LIMIT_ANONYMOUS ??= '100000';
process.env.RATE_LIMIT_FREE ??= '100000';
process.env.RATE_LIMIT_PRO ??= '100000';
