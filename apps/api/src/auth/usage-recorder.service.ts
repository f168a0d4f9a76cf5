import { Injectable, Logger, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { AccountsRepository, type UsageKind } from '@mailproof/persistence';
import { RateLimiterService } from './rate-limiter.service';

const FLUSH_EVERY_MS = 1_000;
const LAST_USED_EVERY_SECONDS = 60;

/**
 * Counts requests per key, UTC day and kind in memory and writes them to PostgreSQL once a
 * second in one statement, so a request costs no database query at all. At most about a second
 * of counts can be lost if the process dies; shutdown flushes what is pending.
 * `lastUsedAt` is stamped at most once a minute per key across all instances (Redis SET NX).
 */
@Injectable()
export class UsageRecorder implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger('Usage');
  private pending = new Map<string, { keyId: string; day: string; kind: UsageKind; count: number }>();
  private touched = new Set<string>();
  private readonly lastTouchedAt = new Map<string, number>();
  private timer?: NodeJS.Timeout;
  private flushing: Promise<void> = Promise.resolve();

  constructor(
    private readonly accounts: AccountsRepository,
    private readonly rateLimiter: RateLimiterService,
  ) {}

  onModuleInit(): void {
    this.timer = setInterval(() => void this.flush(), FLUSH_EVERY_MS);
    this.timer.unref();
  }

  async onModuleDestroy(): Promise<void> {
    clearInterval(this.timer);
    await this.flush();
  }

  record(keyId: string, kind: UsageKind, now = new Date()): void {
    this.add({ keyId, day: now.toISOString().slice(0, 10), kind, count: 1 });
    const last = this.lastTouchedAt.get(keyId) ?? 0;
    if (now.getTime() - last >= LAST_USED_EVERY_SECONDS * 1000) {
      this.lastTouchedAt.set(keyId, now.getTime());
      void this.rateLimiter.firstWithin(`last-used:${keyId}`, LAST_USED_EVERY_SECONDS).then((first) => first && this.touched.add(keyId));
    }
  }

  /** Adds `count` requests to the slot's pending count (requests recorded meanwhile are in the same slot). */
  private add(counted: { keyId: string; day: string; kind: UsageKind; count: number }): void {
    const slot = `${counted.keyId}|${counted.day}|${counted.kind}`;
    const entry = this.pending.get(slot);
    if (entry) entry.count += counted.count;
    else this.pending.set(slot, { ...counted });
  }

  /** Writes what is pending (serialized: one flush at a time). Tests call it to read exact counts. */
  flush(): Promise<void> {
    this.flushing = this.flushing.then(() => this.writePending());
    return this.flushing;
  }

  private async writePending(): Promise<void> {
    if (this.pending.size === 0 && this.touched.size === 0) return;
    const counts = [...this.pending.values()];
    const touched = [...this.touched];
    this.pending = new Map();
    this.touched = new Set();
    try {
      await this.accounts.addUsage(counts, touched);
    } catch (error) {
      // Put each slot back with its whole count (added to what was recorded during the write); the next
      // flush tries again. A failed write stored nothing: it is one statement.
      for (const counted of counts) this.add(counted);
      for (const keyId of touched) this.touched.add(keyId);
      const requests = counts.reduce((sum, counted) => sum + counted.count, 0);
      this.logger.warn(`usage not written yet (${requests} requests kept for the next flush): ${error instanceof Error ? error.message : String(error)}`);
    }
  }
}
