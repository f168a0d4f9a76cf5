#!/usr/bin/env node
// Readiness of a worker container (deploy/k8s): the workers serve no HTTP, so Kubernetes runs this as an
// exec probe. It checks what GET /health/ready checks for the stores: PostgreSQL answers `SELECT 1` and Redis
// answers PING (the first of REDIS_CLUSTER_NODES when set), each within 3 s. Exit 0 ready, 1 not (the reason
// on stderr). It reads only DATABASE_URL, REDIS_URL and REDIS_CLUSTER_NODES, as the worker does.
const Redis = require('ioredis');
const { Client } = require('pg');

const TIMEOUT_MS = 3000;
const within = (promise, what) =>
  Promise.race([
    promise,
    new Promise((_, reject) => setTimeout(() => reject(new Error(`${what} did not answer within ${TIMEOUT_MS} ms`)), TIMEOUT_MS).unref()),
  ]);

async function postgres() {
  const client = new Client({ connectionString: process.env.DATABASE_URL, connectionTimeoutMillis: TIMEOUT_MS });
  try {
    await within(client.connect(), 'PostgreSQL');
    await within(client.query('SELECT 1'), 'PostgreSQL');
  } finally {
    await client.end().catch(() => undefined);
  }
}

async function redis() {
  const url = new URL(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
  const [seed] = (process.env.REDIS_CLUSTER_NODES ?? '').split(',').filter(Boolean);
  const [host, port] = seed ? [seed.slice(0, seed.lastIndexOf(':')), seed.slice(seed.lastIndexOf(':') + 1)] : [url.hostname, url.port || '6379'];
  const client = new Redis({
    host,
    port: Number(port),
    username: decodeURIComponent(url.username) || undefined,
    password: decodeURIComponent(url.password) || undefined,
    tls: url.protocol === 'rediss:' ? {} : undefined,
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
    connectTimeout: TIMEOUT_MS,
  });
  client.on('error', () => undefined); // the failure reaches the caller through connect() or ping()
  try {
    await within(client.connect(), 'Redis');
    await within(client.ping(), 'Redis');
  } finally {
    client.disconnect();
  }
}

Promise.all([postgres(), redis()]).then(
  () => process.exit(0),
  (error) => {
    process.stderr.write(`not ready: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
