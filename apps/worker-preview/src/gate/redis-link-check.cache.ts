import { Injectable, type OnModuleDestroy } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { MailproofConfig } from '@mailproof/config';
import type { LinkCheck, LinkCheckCache } from '@mailproof/net-guard';
import { createRedisClient, type RedisClient, requestPathRedisOptions } from '@mailproof/queue';

/**
 * Link statuses cached in Redis for LINK_CHECK_CACHE_SECONDS, shared by every worker replica, so a CI
 * pipeline that re-runs the gate does not fetch the same sites again. The cache is an optimisation: a
 * Redis that is down or slow is a miss (commands time out), never a failed link check.
 */
@Injectable()
export class RedisLinkCheckCache implements LinkCheckCache, OnModuleDestroy {
  private readonly redis: RedisClient | null;
  private readonly prefix: string;
  private readonly ttlSeconds: number;

  constructor(config: MailproofConfig) {
    this.ttlSeconds = config.gate.linkCacheSeconds;
    this.prefix = `${config.queue.prefix}:link-check:`;
    this.redis = this.ttlSeconds > 0 ? createRedisClient(config.redis, requestPathRedisOptions(config.redis.url, config.redis.commandTimeoutMs)) : null;
    this.redis?.on('error', () => undefined);
  }

  async get(url: string): Promise<LinkCheck | undefined> {
    if (!this.redis) return undefined;
    const text = await this.redis.get(this.key(url)).catch(() => null);
    if (!text) return undefined;
    try {
      return JSON.parse(text) as LinkCheck;
    } catch {
      return undefined;
    }
  }

  async set(url: string, check: LinkCheck): Promise<void> {
    if (!this.redis) return;
    await this.redis.set(this.key(url), JSON.stringify(check), 'EX', this.ttlSeconds).catch(() => undefined);
  }

  onModuleDestroy(): void {
    this.redis?.disconnect();
  }

  /** Hashed: URLs can be long and carry anything; the key needs neither. */
  private key(url: string): string {
    return this.prefix + createHash('sha256').update(url).digest('base64url');
  }
}
