import { Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { MailproofConfig } from '@mailproof/config';
import type { Plan } from '@mailproof/persistence';
import { createRedisClient, FailureLog, type RedisClient, requestPathRedisOptions } from '@mailproof/queue';

export type RateLimitTier = 'anonymous' | Plan;

const SIGN_IN_WINDOW_SECONDS = 15 * 60;

export interface RateLimitDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the window resets. */
  resetSeconds: number;
}

/**
 * Fixed per-minute windows kept in Redis, shared by every API instance (rate-limiter-flexible).
 * When Redis cannot be reached, each instance falls back to an in-memory limiter with the same
 * limits (fail open to a per-instance limit, never to no limit), so an outage of Redis neither
 * blocks every customer nor removes abuse protection. docs/auth-and-limits.md explains the choice.
 *
 * "Cannot be reached" includes a Redis that accepts connections but never answers (frozen,
 * overloaded): no error ever comes from it, so every command has RATE_LIMIT_REDIS_TIMEOUT_MS and a
 * timed-out command counts as a failure that the in-memory limiter answers.
 */
@Injectable()
export class RateLimiterService implements OnModuleDestroy {
  private readonly logger = new Logger('RateLimit');
  private readonly redis: RedisClient;
  private readonly limiters: Record<RateLimitTier, RateLimiterRedis>;
  private readonly signIn: RateLimiterRedis;
  private readonly markers = new FailureLog('shared marker (Redis SET NX)', this.logger);

  constructor(private readonly config: MailproofConfig) {
    // Fail fast while Redis is down or silent, so the in-memory fallback answers instead of requests waiting.
    this.redis = createRedisClient(config.rateLimits.redis, {
      ...requestPathRedisOptions(config.rateLimits.redis.url, config.rateLimits.redisTimeoutMs),
      lazyConnect: false,
    });
    this.redis.on('error', (error) => this.logger.warn(`rate-limit redis: ${error.message}`));
    const duration = config.rateLimits.windowSeconds;
    const make = (name: string, points: number, seconds = duration) =>
      new RateLimiterRedis({
        storeClient: this.redis,
        keyPrefix: `${config.queue.prefix}:rl:${name}`,
        points,
        duration: seconds,
        // Not connected: straight to the in-memory limiter, without sending anything.
        rejectIfRedisNotReady: true,
        insuranceLimiter: new RateLimiterMemory({ keyPrefix: `rl-mem-${name}`, points, duration: seconds }),
      });
    const tier = (name: RateLimitTier) => make(name, config.rateLimits.perWindow[name]);
    this.limiters = { anonymous: tier('anonymous'), free: tier('free'), pro: tier('pro') };
    // Guessing keys through the dashboard's sign-in form: a small budget per IP over a long window.
    this.signIn = make('dashboard-sign-in', config.dashboard.signInLimit, SIGN_IN_WINDOW_SECONDS);
  }

  async consume(tier: RateLimitTier, subject: string): Promise<RateLimitDecision> {
    return this.consumeFrom(this.limiters[tier], this.config.rateLimits.perWindow[tier], subject);
  }

  /** One dashboard sign-in attempt of this client (DASHBOARD_SIGN_IN_LIMIT per 15 minutes). */
  consumeSignIn(clientIp: string): Promise<RateLimitDecision> {
    return this.consumeFrom(this.signIn, this.config.dashboard.signInLimit, `ip:${clientIp}`);
  }

  private async consumeFrom(limiter: RateLimiterRedis, limit: number, subject: string): Promise<RateLimitDecision> {
    try {
      const res = await limiter.consume(subject);
      return { allowed: true, limit, remaining: Math.max(0, res.remainingPoints), resetSeconds: Math.ceil(res.msBeforeNext / 1000) };
    } catch (rejection) {
      if (rejection instanceof RateLimiterRes) {
        return { allowed: false, limit, remaining: 0, resetSeconds: Math.ceil(rejection.msBeforeNext / 1000) };
      }
      // Both Redis and the insurance limiter failed: let the request through rather than fail it.
      this.logger.error(`rate limiter unavailable: ${rejection instanceof Error ? rejection.message : String(rejection)}`);
      return { allowed: true, limit, remaining: limit, resetSeconds: this.config.rateLimits.windowSeconds };
    }
  }

  /** Redis SET NX EX: true for the first caller in `seconds` (shared by every instance). */
  async firstWithin(key: string, seconds: number): Promise<boolean> {
    // Without Redis every caller counts as first: the work it guards (a lastUsedAt stamp) is done more often,
    // never skipped. The failure is logged once per outage.
    return (await this.markers.orElse(this.redis.set(`${this.config.queue.prefix}:${key}`, '1', 'EX', seconds, 'NX'), 'OK')) === 'OK';
  }

  /** Its connection (RATE_LIMIT_REDIS_URL, else REDIS_URL): an account's erasure deletes its windows and markers there. */
  get client(): RedisClient {
    return this.redis;
  }

  async onModuleDestroy(): Promise<void> {
    this.redis.disconnect();
  }
}
