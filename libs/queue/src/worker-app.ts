import type { DynamicModule, INestApplicationContext, LoggerService } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { Logger } from 'nestjs-pino';
import { loadConfig, type MailproofConfig } from '@mailproof/config';
import { shutdownTracing } from '@mailproof/tracing';

/**
 * Boots a worker app without HTTP: a Nest application context whose processors start consuming at once;
 * `startLines` (how it traces) are logged once it runs.
 */
export async function startWorkerApp(module: DynamicModule, startLines: string[] = []): Promise<INestApplicationContext> {
  const app = await NestFactory.createApplicationContext(module, { bufferLogs: true });
  app.useLogger(app.get(Logger));
  await app.init();
  for (const line of startLines) app.get(Logger).log(line, 'Bootstrap');
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
      // The spans of the last jobs and requests leave before the process does.
      await shutdownTracing().catch(() => undefined);
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

/**
 * A Redis command that was in flight when its connection dropped (Redis restarted or stopped): ioredis
 * rejects it with MaxRetriesPerRequestError on the request-path clients (maxRetriesPerRequest: 0), or
 * "Connection is closed.". Whoever sent it has had its answer (a 503, a retry); a copy of the rejection
 * that no one awaits (BullMQ and ioredis chain some internally) must not end the process.
 */
export function isLostRedisCommand(reason: unknown): boolean {
  if (!(reason instanceof Error)) return false;
  return reason.name === 'MaxRetriesPerRequestError' || reason.message === 'Connection is closed.';
}

/**
 * Unhandled rejections: a lost Redis command is logged and the process serves on (found by
 * test/scale/store-restarts.scale-spec.ts: the API died when Redis restarted under load); anything
 * else ends the process as Node does by default, since its state is unknown.
 */
export function installRejectionPolicy(log: (message: string) => void = (message) => console.error(message)): void {
  process.on('unhandledRejection', (reason) => {
    if (isLostRedisCommand(reason)) {
      log(`a Redis command was lost with its connection (${(reason as Error).message}); serving on`);
      return;
    }
    console.error(reason);
    process.exit(1);
  });
}

/** The whole main() of a single-app process: validate config, start, close gracefully on signals. */
export function runApp(start: (config: MailproofConfig) => Promise<INestApplicationContext>): void {
  installRejectionPolicy();
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
