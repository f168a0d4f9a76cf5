import { Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { MailproofConfig } from '@mailproof/config';
import { DataKeyRepository } from '@mailproof/persistence';
import { accountErasedChannel, createRedisClient, redisOptionsFromUrl, type RedisClient } from '@mailproof/queue';
import { PreviewAnalysisCache } from '../shares/preview-analysis.cache';
import { ApiKeyAuthenticator } from './api-key.authenticator';

/**
 * An erased account's keys stop working on every API replica at once, not after API_KEY_CACHE_TTL_MS: whoever
 * erased it (an API replica, or `mailproof account delete`) publishes the account id on a Redis channel and
 * every replica drops the account's keys from its cache. Its rows are gone already, so the next lookup finds nothing.
 * With them go what the replica keeps decrypted in memory: the account's data key (DataKeyRepository) and the
 * decoded analyses of share and preview pages (PreviewAnalysisCache: keyed by preview, so it is emptied whole).
 */
@Injectable()
export class AccountRevocations implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger('AccountRevocations');
  private readonly subscriber: RedisClient;
  private readonly channel: string;

  constructor(
    config: MailproofConfig,
    private readonly authenticator: ApiKeyAuthenticator,
    private readonly dataKeys: DataKeyRepository,
    private readonly analyses: PreviewAnalysisCache,
  ) {
    this.channel = accountErasedChannel(config.queue.prefix);
    // A subscriber waits for messages: it keeps the blocking connection's options (reconnects, no command timeout).
    this.subscriber = createRedisClient(config.redis, { ...redisOptionsFromUrl(config.redis.url), lazyConnect: false });
    this.subscriber.on('error', (error: Error) => this.logger.warn(`revocation redis: ${error.message}`));
    this.subscriber.on('message', (channel: string, accountId: string) => {
      if (channel === this.channel) this.revokeAccount(accountId);
    });
  }

  /**
   * Not awaited: with Redis down at start the API must still start (it answers from PostgreSQL and its
   * in-memory limiter); the subscription is made once Redis answers, and ioredis renews it after a reconnect.
   */
  onModuleInit(): void {
    this.subscriber.subscribe(this.channel).catch((error: Error) => this.logger.warn(`cannot subscribe to ${this.channel}: ${error.message}`));
  }

  /** This replica forgets at once; the others when eraseAccountFromRedis's message arrives (a Redis round trip). */
  revokeAccount(accountId: string): void {
    this.authenticator.forgetAccount(accountId);
    this.dataKeys.forgetAccount(accountId);
    this.analyses.clear();
  }

  async onModuleDestroy(): Promise<void> {
    this.subscriber.disconnect();
  }
}
