import { setMaxListeners } from 'node:events';
import { headThenGet } from './head-requests';
import { HopTimeoutError, SsrfGuard, SsrfRefusedError } from './ssrf-guard';

/** A link that answered: its final status (after redirects) and, when redirected, where it ended. */
export interface LinkCheck {
  url: string;
  status: number;
  finalUrl?: string;
}

/**
 * Why a link was not checked. cap: beyond `maxUrls`; budget: not done when `budgetMs` ended; declined: the
 * SSRF guard refused it (scheme, credentials, port, host name, non-public address, or a redirect to one);
 * error: no usable answer (DNS, connection, TLS, per-request timeout, too many redirects).
 */
export type UncheckedReason = 'cap' | 'budget' | 'declined' | 'error';

export interface UncheckedLink {
  url: string;
  reason: UncheckedReason;
  detail?: string;
}

export interface LinkResolution {
  checked: LinkCheck[];
  unchecked: UncheckedLink[];
}

/**
 * What a cache keeps of a checked link: its final status only. Never the URL nor where it redirected to (they are
 * the email's addresses, customer data: docs/privacy.md); a hit is reported without `finalUrl`.
 */
export interface CachedLinkOutcome {
  status: number;
}

/** Where checked results may be kept for a while (the worker's Redis). Failures and slowness are ignored. */
export interface LinkCheckCache {
  get(url: string): Promise<CachedLinkOutcome | undefined>;
  set(url: string, outcome: CachedLinkOutcome): Promise<void>;
}

export interface ResolveLinksOptions {
  /** The guard every request goes through (tests allow-list their loopback servers on it). */
  guard: SsrfGuard;
  /** Distinct URLs checked at most; the rest are reported `cap`. Default 25. */
  maxUrls?: number;
  /** Time for the whole call; what is not done by then is reported `budget`. Default 10000. */
  budgetMs?: number;
  /** Each HTTP request (every redirect hop, HEAD or GET) must answer within this. Default 5000. */
  requestTimeoutMs?: number;
  /** URLs checked at once. Default 8. */
  concurrency?: number;
  /** Requests in flight at once to one host name (every hop counts against its own host). Default 2. */
  perHostConcurrency?: number;
  /** Redirects followed per URL, each re-checked by the guard; more is `error`. Default 5. */
  maxRedirects?: number;
  /** Results of earlier runs, keyed by the normalized URL; only checked results are stored. */
  cache?: LinkCheckCache;
  /** How long a cache lookup may take before it counts as a miss. Default 250. */
  cacheTimeoutMs?: number;
  /** Ends the call early, like the budget. */
  signal?: AbortSignal;
}

export const LINK_RESOLUTION_DEFAULTS = {
  maxUrls: 25,
  budgetMs: 10_000,
  requestTimeoutMs: 5000,
  concurrency: 8,
  perHostConcurrency: 2,
  maxRedirects: 5,
  cacheTimeoutMs: 250,
} as const;

/**
 * The key duplicates share: the WHATWG serialization (scheme and host lower-cased, default port and dot
 * segments removed) without the fragment, which never reaches the server. Unparsable input stays as
 * trimmed.
 */
export function normalizeLinkUrl(raw: string): string {
  const text = raw.trim();
  try {
    const url = new URL(text);
    url.hash = '';
    return url.href;
  } catch {
    return text;
  }
}

/** finalUrl only when redirected elsewhere. */
type Outcome = { status: number; finalUrl?: string } | { reason: UncheckedReason; detail?: string };

class BudgetSpent extends Error {
  constructor(budgetMs: number) {
    super(`the ${budgetMs} ms budget was spent`);
    this.name = 'BudgetSpent';
  }
}

/** Slots per host name; a released slot goes to a waiting hop first, else `onFree` may start new work. */
class HostSlots {
  private readonly active = new Map<string, number>();
  private readonly waiting = new Map<string, Array<() => void>>();

  constructor(
    private readonly limit: number,
    private readonly onFree: () => void,
  ) {}

  free(host: string): boolean {
    return (this.active.get(host) ?? 0) < this.limit;
  }

  /** Takes a slot now; only call when `free(host)`. */
  take(host: string): () => void {
    this.active.set(host, (this.active.get(host) ?? 0) + 1);
    return this.releaser(host);
  }

  acquire(host: string, signal: AbortSignal): Promise<() => void> {
    if (signal.aborted) return Promise.reject(signal.reason);
    if (this.free(host)) return Promise.resolve(this.take(host));
    return new Promise((resolve, reject) => {
      const queue = this.waiting.get(host) ?? [];
      this.waiting.set(host, queue);
      const grant = (): void => {
        signal.removeEventListener('abort', abort);
        resolve(this.releaser(host));
      };
      const abort = (): void => {
        queue.splice(queue.indexOf(grant), 1);
        reject(signal.reason);
      };
      signal.addEventListener('abort', abort, { once: true });
      queue.push(grant);
    });
  }

  private releaser(host: string): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.waiting.get(host)?.shift();
      if (next) return next(); // the slot passes on without ever being free
      this.active.set(host, (this.active.get(host) ?? 1) - 1);
      this.onFree();
    };
  }
}

function withTimer<T>(work: Promise<T>, ms: number): Promise<T | undefined> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(undefined), ms);
    work.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      () => {
        clearTimeout(timer);
        resolve(undefined);
      },
    );
  });
}

function validCached(value: unknown): value is CachedLinkOutcome {
  const check = value as CachedLinkOutcome | undefined;
  return typeof check === 'object' && check !== null && Number.isInteger(check.status) && check.status >= 100 && check.status <= 599;
}

/**
 * Checks that links resolve, for the gate's `resolveLinks`: at most 25 distinct URLs, within the budget; a link
 * that could not be checked is reported unchecked, never broken.
 * Every request goes through the SSRF guard: HEAD first, GET only when the server rejects HEAD, bodies never
 * read, redirects followed by hand and re-checked at every hop. Duplicates (after `normalizeLinkUrl`) are
 * fetched once and reported once, under the URL as first given. Never throws, and returns when the budget
 * ends at the latest, whatever the servers, the DNS or the cache do.
 */
export async function resolveLinks(urls: readonly string[], options: ResolveLinksOptions): Promise<LinkResolution> {
  const run = new LinkResolutionRun(urls, options);
  try {
    await run.checkAll();
  } finally {
    run.stop();
  }
  return run.result();
}

/** A distinct URL: the key duplicates share (`normalizeLinkUrl`) and the URL as first given. */
interface LinkEntry {
  key: string;
  url: string;
}

/** A URL the guard let through, with the host name whose slots its first hop takes. */
interface PendingLink extends LinkEntry {
  host: string;
}

/**
 * One `resolveLinks` call. It owns the budget: a timer (and the caller's signal) aborts it, every hop in flight
 * and every wait for a host slot listens to it, and an outcome recorded after it ended is ignored. The steps:
 * the guard's refusals, the cache, then the requests, `concurrency` URLs at a time.
 */
class LinkResolutionRun {
  private readonly settings: Record<keyof typeof LINK_RESOLUTION_DEFAULTS, number>;
  private readonly entries: LinkEntry[];
  /** The first `maxUrls` entries; the rest are reported `cap`. */
  private readonly inScope: LinkEntry[];
  private readonly outcomes = new Map<string, Outcome>();
  private readonly budget = new AbortController();
  private readonly spent: BudgetSpent;
  private readonly timer: NodeJS.Timeout;
  /** Resolves when the budget ends: what is still in flight then is abandoned. */
  private readonly finished: Promise<void>;
  private finish: () => void = () => undefined;
  /** URLs being checked now (at most `concurrency`). */
  private running = 0;

  constructor(
    urls: readonly string[],
    private readonly options: ResolveLinksOptions,
  ) {
    this.settings = { ...LINK_RESOLUTION_DEFAULTS, ...definedOnly(options) };
    const distinct = new Map<string, string>(); // normalized -> as first given
    for (const raw of urls) {
      const key = normalizeLinkUrl(raw);
      if (!distinct.has(key)) distinct.set(key, raw.trim());
    }
    this.entries = [...distinct.entries()].map(([key, url]) => ({ key, url }));
    this.inScope = this.entries.slice(0, Math.max(0, this.settings.maxUrls));
    for (const { key } of this.entries.slice(this.inScope.length))
      this.outcomes.set(key, { reason: 'cap', detail: `at most ${this.settings.maxUrls} distinct URLs are checked` });

    // Every hop in flight and every wait for a host slot listens to the budget: up to two per URL.
    setMaxListeners(2 * this.inScope.length + 10, this.budget.signal);
    this.spent = new BudgetSpent(this.settings.budgetMs);
    this.finished = new Promise<void>((resolve) => (this.finish = resolve));
    this.timer = setTimeout(this.end, this.settings.budgetMs);
    const external = options.signal;
    if (external?.aborted) this.end();
    else external?.addEventListener('abort', this.end, { once: true });
  }

  /** Ends the budget (the timer's and the caller's signal's listener). */
  private readonly end = (): void => {
    this.budget.abort(this.spent);
    this.finish();
  };

  /** Runs every step; returns when all are done or the budget ended. */
  async checkAll(): Promise<void> {
    const pending = this.admitted();
    if (this.options.cache && pending.length > 0) await this.readCache(this.options.cache, pending);
    const queue = pending.filter((entry) => !this.outcomes.has(entry.key));
    if (queue.length > 0 && !this.budget.signal.aborted) await Promise.race([this.runAll(queue), this.finished]);
  }

  /** Declined before any request: not http(s), credentials, ports, host names, non-public literals. */
  private admitted(): PendingLink[] {
    const pending: PendingLink[] = [];
    for (const entry of this.inScope) {
      try {
        const parsed = this.options.guard.check(entry.url);
        pending.push({ ...entry, host: parsed.hostname.toLowerCase() });
      } catch (error) {
        this.record(entry.key, classify(error, this.budget.signal, this.settings.maxRedirects));
      }
    }
    return pending;
  }

  /** Results of earlier runs; a lookup slower than `cacheTimeoutMs`, failed or invalid counts as a miss. */
  private async readCache(cache: LinkCheckCache, pending: readonly PendingLink[]): Promise<void> {
    const hits = await Promise.race([
      Promise.all(
        pending.map((entry) =>
          withTimer(
            Promise.resolve().then(() => cache.get(entry.key)),
            this.settings.cacheTimeoutMs,
          ),
        ),
      ),
      this.finished.then(() => []),
    ]);
    hits.forEach((hit, index) => {
      if (validCached(hit)) this.record(pending[index].key, { status: hit.status });
    });
  }

  /** Starts URLs whose host has a free slot, `concurrency` at a time, until all are done. */
  private runAll(queue: PendingLink[]): Promise<void> {
    return new Promise((resolve) => {
      const slots = new HostSlots(Math.max(1, this.settings.perHostConcurrency), () => this.pump(queue, slots, resolve));
      this.pump(queue, slots, resolve);
    });
  }

  private pump(queue: PendingLink[], slots: HostSlots, allDone: () => void): void {
    if (this.budget.signal.aborted) return;
    while (this.running < Math.max(1, this.settings.concurrency)) {
      const index = queue.findIndex((entry) => slots.free(entry.host));
      if (index < 0) break;
      const [entry] = queue.splice(index, 1);
      this.running++;
      void this.checkOne(entry, slots, slots.take(entry.host)).then((outcome) => {
        this.record(entry.key, outcome);
        if ('status' in outcome) this.remember(entry.key, outcome);
        this.running--;
        if (this.running === 0 && queue.length === 0) allDone();
        else this.pump(queue, slots, allDone);
      });
    }
  }

  /** HEAD then GET for one URL; the slot taken for its first hop is used by that hop, every later hop waits for its own. */
  private async checkOne(entry: LinkEntry, slots: HostSlots, firstSlot: () => void): Promise<Outcome> {
    let reserved: (() => void) | undefined = firstSlot;
    const { signal } = this.budget;
    try {
      const response = await headThenGet(this.options.guard, entry.key, {
        signal,
        maxRedirects: this.settings.maxRedirects,
        hopTimeoutMs: this.settings.requestTimeoutMs,
        beforeHop: async (url, hopSignal) => {
          const slot = reserved;
          reserved = undefined;
          return slot ?? slots.acquire(url.hostname.toLowerCase(), hopSignal ?? signal);
        },
      });
      return checkedOutcome(entry.key, response.status, response.url);
    } catch (error) {
      return classify(error, signal, this.settings.maxRedirects);
    } finally {
      reserved?.();
    }
  }

  /** Keeps a checked result in the cache, without waiting for it or minding its failure. */
  private remember(key: string, outcome: { status: number }): void {
    const { cache } = this.options;
    if (!cache) return;
    void Promise.resolve()
      .then(() => cache.set(key, { status: outcome.status }))
      .catch(() => undefined);
  }

  private record(key: string, outcome: Outcome): void {
    if (!this.budget.signal.aborted) this.outcomes.set(key, outcome);
  }

  /** Stops the timer and aborts what is still in flight: nothing may outlive the call. */
  stop(): void {
    clearTimeout(this.timer);
    this.options.signal?.removeEventListener('abort', this.end);
    if (!this.budget.signal.aborted) this.budget.abort(this.spent);
  }

  /** Every distinct URL in the order first given, checked or not (`budget` when it had no outcome in time). */
  result(): LinkResolution {
    const result: LinkResolution = { checked: [], unchecked: [] };
    for (const { key, url } of this.entries) {
      const outcome = this.outcomes.get(key) ?? { reason: 'budget', detail: this.spent.message };
      if ('status' in outcome) result.checked.push({ url, ...outcome });
      else result.unchecked.push(outcome.detail === undefined ? { url, reason: outcome.reason } : { url, reason: outcome.reason, detail: outcome.detail });
    }
    return result;
  }
}

function checkedOutcome(key: string, status: number, finalUrl: unknown): Outcome {
  return typeof finalUrl === 'string' && finalUrl !== key ? { status, finalUrl } : { status };
}

function classify(error: unknown, budget: AbortSignal, maxRedirects: number): Outcome {
  if (error instanceof BudgetSpent || (budget.aborted && !(error instanceof SsrfRefusedError)))
    return { reason: 'budget', detail: (budget.reason as Error).message };
  if (error instanceof SsrfRefusedError) {
    if (error.reason === 'too-many-redirects') return { reason: 'error', detail: `more than ${maxRedirects} redirects` };
    return { reason: 'declined', detail: error.message };
  }
  if ((error as { code?: unknown }).code === 'ESSRFREFUSED') return { reason: 'declined', detail: (error as Error).message };
  if (error instanceof HopTimeoutError) return { reason: 'error', detail: error.message };
  const code = (error as { code?: unknown }).code;
  const message = error instanceof Error ? error.message : String(error);
  return { reason: 'error', detail: typeof code === 'string' && !message.includes(code) ? `${code}: ${message}` : message };
}

/** Options without the keys explicitly set to undefined, so they do not erase the defaults. */
function definedOnly<T extends object>(options: T): Partial<T> {
  return Object.fromEntries(Object.entries(options).filter(([, value]) => value !== undefined)) as Partial<T>;
}
