import 'reflect-metadata';
import type { INestApplicationContext } from '@nestjs/common';
import { Logger } from 'nestjs-pino';
import { loadConfig } from '@mailproof/config';
import { migrateDatabase } from '@mailproof/persistence';
import { closeOnSignal, startTracing } from '@mailproof/queue';
import { startApi } from '../apps/api/src/start-api';
import { startScheduler } from '../apps/scheduler/src/start-scheduler';
import { startWorkerDns } from '../apps/worker-dns/src/start-worker-dns';
import { startWorkerPreview } from '../apps/worker-preview/src/start-worker-preview';
import { startWorkerRender } from '../apps/worker-render/src/start-worker-render';

/**
 * The all-in-one launcher: every app in one Node process for a single machine (`npm start`).
 * It is the only code that composes apps; apps never import each other. Workers start before
 * the API so that /health/ready is green as soon as the API listens.
 * `--apps api,worker-dns` starts a subset.
 */
const STARTERS = {
  'worker-preview': startWorkerPreview,
  'worker-render': startWorkerRender,
  'worker-dns': startWorkerDns,
  scheduler: startScheduler,
  api: startApi,
} as const;
type AppName = keyof typeof STARTERS;

function requestedApps(argv: string[]): AppName[] {
  const flag = argv.indexOf('--apps');
  if (flag === -1) return Object.keys(STARTERS) as AppName[];
  const names = (argv[flag + 1] ?? '').split(',').filter(Boolean);
  const unknown = names.filter((name) => !(name in STARTERS));
  if (unknown.length > 0 || names.length === 0) {
    throw new Error(`--apps takes a comma-separated list of: ${Object.keys(STARTERS).join(', ')} (got "${argv[flag + 1] ?? ''}")`);
  }
  return (Object.keys(STARTERS) as AppName[]).filter((name) => names.includes(name));
}

/** Where a person on this machine reaches the API: a wildcard bind address is not a URL to open. */
function localUrl(host: string, port: number): string {
  const name = host === '0.0.0.0' || host === '::' || host === '' ? 'localhost' : host.includes(':') ? `[${host}]` : host;
  return `http://${name}:${port}`;
}

async function main(): Promise<void> {
  process.env.MAILPROOF_PROCESS_NAME ??= 'all-in-one';
  const config = loadConfig();
  const apps = requestedApps(process.argv.slice(2));
  // One tracer for every app of the process (the apps' own calls then find it started).
  startTracing(config, 'mailproof');
  const started: INestApplicationContext[] = [];
  // Migrate once up front (under the advisory lock); the apps then find nothing pending.
  const migrationStarted = Date.now();
  const applied = config.database.migrateOnStart ? await migrateDatabase(config.database.url) : null;
  const migrated = applied && `migrations: ${applied.length} applied in ${Date.now() - migrationStarted} ms`;
  for (const name of apps) {
    const app = await STARTERS[name](config);
    // Said once a logger exists (the first app's); `npm run bench:start` reads it.
    if (started.length === 0 && migrated) app.get(Logger).log(migrated, 'Launcher');
    started.push(app);
    app.get(Logger).log(`${name} ready`, 'Launcher');
  }
  const logger = started[0].get(Logger);
  logger.log(`started ${apps.join(', ')} in one process (pid ${process.pid})`, 'Launcher');
  if (apps.includes('api')) logger.log(`open ${localUrl(config.http.host, config.http.port)}/ (API docs at /api/docs, readiness at /health/ready)`, 'Launcher');
  closeOnSignal(() => started, config.workers.shutdownGraceMs, logger);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(1);
});
