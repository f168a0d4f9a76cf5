import { Injectable, Logger, type OnModuleDestroy } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { MailproofConfig } from '@mailproof/config';
import type { LinkCheck, LinkCheckCache } from '@mailproof/net-guard';
import { createRedisClient, FailureLog, type RedisClient, requestPathRedisOptions } from '@mailproof/queue';

/**
 * Link statuses cached in Redis for LINK_CHECK_CACHE_SECONDS, shared by every worker replica, so a CI
 * pipeline that re-runs the gate does not fetch the same sites again. The cache is an optimization: a
 * Redis that is down or slow is a miss (commands time out), never a failed link check; the first failure of
 * an outage is logged, and the recovery.
 */
@Injectable()
export class RedisLinkCheckCache implements LinkCheckCache, OnModuleDestroy {
  private readonly redis: RedisClient | null;
  private readonly prefix: string;
  private readonly ttlSeconds: number;
  private readonly failures = new FailureLog('link-check cache (Redis)', new Logger('LinkCheckCache'));

  constructor(config: MailproofConfig) {
    this.ttlSeconds = config.gate.linkCacheSeconds;
    this.prefix = `${config.queue.prefix}:link-check:`;
    this.redis = this.ttlSeconds > 0 ? createRedisClient(config.redis, requestPathRedisOptions(config.redis.url, config.redis.commandTimeoutMs)) : null;
    this.redis?.on('error', (error) => this.failures.failed(error));
  }

  async get(url: string): Promise<LinkCheck | undefined> {
    if (!this.redis) return undefined;
    const text = await this.failures.orElse(this.redis.get(this.key(url)), null);
    if (!text) return undefined;
    try {
      return JSON.parse(text) as LinkCheck;
    } catch {
      return undefined;
    }
  }

  async set(url: string, check: LinkCheck): Promise<void> {
    if (!this.redis) return;
    await this.failures.orElse(this.redis.set(this.key(url), JSON.stringify(check), 'EX', this.ttlSeconds), undefined);
  }

  onModuleDestroy(): void {
    this.redis?.disconnect();
  }

  /** Hashed: URLs can be long and carry anything; the key needs neither. */
  private key(url: string): string {
    return this.prefix + createHash('sha256').update(url).digest('base64url');
  }
}
