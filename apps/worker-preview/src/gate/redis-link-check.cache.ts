import { Injectable, Logger, type OnModuleDestroy } from '@nestjs/common';
import { createHmac } from 'node:crypto';
import { MailproofConfig } from '@mailproof/config';
import type { CachedLinkOutcome, LinkCheckCache } from '@mailproof/net-guard';
import { DataKeyring } from '@mailproof/persistence';
import { createRedisClient, FailureLog, type RedisClient, requestPathRedisOptions } from '@mailproof/queue';

/** What the keyring derives the cache's hash key for (DataKeyring.derivedSecret). */
export const LINK_CHECK_HASH_PURPOSE = 'link-check-cache';

/**
 * Link statuses cached in Redis for LINK_CHECK_CACHE_SECONDS, shared by every worker replica, so a CI
 * pipeline that re-runs the gate does not fetch the same sites again. The cache is an optimization: a
 * Redis that is down or slow is a miss (commands time out), never a failed link check; the first failure of
 * an outage is logged, and the recovery.
 *
 * The URLs are the email's (receipt and password-reset links carry tokens: docs/privacy.md): the key is an
 * HMAC-SHA256 of the URL under a secret derived from MAILPROOF_DATA_KEYS, so whoever reads Redis alone cannot
 * confirm a guessed URL, and the value is the status only (`{"status":200}`), never the URL or its redirect target.
 */
@Injectable()
export class RedisLinkCheckCache implements LinkCheckCache, OnModuleDestroy {
  private readonly redis: RedisClient | null;
  private readonly prefix: string;
  private readonly ttlSeconds: number;
  private readonly hashKey: Buffer;
  private readonly failures = new FailureLog('link-check cache (Redis)', new Logger('LinkCheckCache'));

  constructor(config: MailproofConfig, keyring: DataKeyring) {
    this.ttlSeconds = config.gate.linkCacheSeconds;
    this.prefix = `${config.queue.prefix}:link-check:`;
    this.hashKey = keyring.derivedSecret(LINK_CHECK_HASH_PURPOSE);
    this.redis = this.ttlSeconds > 0 ? createRedisClient(config.redis, requestPathRedisOptions(config.redis.url, config.redis.commandTimeoutMs)) : null;
    this.redis?.on('error', (error) => this.failures.failed(error));
  }

  async get(url: string): Promise<CachedLinkOutcome | undefined> {
    if (!this.redis) return undefined;
    const text = await this.failures.orElse(this.redis.get(this.key(url)), null);
    if (!text) return undefined;
    try {
      const { status } = JSON.parse(text) as Partial<CachedLinkOutcome>;
      return typeof status === 'number' ? { status } : undefined;
    } catch {
      return undefined;
    }
  }

  async set(url: string, outcome: CachedLinkOutcome): Promise<void> {
    if (!this.redis) return;
    const stored: CachedLinkOutcome = { status: outcome.status };
    await this.failures.orElse(this.redis.set(this.key(url), JSON.stringify(stored), 'EX', this.ttlSeconds), undefined);
  }

  onModuleDestroy(): void {
    this.redis?.disconnect();
  }

  private key(url: string): string {
    return this.prefix + createHmac('sha256', this.hashKey).update(url).digest('base64url');
  }
}
