import { DEVELOPMENT_DATA_KEYS, parseDataKeys, type DataKeyEncryptionKey } from './data-keys';
import type { EnvironmentVariables } from './environment.schema';

/** Where a Redis is: a single server at `url`, or a Redis Cluster seeded by `clusterNodes` (with `url`'s credentials and TLS). */
export interface RedisTarget {
  url: string;
  clusterNodes: Array<{ host: string; port: number }>;
}

/** The typed, grouped view of the environment that the apps inject (inject the class itself). */
export class MailproofConfig {
  private constructor(
    readonly env: 'development' | 'production' | 'test',
    readonly http: {
      port: number;
      host: string;
      publicBaseUrl: string;
      bodyLimitBytes: number;
      /** The whole request must arrive within it (408 otherwise). */
      requestTimeoutMs: number;
      /** Bearer token of GET /metrics; null: loopback-only scrapes. */
      metricsToken: string | null;
    },
    readonly logging: { level: EnvironmentVariables['LOG_LEVEL'] },
    readonly database: { url: string; retryAttempts: number; poolSize: number; migrateOnStart: boolean },
    /**
     * commandTimeoutMs: the deadline of a Redis command waited on inside a request (never on blocking worker connections).
     * clusterNodes: the seed nodes of a Redis Cluster (empty: a single Redis at `url`).
     */
    readonly redis: RedisTarget & { commandTimeoutMs: number },
    /** Every Redis key starts with it; on a Redis Cluster it is a hash tag (`{mailproof}`) so a queue's keys share one slot. */
    readonly queue: { prefix: string },
    readonly workers: {
      previewConcurrency: number;
      previewThreads: boolean;
      gateConcurrency: number;
      linkCheckConcurrency: number;
      /** Hard cap on one compile process's resident memory (libs/sandbox). */
      sandboxProcessMemoryMb: number;
      renderConcurrency: number;
      dnsConcurrency: number;
      schedulerConcurrency: number;
      shutdownGraceMs: number;
      lockDurationMs: number;
      stalledIntervalMs: number;
      storeRetryMs: number;
    },
    readonly budgets: { roundTripMs: number },
    readonly chromiumPath: string | undefined,
    /** worker-render's pages (docs/rendering.md) and how long a preview waits for its screenshots. */
    readonly render: { images: boolean; waitMs: number; pageTimeoutMs: number; maxHeightPx: number },
    readonly previews: {
      budgetMs: number;
      anonymousTtlHours: number;
      shareTtlDaysFree: number;
      cleanupEveryMinutes: number;
      /** spamd address, or null when the SpamAssassin check is off. */
      spamAssassin: { host: string; port: number; timeoutMs: number } | null;
      imageWeightCheck: boolean;
    },
    readonly auth: { keyCacheTtlMs: number; keyLimits: { free: number; pro: number } },
    readonly rateLimits: {
      windowSeconds: number;
      perWindow: { anonymous: number; free: number; pro: number };
      /** The rate limiter's own Redis (RATE_LIMIT_REDIS_URL: always a single Redis), else the shared one. */
      redis: RedisTarget;
      /** Past this, one rate-limit command gives way to the in-memory limiter. */
      redisTimeoutMs: number;
      trustedProxies: string[];
    },
    /** previewCacheBytes: the analyses kept for share pages and the dashboard's preview pages (PreviewAnalysisCache). */
    readonly dashboard: { sessionTtlSeconds: number; signInLimit: number; previewCacheBytes: number },
    readonly deliverability: {
      dnsServers: string[];
      dnsProtocol: 'https' | 'http';
      dnsTimeoutMs: number;
      dnsTries: number;
      cacheMaxTtlSeconds: number;
      cacheNegativeTtlSeconds: number;
      auditIntervalMs: number;
      budgetMs: number;
      domainLimits: { free: number; pro: number };
    },
    /** The pre-send gate's budgets (without and with link resolution) and the link-status cache. */
    readonly gate: { budgetMs: number; linksBudgetMs: number; visualBudgetMs: number; linkCacheSeconds: number },
    /** Addresses server-side fetches may reach although not public (tests only; empty in production). */
    readonly netGuard: { allowedAddresses: string[] },
    /** Webhook delivery: per-attempt timeout, retry schedule, disabling rule (docs/webhooks.md). */
    readonly webhooks: {
      concurrency: number;
      timeoutMs: number;
      attempts: number;
      backoffMs: number;
      disableAfter: number;
      endpointLimit: number;
      relayEveryMs: number;
    },
    /** docs/operations.md, "Tracing": see tracingMode. */
    readonly tracing: {
      mode: 'off' | 'embedded' | 'otlp';
      sampleRatio: number;
      streamMaxSpans: number;
      otlp: { endpoint: string; protocol: 'http/protobuf' | 'http/json' } | null;
    },
    /** Encryption at rest (docs/privacy.md): the key-encryption keys, the first wraps; development: the built-in key stands in. */
    readonly encryption: { keys: DataKeyEncryptionKey[]; development: boolean },
  ) {}

  /** What a BullMQ consumer needs: its concurrency plus the shared lock settings. */
  consumerSettings(concurrency: number): { concurrency: number; lockDurationMs: number; stalledIntervalMs: number; storeRetryMs: number; databaseUrl: string } {
    return {
      concurrency,
      lockDurationMs: this.workers.lockDurationMs,
      stalledIntervalMs: this.workers.stalledIntervalMs,
      storeRetryMs: this.workers.storeRetryMs,
      databaseUrl: this.database.url,
    };
  }

  static fromEnvironment(e: EnvironmentVariables): MailproofConfig {
    const clusterNodes = (e.REDIS_CLUSTER_NODES ?? '').split(',').filter(Boolean).map(parseHostPort);
    return new MailproofConfig(
      e.NODE_ENV,
      {
        port: e.PORT,
        host: e.HOST,
        publicBaseUrl: e.PUBLIC_BASE_URL.replace(/\/+$/, ''),
        bodyLimitBytes: e.HTTP_BODY_LIMIT_BYTES,
        requestTimeoutMs: e.HTTP_REQUEST_TIMEOUT_MS,
        metricsToken: e.METRICS_TOKEN ?? null,
      },
      { level: e.LOG_LEVEL },
      { url: e.DATABASE_URL, retryAttempts: e.DATABASE_RETRY_ATTEMPTS, poolSize: e.DATABASE_POOL_SIZE, migrateOnStart: e.MIGRATE_ON_START },
      { url: e.REDIS_URL, clusterNodes, commandTimeoutMs: e.REDIS_COMMAND_TIMEOUT_MS },
      { prefix: clusterNodes.length > 0 ? `{${e.QUEUE_PREFIX}}` : e.QUEUE_PREFIX },
      {
        previewConcurrency: e.WORKER_PREVIEW_CONCURRENCY,
        previewThreads: e.WORKER_PREVIEW_THREADS,
        gateConcurrency: e.WORKER_GATE_CONCURRENCY,
        linkCheckConcurrency: e.WORKER_LINK_CHECK_CONCURRENCY,
        sandboxProcessMemoryMb: e.SANDBOX_PROCESS_MEMORY_MB,
        renderConcurrency: e.WORKER_RENDER_CONCURRENCY,
        dnsConcurrency: e.WORKER_DNS_CONCURRENCY,
        schedulerConcurrency: e.SCHEDULER_CONCURRENCY,
        shutdownGraceMs: e.SHUTDOWN_GRACE_MS,
        lockDurationMs: e.WORKER_LOCK_DURATION_MS,
        stalledIntervalMs: e.WORKER_STALLED_INTERVAL_MS,
        storeRetryMs: e.WORKER_STORE_RETRY_MS,
      },
      { roundTripMs: e.ROUND_TRIP_BUDGET_MS },
      e.CHROMIUM_PATH,
      { images: e.RENDER_IMAGES, waitMs: e.PREVIEW_RENDER_WAIT_MS, pageTimeoutMs: e.RENDER_PAGE_TIMEOUT_MS, maxHeightPx: e.SCREENSHOT_MAX_HEIGHT_PX },
      {
        budgetMs: e.PREVIEW_BUDGET_MS,
        anonymousTtlHours: e.ANONYMOUS_PREVIEW_TTL_HOURS,
        shareTtlDaysFree: e.SHARE_TTL_DAYS_FREE,
        cleanupEveryMinutes: e.PREVIEW_CLEANUP_EVERY_MINUTES,
        spamAssassin: e.SPAMASSASSIN_HOST ? { ...parseHostPort(e.SPAMASSASSIN_HOST), timeoutMs: e.SPAMASSASSIN_TIMEOUT_MS } : null,
        imageWeightCheck: e.IMAGE_WEIGHT_CHECK === 'on',
      },
      { keyCacheTtlMs: e.API_KEY_CACHE_TTL_MS, keyLimits: { free: e.API_KEY_LIMIT_FREE, pro: e.API_KEY_LIMIT_PRO } },
      {
        windowSeconds: e.RATE_LIMIT_WINDOW_SECONDS,
        perWindow: { anonymous: e.RATE_LIMIT_ANONYMOUS, free: e.RATE_LIMIT_FREE, pro: e.RATE_LIMIT_PRO },
        redis: e.RATE_LIMIT_REDIS_URL ? { url: e.RATE_LIMIT_REDIS_URL, clusterNodes: [] } : { url: e.REDIS_URL, clusterNodes },
        redisTimeoutMs: e.RATE_LIMIT_REDIS_TIMEOUT_MS,
        trustedProxies: (e.TRUSTED_PROXIES ?? '')
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean),
      },
      {
        sessionTtlSeconds: e.DASHBOARD_SESSION_TTL_HOURS * 3600,
        signInLimit: e.DASHBOARD_SIGN_IN_LIMIT,
        previewCacheBytes: e.PREVIEW_PAGE_CACHE_MB * 1024 * 1024,
      },
      {
        dnsServers: e.DNS_SERVERS.split(',')
          .map((server) => server.trim())
          .filter(Boolean),
        dnsProtocol: e.DNS_PROTOCOL,
        dnsTimeoutMs: e.DNS_TIMEOUT_MS,
        dnsTries: e.DNS_TRIES,
        cacheMaxTtlSeconds: e.DNS_CACHE_MAX_TTL_SECONDS,
        cacheNegativeTtlSeconds: e.DNS_CACHE_NEGATIVE_TTL_SECONDS,
        auditIntervalMs: parseDuration(e.DOMAIN_AUDIT_INTERVAL),
        budgetMs: e.DELIVERABILITY_BUDGET_MS,
        domainLimits: { free: e.DOMAIN_LIMIT_FREE, pro: e.DOMAIN_LIMIT_PRO },
      },
      {
        budgetMs: e.GATE_BUDGET_MS,
        linksBudgetMs: e.GATE_LINKS_BUDGET_MS,
        visualBudgetMs: e.GATE_VISUAL_BUDGET_MS,
        linkCacheSeconds: e.LINK_CHECK_CACHE_SECONDS,
      },
      {
        allowedAddresses: (e.SSRF_ALLOWED_ADDRESSES ?? '')
          .split(',')
          .map((address) => address.trim())
          .filter(Boolean),
      },
      {
        concurrency: e.WORKER_WEBHOOK_CONCURRENCY,
        timeoutMs: e.WEBHOOK_TIMEOUT_MS,
        attempts: e.WEBHOOK_ATTEMPTS,
        backoffMs: e.WEBHOOK_BACKOFF_MS,
        disableAfter: e.WEBHOOK_DISABLE_AFTER,
        endpointLimit: e.WEBHOOK_ENDPOINT_LIMIT,
        relayEveryMs: e.WEBHOOK_RELAY_EVERY_SECONDS * 1_000,
      },
      {
        mode: tracingMode(e.TRACING, e.OTEL_EXPORTER_OTLP_ENDPOINT),
        sampleRatio: e.TRACING_SAMPLE_RATIO,
        streamMaxSpans: e.TRACING_STREAM_MAX_SPANS,
        otlp: e.OTEL_EXPORTER_OTLP_ENDPOINT ? { endpoint: e.OTEL_EXPORTER_OTLP_ENDPOINT, protocol: e.OTEL_EXPORTER_OTLP_PROTOCOL } : null,
      },
      { keys: parseDataKeys(e.MAILPROOF_DATA_KEYS ?? DEVELOPMENT_DATA_KEYS).keys, development: e.MAILPROOF_DATA_KEYS === undefined },
    );
  }
}

/** 'host:port' or '[v6]:port' -> { host, port }. The schema has already checked the format. */
export function parseHostPort(text: string): { host: string; port: number } {
  const colon = text.lastIndexOf(':');
  return { host: text.slice(0, colon).replace(/^\[|\]$/g, ''), port: Number(text.slice(colon + 1)) };
}

const DURATION_UNITS_MS = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

/** '6h' -> 21600000. The schema has already checked the format. */
export function parseDuration(text: string): number {
  const match = /^(\d+)(ms|s|m|h|d)$/.exec(text.trim());
  if (!match) throw new Error(`not a duration: ${text}`);
  return Number(match[1]) * DURATION_UNITS_MS[match[2] as keyof typeof DURATION_UNITS_MS];
}

/**
 * TRACING=off: nothing; TRACING=on: to the collector when OTEL_EXPORTER_OTLP_ENDPOINT names one, else the
 * embedded store. TRACING unset follows OpenTelemetry's convention: an endpoint alone turns OTLP export on.
 */
export function tracingMode(tracing: 'on' | 'off' | undefined, otlpEndpoint: string | undefined): 'off' | 'embedded' | 'otlp' {
  if (tracing === 'off') return 'off';
  if (otlpEndpoint) return 'otlp';
  return tracing === 'on' ? 'embedded' : 'off';
}
