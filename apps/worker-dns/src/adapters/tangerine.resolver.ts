import { Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import Tangerine from 'tangerine';
import { MailproofConfig } from '@mailproof/config';
import type { DnsFailureReason, DnsLookup, DnsResolver, MxRecord } from '@mailproof/engine/dns';
import { createRedisClient, FailureLog, type RedisClient, requestPathRedisOptions } from '@mailproof/queue';
import { Http2RequestAdapter } from './http2-request.adapter';
import { RedisDnsCacheAdapter } from './redis-dns-cache.adapter';

type RecordType = 'TXT' | 'MX' | 'A' | 'AAAA';

const FAILURES: Record<string, DnsFailureReason> = {
  ETIMEOUT: 'timeout',
  ESERVFAIL: 'servfail',
  EREFUSED: 'refused',
  ECONNREFUSED: 'unreachable',
  ECANCELLED: 'unreachable',
  ABORT_ERR: 'timeout',
};

/**
 * The worker's DnsResolver: DNS over HTTPS through tangerine (retries, server rotation), over
 * HTTP/2, with a Redis cache shared by every worker-dns replica that honors record TTLs. Every
 * failure becomes a DnsLookup error value; a lookup never throws and never outlives its deadline.
 */
@Injectable()
export class TangerineResolver implements DnsResolver, OnApplicationShutdown {
  private readonly logger = new Logger('TangerineResolver');
  private readonly http = new Http2RequestAdapter();
  private readonly redis: RedisClient | null;
  private readonly cache: RedisDnsCacheAdapter | null;
  private readonly tangerine: Tangerine;
  private readonly deadlineMs: number;

  constructor(config: MailproofConfig) {
    const settings = config.deliverability;
    if (settings.cacheMaxTtlSeconds > 0) {
      // A cache must never hold a lookup up: refused, a miss at once; silent (frozen), a miss after REDIS_COMMAND_TIMEOUT_MS.
      this.redis = createRedisClient(config.redis, { ...requestPathRedisOptions(config.redis.url, config.redis.commandTimeoutMs), lazyConnect: false });
      this.redis.on('error', (error) => this.logger.warn(`DNS cache Redis: ${error.message}`));
      this.cache = new RedisDnsCacheAdapter(
        this.redis,
        `${config.queue.prefix}:dns-cache:`,
        settings.cacheMaxTtlSeconds,
        settings.cacheNegativeTtlSeconds,
        new FailureLog('DNS cache (Redis)', this.logger),
      );
    } else {
      this.redis = null;
      this.cache = null;
    }
    this.tangerine = new Tangerine(
      {
        servers: settings.dnsServers,
        protocol: settings.dnsProtocol,
        timeout: settings.dnsTimeoutMs,
        tries: settings.dnsTries,
        cache: (this.cache ?? false) as never,
        logger: false,
      },
      this.http.request as never,
    );
    // tangerine doubles the timeout per try; this bounds the whole lookup over every server.
    const perServer = Array.from({ length: settings.dnsTries }, (_, i) => settings.dnsTimeoutMs * 2 ** i).reduce((a, b) => a + b, 0);
    this.deadlineMs = perServer * settings.dnsServers.length + 250;
  }

  txt(name: string): Promise<DnsLookup<string>> {
    return this.lookup(name, 'TXT', (records) => (records as string[][]).map((chunks) => chunks.join('')));
  }

  mx(name: string): Promise<DnsLookup<MxRecord>> {
    return this.lookup(name, 'MX', (records) => (records as MxRecord[]).map(({ exchange, priority }) => ({ exchange, priority })));
  }

  a(name: string): Promise<DnsLookup<string>> {
    return this.lookup(name, 'A', (records) => records as string[]);
  }

  aaaa(name: string): Promise<DnsLookup<string>> {
    return this.lookup(name, 'AAAA', (records) => records as string[]);
  }

  private async lookup<T>(name: string, type: RecordType, map: (records: unknown[]) => T[]): Promise<DnsLookup<T>> {
    const key = `${type}:${name}`.toLowerCase();
    if (this.cache && (await this.cache.isKnownMissing(key))) return { status: 'nxdomain' };
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<DnsLookup<T>>((resolve) => {
      timer = setTimeout(
        () => resolve({ status: 'error', reason: 'timeout', message: `${type} ${name}: no answer within ${this.deadlineMs} ms` }),
        this.deadlineMs,
      );
    });
    const query = this.tangerine
      .resolve(name, type)
      .then((records: unknown): DnsLookup<T> => {
        const mapped = map(records as unknown[]);
        return mapped.length > 0 ? { status: 'ok', records: mapped } : { status: 'nodata' };
      })
      .catch(async (error: { code?: string; message?: string }): Promise<DnsLookup<T>> => {
        if (error.code === 'ENOTFOUND') {
          await this.cache?.rememberMissing(key);
          return { status: 'nxdomain' };
        }
        if (error.code === 'ENODATA') return { status: 'nodata' };
        return {
          status: 'error',
          reason: FAILURES[error.code ?? ''] ?? 'bad_response',
          message: `${type} ${name}: ${error.code ?? error.message ?? 'failed'}`,
        };
      });
    try {
      return await Promise.race([query, deadline]);
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * Application shutdown, not module destroy: Nest runs this app module's hooks after the BullMQ
   * worker (a deeper module) has let its active audits finish, which need the resolver until then.
   */
  async onApplicationShutdown(): Promise<void> {
    this.tangerine.cancel();
    this.http.close();
    await this.redis?.quit().catch(() => undefined);
  }
}
