import { Transform } from 'class-transformer';
import { IsBoolean, IsIn, IsInt, IsNumber, IsOptional, IsString, Matches, Max, Min } from 'class-validator';

/**
 * Every setting Mailproof reads, named exactly as the environment variable.
 * `.env.example` documents each one; docs/configuration.md explains them.
 * Defaults suit a developer machine; in production (NODE_ENV=production) the connection
 * settings marked "required in production" have no default.
 */
const toInt = ({ value }: { value: unknown }) =>
  value === undefined || value === '' ? undefined : /^-?\d+$/.test(String(value).trim()) ? Number(value) : value;
const toBool = ({ value }: { value: unknown }) => {
  if (value === undefined || value === '') return undefined;
  const text = String(value).trim().toLowerCase();
  if (['1', 'true', 'yes', 'on'].includes(text)) return true;
  if (['0', 'false', 'no', 'off'].includes(text)) return false;
  return value;
};

/** `id:base64` pairs; load-config checks that each key decodes to 32 bytes and that no id repeats. */
export const DATA_KEYS_PATTERN = /^[A-Za-z0-9_-]{1,32}:[A-Za-z0-9+/]+={0,2}(,[A-Za-z0-9_-]{1,32}:[A-Za-z0-9+/]+={0,2})*$/;

export const DEVELOPMENT_DEFAULTS = {
  DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/mailproof',
  REDIS_URL: 'redis://127.0.0.1:6379',
  PUBLIC_BASE_URL: 'http://localhost:3000',
} as const;

export class EnvironmentVariables {
  @IsIn(['development', 'production', 'test'])
  NODE_ENV: 'development' | 'production' | 'test' = 'development';

  /** Required in production. */
  @Matches(/^postgres(ql)?:\/\/\S+$/, { message: 'must be a postgres:// URL' })
  DATABASE_URL: string;

  /** Required in production. */
  @Matches(/^rediss?:\/\/\S+$/, { message: 'must be a redis:// or rediss:// URL' })
  REDIS_URL: string;

  /** Required in production. Share links are built from it. */
  @Matches(/^https?:\/\/[^\s/]+(\/\S*)?$/, { message: 'must be an http(s) URL such as https://mailproof.example.com' })
  PUBLIC_BASE_URL: string;

  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(65535)
  PORT = 3000;

  @IsString()
  @Matches(/^[\d.:a-fA-F]+$|^localhost$/, { message: 'must be an IP address or localhost' })
  HOST = '0.0.0.0';

  @IsIn(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
  LOG_LEVEL: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent' = 'info';

  /** Largest JSON body the API parses, in bytes (the 500 KB markup limit is checked per field). */
  @Transform(toInt)
  @IsInt()
  @Min(1024)
  @Max(50 * 1024 * 1024)
  HTTP_BODY_LIMIT_BYTES = 2 * 1024 * 1024;

  /**
   * The whole request (headers and body) must arrive within this many ms; a slower one is answered
   * 408 request_timeout and its connection closed. Headers alone get at most 20 s of it.
   */
  @Transform(toInt)
  @IsInt()
  @Min(500)
  @Max(600_000)
  HTTP_REQUEST_TIMEOUT_MS = 60_000;

  /**
   * Bearer token that GET /metrics requires. Unset: /metrics answers only direct requests from
   * loopback (no Forwarded / X-Forwarded-For header) and 404 to everyone else.
   */
  @IsOptional()
  @Matches(/^[\x21-\x7e]{16,256}$/, { message: 'must be 16-256 visible ASCII characters' })
  METRICS_TOKEN?: string;

  /** Connection attempts TypeORM makes at start before giving up. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(100)
  DATABASE_RETRY_ATTEMPTS = 5;

  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(100)
  DATABASE_POOL_SIZE = 10;

  /** Run pending migrations when an app starts (under an advisory lock). */
  @Transform(toBool)
  @IsBoolean()
  MIGRATE_ON_START = true;

  /**
   * Deadline of a Redis command the API waits on inside a request (enqueueing a job, joining a queue's
   * events, readiness checks, metrics) and of the workers' DNS cache. Past it the request answers 503
   * service_unavailable instead of waiting for Redis. Blocking worker connections have none.
   */
  @Transform(toInt)
  @IsInt()
  @Min(50)
  @Max(10_000)
  REDIS_COMMAND_TIMEOUT_MS = 1_000;

  /**
   * Seed nodes of a Redis Cluster, `host:port` separated by commas. Set, every Redis client is an
   * ioredis Cluster over these nodes (REDIS_URL then supplies only the user, password and TLS, and must
   * name database 0), and the key prefix becomes the hash tag `{QUEUE_PREFIX}`. docs/operations.md.
   */
  @IsOptional()
  @Matches(/^(\[[\da-fA-F:]+\]|[^\s,:[\]]+):\d{1,5}(,(\[[\da-fA-F:]+\]|[^\s,:[\]]+):\d{1,5})*$/, {
    message: 'must be host:port pairs separated by commas, such as 10.0.0.1:7000,10.0.0.2:7000',
  })
  REDIS_CLUSTER_NODES?: string;

  /** Redis key prefix of every BullMQ queue; tests give each jest worker its own. */
  @IsString()
  @Matches(/^[A-Za-z0-9_-]{1,40}$/, { message: 'must be 1-40 letters, digits, _ or -' })
  QUEUE_PREFIX = 'mailproof';

  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(64)
  WORKER_PREVIEW_CONCURRENCY = 2;

  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(16)
  WORKER_RENDER_CONCURRENCY = 2;

  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(64)
  WORKER_DNS_CONCURRENCY = 8;

  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(16)
  SCHEDULER_CONCURRENCY = 1;

  /** Run the preview analysis in worker threads (one per unit of WORKER_PREVIEW_CONCURRENCY) instead of on the worker's event loop. */
  @Transform(toBool)
  @IsBoolean()
  WORKER_PREVIEW_THREADS = true;

  /** Resident memory of one compile process (templates compile one at a time in WORKER_PREVIEW_CONCURRENCY of them); past it the process is killed and the template fails. */
  @Transform(toInt)
  @IsInt()
  @Min(256)
  @Max(16_384)
  SANDBOX_PROCESS_MEMORY_MB = 1_024;

  /** A job's lock lifetime: a crashed worker's jobs go back to the queue after about this long. */
  @Transform(toInt)
  @IsInt()
  @Min(1_000)
  @Max(600_000)
  WORKER_LOCK_DURATION_MS = 30_000;

  /** How often workers look for jobs whose lock expired. */
  @Transform(toInt)
  @IsInt()
  @Min(500)
  @Max(600_000)
  WORKER_STALLED_INTERVAL_MS = 30_000;

  /** While PostgreSQL is unavailable, a job that failed for it is put back (no attempt spent) while it is younger than this; 0 turns it off. */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(86_400_000)
  WORKER_STORE_RETRY_MS = 600_000;

  /** How long a worker waits for active jobs on SIGTERM before exiting (unfinished jobs go back to the queue). */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(600_000)
  SHUTDOWN_GRACE_MS = 25_000;

  /** Budget of the diagnostics round trip (API -> queue -> worker -> PostgreSQL -> API). */
  @Transform(toInt)
  @IsInt()
  @Min(100)
  @Max(60_000)
  ROUND_TRIP_BUDGET_MS = 5_000;

  @IsOptional()
  @IsString()
  CHROMIUM_PATH?: string;

  /** Remote images in screenshots: fetched by worker-render through the SSRF guard (false: rendered without them). */
  @Transform(toBool)
  @IsBoolean()
  RENDER_IMAGES = true;

  /** How long a preview that asked for screenshots waits for them after its analysis (absent past it; stored when done). */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(60_000)
  PREVIEW_RENDER_WAIT_MS = 3_000;

  /** Time for one page in Chromium (loading with its images, measuring, the screenshot); past it that screenshot fails. */
  @Transform(toInt)
  @IsInt()
  @Min(1_000)
  @Max(120_000)
  RENDER_PAGE_TIMEOUT_MS = 15_000;

  /** Screenshots stop at this many CSS px of height (the reports say which were cut). */
  @Transform(toInt)
  @IsInt()
  @Min(500)
  @Max(30_000)
  SCREENSHOT_MAX_HEIGHT_PX = 6_000;

  /** How long POST /api/preview waits for the worker before answering 503 with the preview id. */
  @Transform(toInt)
  @IsInt()
  @Min(100)
  @Max(60_000)
  PREVIEW_BUDGET_MS = 10_000;

  /** How long POST /api/gate waits for its job chain without link resolution (503 with the run id past it). */
  @Transform(toInt)
  @IsInt()
  @Min(500)
  @Max(60_000)
  GATE_BUDGET_MS = 4_000;

  /** The same with resolveLinks: links not resolved in time are reported unchecked (budget), never failed. */
  @Transform(toInt)
  @IsInt()
  @Min(1_000)
  @Max(60_000)
  GATE_LINKS_BUDGET_MS = 12_000;

  /** The same with the visual check (`checks: [..., "visual"]`): the email is painted, every client light and dark, with its reference. */
  @Transform(toInt)
  @IsInt()
  @Min(1_000)
  @Max(120_000)
  GATE_VISUAL_BUDGET_MS = 30_000;

  /** How long a link's status stays cached in Redis, so a CI re-run does not fetch the same sites again. */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(86_400)
  LINK_CHECK_CACHE_SECONDS = 300;

  /** gate.import and gate.verdict jobs at once per worker-preview process (light: PostgreSQL, one fetch). */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(64)
  WORKER_GATE_CONCURRENCY = 4;

  /** links.resolve jobs at once per worker-preview process (network-bound; each checks up to 25 links). */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(64)
  WORKER_LINK_CHECK_CONCURRENCY = 8;

  /**
   * spamd (Debian package spamassassin) as host:port, e.g. 127.0.0.1:783. Unset: no SpamAssassin check; the
   * spam report keeps the engine's own rules only (docs/reports.md).
   */
  @IsOptional()
  @Matches(/^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+):\d{1,5}$/, { message: 'must be host:port, e.g. 127.0.0.1:783' })
  SPAMASSASSIN_HOST?: string;

  /** How long the preview worker waits for spamd; past it the spam report carries a note instead. */
  @Transform(toInt)
  @IsInt()
  @Min(100)
  @Max(30_000)
  SPAMASSASSIN_TIMEOUT_MS = 3_000;

  /**
   * Image weights: the preview worker sends HEAD requests (at most 25 images, 3 s in total) through the
   * SSRF guard to fill imageReport bytes. off: no outbound requests from the preview worker.
   */
  @IsIn(['on', 'off'])
  IMAGE_WEIGHT_CHECK: 'on' | 'off' = 'on';

  /** Anonymous previews are deleted after this many hours. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(24 * 365)
  ANONYMOUS_PREVIEW_TTL_HOURS = 24;

  /** Share links of free accounts expire after this many days (Pro links never expire). */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(3650)
  SHARE_TTL_DAYS_FREE = 7;

  /** How often the scheduler deletes expired anonymous previews and sweeps what is past its account's retention: at most hourly (docs/privacy.md). */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(60)
  PREVIEW_CLEANUP_EVERY_MINUTES = 15;

  /** How long a valid key is cached per API instance; a revoked key is refused by every instance within this time. */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(5_000)
  API_KEY_CACHE_TTL_MS = 4_000;

  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(1_000)
  API_KEY_LIMIT_FREE = 2;

  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(1_000)
  API_KEY_LIMIT_PRO = 10;

  /** Length of a rate-limit window in seconds (60 in production; tests shorten it). */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(60)
  RATE_LIMIT_WINDOW_SECONDS = 60;

  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(1_000_000)
  RATE_LIMIT_ANONYMOUS = 30;

  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(1_000_000)
  RATE_LIMIT_FREE = 60;

  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(1_000_000)
  RATE_LIMIT_PRO = 300;

  /** Redis for rate-limit counters; defaults to REDIS_URL. */
  @IsOptional()
  @Matches(/^rediss?:\/\/\S+$/, { message: 'must be a redis:// or rediss:// URL' })
  RATE_LIMIT_REDIS_URL?: string;

  /** Deadline of one rate-limit command in Redis; past it this instance's in-memory limiter decides. */
  @Transform(toInt)
  @IsInt()
  @Min(50)
  @Max(5_000)
  RATE_LIMIT_REDIS_TIMEOUT_MS = 500;

  /** How long a dashboard session lives after sign-in (it ends earlier on sign-out or when its key is revoked). */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(720)
  DASHBOARD_SESSION_TTL_HOURS = 12;

  /** Dashboard sign-in attempts per client IP per 15 minutes (successful or not). */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(1_000_000)
  DASHBOARD_SIGN_IN_LIMIT = 10;

  /** Memory (MB) each API keeps for the analyses that share pages and dashboard preview pages show (0: none kept). */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(16_384)
  PREVIEW_PAGE_CACHE_MB = 64;

  /** Comma-separated proxy addresses or CIDRs whose X-Forwarded-For is trusted (empty: trust none). */
  @IsOptional()
  @Matches(/^[\d.:a-fA-F/, ]*$/, { message: 'must be a comma-separated list of IP addresses or CIDRs' })
  TRUSTED_PROXIES?: string;

  /** DNS-over-HTTPS servers for deliverability audits: comma-separated host or host:port (IPv6 in brackets). */
  @Matches(/^\s*(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+)(:\d{1,5})?\s*(,\s*(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+)(:\d{1,5})?\s*)*$/, {
    message: 'must be a comma-separated list of host or host:port (e.g. 1.1.1.1,8.8.8.8:443)',
  })
  DNS_SERVERS = '1.1.1.1,1.0.0.1';

  /**
   * Tests only: IP addresses that server-side fetches (gate links, URL import, image weights) may reach
   * although not public, e.g. a loopback test server. Refused when NODE_ENV=production.
   */
  @IsOptional()
  @Matches(/^\s*[0-9a-fA-F:.]+\s*(,\s*[0-9a-fA-F:.]+\s*)*$/, { message: 'must be a comma-separated list of IP addresses' })
  SSRF_ALLOWED_ADDRESSES?: string;

  /** https in production; http only for a DoH server on loopback (tests, a local resolver). */
  @IsIn(['https', 'http'])
  DNS_PROTOCOL: 'https' | 'http' = 'https';

  /** Timeout of one DoH request; tangerine doubles it on each retry. */
  @Transform(toInt)
  @IsInt()
  @Min(50)
  @Max(30_000)
  DNS_TIMEOUT_MS = 2_500;

  /** Attempts per server for one query. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(5)
  DNS_TRIES = 2;

  /** Cached DNS answers live for their own TTL, but never longer than this (0 turns the Redis cache off). */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(86_400)
  DNS_CACHE_MAX_TTL_SECONDS = 3_600;

  /** How long NXDOMAIN and empty answers are cached. */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(86_400)
  DNS_CACHE_NEGATIVE_TTL_SECONDS = 60;

  /** How often the scheduler re-audits every monitored domain: a number with ms, s, m, h or d (e.g. 6h). */
  @Matches(/^[1-9]\d*(ms|s|m|h|d)$/, { message: 'must be a duration such as 30s, 15m, 6h or 1d' })
  DOMAIN_AUDIT_INTERVAL = '6h';

  /** How long POST /api/deliverability waits for the audit before answering 503 with Retry-After. */
  @Transform(toInt)
  @IsInt()
  @Min(100)
  @Max(60_000)
  DELIVERABILITY_BUDGET_MS = 10_000;

  /** Monitored domains per account and plan. */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(100_000)
  DOMAIN_LIMIT_FREE = 3;

  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(100_000)
  DOMAIN_LIMIT_PRO = 50;

  /** webhook.deliver jobs at once per worker-dns process (network waits, each bounded by WEBHOOK_TIMEOUT_MS). */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(64)
  WORKER_WEBHOOK_CONCURRENCY = 8;

  /** One delivery attempt (connect, send, status and the capped body) must finish within this. */
  @Transform(toInt)
  @IsInt()
  @Min(500)
  @Max(30_000)
  WEBHOOK_TIMEOUT_MS = 10_000;

  /** Attempts per delivery; with WEBHOOK_BACKOFF_MS 10 s, 14 attempts span about 22.75 hours (docs/webhooks.md). */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(30)
  WEBHOOK_ATTEMPTS = 14;

  /** Wait before the second attempt; each further wait doubles. */
  @Transform(toInt)
  @IsInt()
  @Min(100)
  @Max(3_600_000)
  WEBHOOK_BACKOFF_MS = 10_000;

  /** An endpoint is disabled after this many deliveries in a row failed for good (every attempt). */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(1_000)
  WEBHOOK_DISABLE_AFTER = 3;

  /** Webhook endpoints per account. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(1_000)
  WEBHOOK_ENDPOINT_LIMIT = 10;

  /** How often the scheduler queues deliveries that were stored but never queued (a producer died in between). */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(3_600)
  WEBHOOK_RELAY_EVERY_SECONDS = 60;

  /**
   * on: spans across the API and the job chain (docs/operations.md, "Tracing"); off: no spans, no OpenTelemetry
   * loaded. Unset, OpenTelemetry's convention holds: OTEL_EXPORTER_OTLP_ENDPOINT set turns OTLP export on.
   */
  @IsOptional()
  @IsIn(['on', 'off'])
  TRACING?: 'on' | 'off';

  /** The share of new traces kept; a job continues its request's decision. */
  @Transform(({ value }: { value: unknown }) => (typeof value === 'string' && value.trim() !== '' ? Number(value) : value))
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(0)
  @Max(1)
  TRACING_SAMPLE_RATIO = 1;

  /** How many spans the embedded store (a Redis stream) keeps when no collector is configured. */
  @Transform(toInt)
  @IsInt()
  @Min(100)
  @Max(1_000_000)
  TRACING_STREAM_MAX_SPANS = 20_000;

  /** A collector's base URL: spans go there over OTLP/HTTP instead of the embedded store. */
  @IsOptional()
  @Matches(/^https?:\/\/[^\s/]+(\/\S*)?$/, { message: 'must be an http(s) URL such as http://collector:4318' })
  OTEL_EXPORTER_OTLP_ENDPOINT?: string;

  @IsIn(['http/protobuf', 'http/json'])
  OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuf' | 'http/json' = 'http/protobuf';

  /**
   * The key-encryption keys of encryption at rest (docs/privacy.md): `id:base64` pairs separated by commas,
   * each key 32 bytes; the first wraps new data keys, all unwrap. Required in production; elsewhere a fixed
   * development key stands in (`npm start` writes a generated one into `.env`).
   */
  @IsOptional()
  @Matches(DATA_KEYS_PATTERN, { message: 'must be id:base64key pairs separated by commas, e.g. k2:<44 base64 characters>,k1:<...>' })
  MAILPROOF_DATA_KEYS?: string;
}

export type Environment = EnvironmentVariables;
