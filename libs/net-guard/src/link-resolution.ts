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

/** Where checked results may be kept for a while (the worker's Redis). Failures and slowness are ignored. */
export interface LinkCheckCache {
  get(url: string): Promise<LinkCheck | undefined>;
  set(url: string, check: LinkCheck): Promise<void>;
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
  /** Results of earlier runs, keyed by the normalised URL; only checked results are stored. */
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
 * The key duplicates share: the WHATWG serialisation (scheme and host lower-cased, default port and dot
 * segments removed) without the fragment, which never reaches the server. Unparsable input stays as
 * trimmed.
 */
export function normaliseLinkUrl(raw: string): string {
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

function validCached(value: unknown): value is LinkCheck {
  const check = value as LinkCheck | undefined;
  return typeof check === 'object' && check !== null && Number.isInteger(check.status) && check.status >= 100 && check.status <= 599;
}

/**
 * Checks that links resolve, for the gate's `resolveLinks`: at most 25 distinct URLs, within the budget; a link
 * that could not be checked is reported unchecked, never broken.
 * Every request goes through the SSRF guard: HEAD first, GET only when the server rejects HEAD, bodies never
 * read, redirects followed by hand and re-checked at every hop. Duplicates (after `normaliseLinkUrl`) are
 * fetched once and reported once, under the URL as first given. Never throws, and returns when the budget
 * ends at the latest, whatever the servers, the DNS or the cache do.
 */
export async function resolveLinks(urls: readonly string[], options: ResolveLinksOptions): Promise<LinkResolution> {
  const settings = { ...LINK_RESOLUTION_DEFAULTS, ...definedOnly(options) };
  const { guard, cache } = options;
  const distinct = new Map<string, string>(); // normalised -> as first given
  for (const raw of urls) {
    const key = normaliseLinkUrl(raw);
    if (!distinct.has(key)) distinct.set(key, raw.trim());
  }
  const entries = [...distinct.entries()].map(([key, url]) => ({ key, url }));
  const inScope = entries.slice(0, Math.max(0, settings.maxUrls));
  const outcomes = new Map<string, Outcome>();
  for (const { key } of entries.slice(inScope.length)) outcomes.set(key, { reason: 'cap', detail: `at most ${settings.maxUrls} distinct URLs are checked` });

  const budget = new AbortController();
  // Every hop in flight and every wait for a host slot listens to it: up to two per URL.
  setMaxListeners(2 * inScope.length + 10, budget.signal);
  const spent = new BudgetSpent(settings.budgetMs);
  let finish: () => void = () => undefined;
  const finished = new Promise<void>((resolve) => (finish = resolve));
  const end = (): void => {
    budget.abort(spent);
    finish();
  };
  const timer = setTimeout(end, settings.budgetMs);
  const external = options.signal;
  if (external?.aborted) end();
  else external?.addEventListener('abort', end, { once: true });
  const record = (key: string, outcome: Outcome): void => {
    if (!budget.signal.aborted) outcomes.set(key, outcome);
  };

  try {
    // Declined before any request: not http(s), credentials, ports, host names, non-public literals.
    const pending: Array<{ key: string; url: string; host: string }> = [];
    for (const entry of inScope) {
      try {
        const parsed = guard.check(entry.url);
        pending.push({ ...entry, host: parsed.hostname.toLowerCase() });
      } catch (error) {
        record(entry.key, classify(error, budget.signal, settings.maxRedirects));
      }
    }
    if (cache && pending.length > 0) {
      const hits = await Promise.race([
        Promise.all(pending.map((entry) => withTimer(Promise.resolve().then(() => cache.get(entry.key)), settings.cacheTimeoutMs))),
        finished.then(() => []),
      ]);
      hits.forEach((hit, index) => {
        if (validCached(hit)) record(pending[index].key, checkedOutcome(pending[index].key, hit.status, hit.finalUrl));
      });
    }
    const queue = pending.filter((entry) => !outcomes.has(entry.key));
    if (queue.length > 0 && !budget.signal.aborted) await Promise.race([runAll(queue), finished]);
  } finally {
    clearTimeout(timer);
    external?.removeEventListener('abort', end);
    if (!budget.signal.aborted) budget.abort(spent); // nothing may outlive the call
  }

  const result: LinkResolution = { checked: [], unchecked: [] };
  for (const { key, url } of entries) {
    const outcome = outcomes.get(key) ?? { reason: 'budget', detail: spent.message };
    if ('status' in outcome) result.checked.push({ url, ...outcome });
    else result.unchecked.push(outcome.detail === undefined ? { url, reason: outcome.reason } : { url, reason: outcome.reason, detail: outcome.detail });
  }
  return result;

  /** Starts URLs whose host has a free slot, `concurrency` at a time, until all are done. */
  function runAll(queue: Array<{ key: string; url: string; host: string }>): Promise<void> {
    return new Promise((resolve) => {
      let running = 0;
      const slots = new HostSlots(Math.max(1, settings.perHostConcurrency), () => pump());
      const pump = (): void => {
        if (budget.signal.aborted) return;
        while (running < Math.max(1, settings.concurrency)) {
          const index = queue.findIndex((entry) => slots.free(entry.host));
          if (index < 0) break;
          const [entry] = queue.splice(index, 1);
          running++;
          void checkOne(entry, slots, slots.take(entry.host)).then((outcome) => {
            record(entry.key, outcome);
            if ('status' in outcome && cache) {
              void Promise.resolve()
                .then(() => cache.set(entry.key, { url: entry.key, ...outcome }))
                .catch(() => undefined);
            }
            running--;
            if (running === 0 && queue.length === 0) resolve();
            else pump();
          });
        }
      };
      pump();
    });
  }

  /** HEAD then GET for one URL; the slot taken for its first hop is used by that hop, every later hop waits for its own. */
  async function checkOne(entry: { key: string }, slots: HostSlots, firstSlot: () => void): Promise<Outcome> {
    let reserved: (() => void) | undefined = firstSlot;
    try {
      const response = await headThenGet(guard, entry.key, {
        signal: budget.signal,
        maxRedirects: settings.maxRedirects,
        hopTimeoutMs: settings.requestTimeoutMs,
        beforeHop: async (url, signal) => {
          const slot = reserved;
          reserved = undefined;
          return slot ?? slots.acquire(url.hostname.toLowerCase(), signal ?? budget.signal);
        },
      });
      return checkedOutcome(entry.key, response.status, response.url);
    } catch (error) {
      return classify(error, budget.signal, settings.maxRedirects);
    } finally {
      reserved?.();
    }
  }
}

function checkedOutcome(key: string, status: number, finalUrl: unknown): Outcome {
  return typeof finalUrl === 'string' && finalUrl !== key ? { status, finalUrl } : { status };
}

function classify(error: unknown, budget: AbortSignal, maxRedirects: number): Outcome {
  if (error instanceof BudgetSpent || (budget.aborted && !(error instanceof SsrfRefusedError))) return { reason: 'budget', detail: (budget.reason as Error).message };
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
