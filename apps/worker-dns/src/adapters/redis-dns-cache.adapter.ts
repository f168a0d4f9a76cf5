import type { FailureLog, RedisClient } from '@mailproof/queue';

/** What tangerine stores per query: the decoded DNS packet plus its own ttl/expires bookkeeping. */
interface CachedPacket {
  answers?: Array<{ ttl?: number }>;
  ttl?: number;
  expires?: number;
  [key: string]: unknown;
}

/**
 * tangerine's cache interface (get/set) over Redis, shared by every worker-dns replica.
 * tangerine picks a TTL itself but sorts TTLs as strings, so a 60 s answer next to a 300 s one
 * can live 300 s; here the entry lives exactly as long as its shortest answer TTL, capped by
 * DNS_CACHE_MAX_TTL_SECONDS. Empty answers (NODATA) live the negative TTL. A Redis that fails is a miss
 * (or a write skipped), never a failed lookup; `failures` logs the first failure of an outage.
 */
export class RedisDnsCacheAdapter {
  constructor(
    private readonly redis: RedisClient,
    private readonly keyPrefix: string,
    private readonly maxTtlSeconds: number,
    private readonly negativeTtlSeconds: number,
    private readonly failures: FailureLog,
  ) {}

  get enabled(): boolean {
    return this.maxTtlSeconds > 0;
  }

  async get(key: string): Promise<CachedPacket | undefined> {
    const text = await this.failures.orElse(this.redis.get(this.keyPrefix + key), null);
    if (!text) return undefined;
    try {
      return JSON.parse(text) as CachedPacket;
    } catch {
      return undefined;
    }
  }

  async set(key: string, packet: CachedPacket): Promise<void> {
    const ttls = (packet.answers ?? []).map((answer) => answer.ttl).filter((ttl): ttl is number => typeof ttl === 'number' && Number.isFinite(ttl));
    const ttl = ttls.length > 0 ? Math.min(Math.min(...ttls), this.maxTtlSeconds) : Math.min(this.negativeTtlSeconds, this.maxTtlSeconds);
    if (ttl < 1) return;
    const entry = { ...packet, ttl, expires: Date.now() + ttl * 1000 };
    // A cache that cannot write must not fail the lookup it is caching.
    await this.failures.orElse(this.redis.set(this.keyPrefix + key, JSON.stringify(entry), 'PX', ttl * 1000), undefined);
  }

  /** NXDOMAIN never reaches tangerine's cache (it throws first), so it is remembered here. */
  async isKnownMissing(key: string): Promise<boolean> {
    if (!this.enabled || this.negativeTtlSeconds < 1) return false;
    return (await this.failures.orElse(this.redis.exists(`${this.keyPrefix}nx:${key}`), 0)) === 1;
  }

  async rememberMissing(key: string): Promise<void> {
    const ttl = Math.min(this.negativeTtlSeconds, this.maxTtlSeconds);
    if (ttl < 1) return;
    await this.failures.orElse(this.redis.set(`${this.keyPrefix}nx:${key}`, '1', 'PX', ttl * 1000), undefined);
  }
}
