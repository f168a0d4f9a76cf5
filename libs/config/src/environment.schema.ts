import { Transform } from 'class-transformer';
import { IsBoolean, IsIn, IsInt, IsOptional, IsString, Matches, Max, Min } from 'class-validator';

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

  @Transform(toInt) @IsInt() @Min(0) @Max(65535)
  PORT = 3000;

  @IsString() @Matches(/^[\d.:a-fA-F]+$|^localhost$/, { message: 'must be an IP address or localhost' })
  HOST = '0.0.0.0';

  @IsIn(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
  LOG_LEVEL: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent' = 'info';

  /** Largest JSON body the API parses, in bytes (the 500 KB markup limit is checked per field). */
  @Transform(toInt) @IsInt() @Min(1024) @Max(50 * 1024 * 1024)
  HTTP_BODY_LIMIT_BYTES = 2 * 1024 * 1024;

  /** Connection attempts TypeORM makes at start before giving up. */
  @Transform(toInt) @IsInt() @Min(1) @Max(100)
  DATABASE_RETRY_ATTEMPTS = 5;

  @Transform(toInt) @IsInt() @Min(1) @Max(100)
  DATABASE_POOL_SIZE = 10;

  /** Run pending migrations when an app starts (under an advisory lock). */
  @Transform(toBool) @IsBoolean()
  MIGRATE_ON_START = true;

  /** Redis key prefix of every BullMQ queue; tests give each jest worker its own. */
  @IsString() @Matches(/^[A-Za-z0-9_-]{1,40}$/, { message: 'must be 1-40 letters, digits, _ or -' })
  QUEUE_PREFIX = 'mailproof';

  @Transform(toInt) @IsInt() @Min(1) @Max(64)
  WORKER_PREVIEW_CONCURRENCY = 2;

  @Transform(toInt) @IsInt() @Min(1) @Max(16)
  WORKER_RENDER_CONCURRENCY = 2;

  @Transform(toInt) @IsInt() @Min(1) @Max(64)
  WORKER_DNS_CONCURRENCY = 8;

  @Transform(toInt) @IsInt() @Min(1) @Max(16)
  SCHEDULER_CONCURRENCY = 1;

  /** How long a worker waits for active jobs on SIGTERM before exiting (unfinished jobs go back to the queue). */
  @Transform(toInt) @IsInt() @Min(0) @Max(600_000)
  SHUTDOWN_GRACE_MS = 25_000;

  /** Budget of the diagnostics round trip (API -> queue -> worker -> PostgreSQL -> API). */
  @Transform(toInt) @IsInt() @Min(100) @Max(60_000)
  ROUND_TRIP_BUDGET_MS = 5_000;

  @IsOptional() @IsString()
  CHROMIUM_PATH?: string;
}

export type Environment = EnvironmentVariables;
