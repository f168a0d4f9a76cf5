/** Where a FailureLog writes: a Nest Logger, or anything with `warn` and `log`. */
export interface FailureLogTarget {
  warn(message: string): void;
  log(message: string): void;
}

/**
 * For work that may fail without failing its caller (a cache, a metric, a marker shared in Redis): the first
 * failure is logged, then failures are only counted until the work succeeds again, which is logged once with
 * the count. An outage shows in the logs once, neither once per request nor not at all.
 */
export class FailureLog {
  private failures = 0;

  constructor(
    private readonly what: string,
    private readonly logger: FailureLogTarget,
  ) {}

  failed(error: unknown): void {
    this.failures += 1;
    if (this.failures > 1) return;
    const message = error instanceof Error ? error.message : String(error);
    this.logger.warn(`${this.what} failed: ${message} (further failures are counted, not logged, until it works again)`);
  }

  succeeded(): void {
    if (this.failures === 0) return;
    this.logger.log(`${this.what} works again after ${this.failures} failure${this.failures === 1 ? '' : 's'}`);
    this.failures = 0;
  }

  /** `work`'s value, or `fallback` when it fails (the failure noted). */
  async orElse<T, F>(work: Promise<T>, fallback: F): Promise<T | F> {
    try {
      const value = await work;
      this.succeeded();
      return value;
    } catch (error) {
      this.failed(error);
      return fallback;
    }
  }
}
