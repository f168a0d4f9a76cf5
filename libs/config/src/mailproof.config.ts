import type { EnvironmentVariables } from './environment.schema';

/** The typed, grouped view of the environment that the apps inject (inject the class itself). */
export class MailproofConfig {
  private constructor(
    readonly env: 'development' | 'production' | 'test',
    readonly http: { port: number; host: string; publicBaseUrl: string; bodyLimitBytes: number },
    readonly logging: { level: EnvironmentVariables['LOG_LEVEL'] },
    readonly database: { url: string; retryAttempts: number; poolSize: number; migrateOnStart: boolean },
    readonly redis: { url: string },
    readonly queue: { prefix: string },
    readonly workers: {
      previewConcurrency: number;
      renderConcurrency: number;
      dnsConcurrency: number;
      schedulerConcurrency: number;
      shutdownGraceMs: number;
    },
    readonly budgets: { roundTripMs: number },
    readonly chromiumPath: string | undefined,
  ) {}

  static fromEnvironment(e: EnvironmentVariables): MailproofConfig {
    return new MailproofConfig(
      e.NODE_ENV,
      { port: e.PORT, host: e.HOST, publicBaseUrl: e.PUBLIC_BASE_URL.replace(/\/+$/, ''), bodyLimitBytes: e.HTTP_BODY_LIMIT_BYTES },
      { level: e.LOG_LEVEL },
      { url: e.DATABASE_URL, retryAttempts: e.DATABASE_RETRY_ATTEMPTS, poolSize: e.DATABASE_POOL_SIZE, migrateOnStart: e.MIGRATE_ON_START },
      { url: e.REDIS_URL },
      { prefix: e.QUEUE_PREFIX },
      {
        previewConcurrency: e.WORKER_PREVIEW_CONCURRENCY,
        renderConcurrency: e.WORKER_RENDER_CONCURRENCY,
        dnsConcurrency: e.WORKER_DNS_CONCURRENCY,
        schedulerConcurrency: e.SCHEDULER_CONCURRENCY,
        shutdownGraceMs: e.SHUTDOWN_GRACE_MS,
      },
      { roundTripMs: e.ROUND_TRIP_BUDGET_MS },
      e.CHROMIUM_PATH,
    );
  }
}
