import { Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import { createHash, randomBytes } from 'node:crypto';
import { MailproofConfig } from '@mailproof/config';
import { createRedisClient, requestPathRedisOptions, type RedisClient } from '@mailproof/queue';

export interface DashboardSession {
  accountId: string;
  /** The API key the session was opened with: revoking it ends the session. */
  keyId: string;
  csrfToken: string;
  createdAt: string;
}

const SESSION_ID = /^[A-Za-z0-9_-]{43}$/;

function digest(sessionId: string): string {
  return createHash('sha256').update(sessionId).digest('hex');
}

/**
 * Dashboard sessions in Redis, shared by every API instance. Redis holds the SHA-256 of the
 * session id only (like api_keys holds a key's hash), with the account, the key and the session's
 * CSRF token, under a TTL of DASHBOARD_SESSION_TTL_HOURS. A set per key lists its sessions, so
 * revoking the key deletes them at once.
 */
@Injectable()
export class DashboardSessionStore implements OnModuleDestroy {
  private readonly logger = new Logger('DashboardSessions');
  private readonly redis: RedisClient;
  private readonly ttl: number;

  constructor(private readonly config: MailproofConfig) {
    // From the one Redis factory, so the sessions live on a Redis Cluster too (docs/operations.md).
    this.redis = createRedisClient(config.redis, { ...requestPathRedisOptions(config.redis.url, config.redis.commandTimeoutMs), lazyConnect: false });
    this.redis.on('error', (error) => this.logger.warn(`session redis: ${error.message}`));
    this.ttl = config.dashboard.sessionTtlSeconds;
  }

  private sessionKey(hash: string): string {
    return `${this.config.queue.prefix}:dashboard:session:${hash}`;
  }

  private keySessionsKey(keyId: string): string {
    return `${this.config.queue.prefix}:dashboard:key-sessions:${keyId}`;
  }

  /** Opens a session; the returned id goes into the cookie and nowhere else. */
  async create(accountId: string, keyId: string): Promise<{ sessionId: string; session: DashboardSession }> {
    const sessionId = randomBytes(32).toString('base64url');
    const session: DashboardSession = { accountId, keyId, csrfToken: randomBytes(32).toString('base64url'), createdAt: new Date().toISOString() };
    const hash = digest(sessionId);
    await this.redis
      .multi()
      .set(this.sessionKey(hash), JSON.stringify(session), 'EX', this.ttl)
      .sadd(this.keySessionsKey(keyId), hash)
      .expire(this.keySessionsKey(keyId), this.ttl)
      .exec();
    return { sessionId, session };
  }

  async find(sessionId: string | undefined): Promise<DashboardSession | null> {
    if (!sessionId || !SESSION_ID.test(sessionId)) return null;
    const stored = await this.redis.get(this.sessionKey(digest(sessionId)));
    return stored ? (JSON.parse(stored) as DashboardSession) : null;
  }

  async destroy(sessionId: string | undefined): Promise<void> {
    if (!sessionId || !SESSION_ID.test(sessionId)) return;
    const hash = digest(sessionId);
    const stored = await this.redis.get(this.sessionKey(hash));
    const multi = this.redis.multi().del(this.sessionKey(hash));
    if (stored) multi.srem(this.keySessionsKey((JSON.parse(stored) as DashboardSession).keyId), hash);
    await multi.exec();
  }

  /** Ends every session opened with this key (the key was revoked). */
  async destroyForKey(keyId: string): Promise<number> {
    const hashes = await this.redis.smembers(this.keySessionsKey(keyId));
    await this.redis.del(...hashes.map((hash) => this.sessionKey(hash)), this.keySessionsKey(keyId));
    return hashes.length;
  }

  async onModuleDestroy(): Promise<void> {
    this.redis.disconnect();
  }
}
