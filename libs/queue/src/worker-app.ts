import type { DynamicModule, INestApplicationContext, LoggerService } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { Logger } from 'nestjs-pino';
import { loadConfig, type MailproofConfig } from '@mailproof/config';

/** Boots a worker app without HTTP: a Nest application context whose processors start consuming at once. */
export async function startWorkerApp(module: DynamicModule): Promise<INestApplicationContext> {
  const app = await NestFactory.createApplicationContext(module, { bufferLogs: true });
  app.useLogger(app.get(Logger));
  await app.init();
  return app;
}

/**
 * Graceful shutdown for one process holding one or more apps. On SIGTERM/SIGINT every app is
 * closed: BullMQ workers stop taking jobs and wait for active ones. If that outlasts graceMs the
 * process exits anyway; unfinished jobs keep their lock until it expires and BullMQ's stalled
 * check hands them to another worker, so nothing is lost either way.
 */
export function closeOnSignal(apps: () => INestApplicationContext[], graceMs: number, logger: LoggerService): void {
  let closing = false;
  const shutdown = (signal: NodeJS.Signals) => {
    if (closing) return;
    closing = true;
    logger.log(`${signal} received: closing (grace ${graceMs} ms)`, 'Shutdown');
    const timer = setTimeout(() => {
      logger.warn('grace period over; exiting with jobs still active (they return to the queue)', 'Shutdown');
      process.exit(1);
    }, graceMs);
    timer.unref();
    // Close in reverse start order: the API stops taking requests before the workers stop.
    const ordered = [...apps()].reverse();
    (async () => {
      for (const app of ordered) await app.close();
    })()
      .then(() => process.exit(0))
      .catch((error: unknown) => {
        logger.error(`shutdown failed: ${error instanceof Error ? error.message : String(error)}`, undefined, 'Shutdown');
        process.exit(1);
      });
  };
  process.once('SIGTERM', shutdown);
  process.once('SIGINT', shutdown);
}

/** The whole main() of a single-app process: validate config, start, close gracefully on signals. */
export function runApp(start: (config: MailproofConfig) => Promise<INestApplicationContext>): void {
  (async () => {
    const config = loadConfig();
    const app = await start(config);
    closeOnSignal(() => [app], config.workers.shutdownGraceMs, app.get(Logger));
  })().catch((error: unknown) => {
    // Config errors are written for people; anything else is logged without internals.
    console.error(error instanceof Error ? error.message : String(error));
    process.exit(1);
  });
}
