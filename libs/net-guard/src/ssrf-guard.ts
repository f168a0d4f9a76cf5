import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import type { Readable } from 'node:stream';
import { Agent, request, type Dispatcher } from 'undici';
import { isIpLiteral, isPublicAddress } from './address-policy';

/** Why a URL was refused; no connection was attempted for any of them. */
export type SsrfRefusal = 'invalid-url' | 'scheme' | 'credentials' | 'port' | 'hostname' | 'address' | 'too-many-redirects';

export class SsrfRefusedError extends Error {
  constructor(
    readonly reason: SsrfRefusal,
    readonly url: string,
    /** Why, in a sentence without the URL (for messages shown to users). */
    readonly detail: string,
  ) {
    super(`Refused ${url}: ${detail}`);
    this.name = 'SsrfRefusedError';
  }
}

/** `dns.lookup(hostname, { all: true })` shaped resolver; tests inject their own answers. */
export type HostResolver = (hostname: string) => Promise<readonly LookupAddress[]>;

export interface SsrfGuardOptions {
  /** Ports a URL may name; default 80 and 443. Addresses in `allowedAddresses` may use any port. */
  allowedPorts?: readonly number[];
  /**
   * Exact IP addresses allowed although not public. For tests with loopback servers only; production
   * code passes none.
   */
  allowedAddresses?: readonly string[];
  /** Resolves host names; default the system resolver (`dns.lookup`, all addresses). */
  resolve?: HostResolver;
  /** Redirects followed, each re-checked from scratch; default 5. */
  maxRedirects?: number;
  /** TCP/TLS connect timeout; default 2 s. */
  connectTimeoutMs?: number;
}

export interface GuardedResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** The URL that answered, after redirects. */
  url: string;
}

/** A final answer whose body the caller reads (or destroys); see `SsrfGuard.open`. */
export interface GuardedStream extends GuardedResponse {
  body: Readable;
}

export interface GuardedRequestOptions {
  method?: 'HEAD' | 'GET' | 'POST';
  /** The request body (POST: webhook deliveries). */
  body?: string;
  /**
   * false: a 3xx is the final answer, its Location never requested (webhook deliveries must not be
   * steered elsewhere). Default true: redirects are followed, each hop checked again.
   */
  followRedirects?: boolean;
  /** Aborts every hop and the final body; the request rejects with the signal's reason. */
  signal?: AbortSignal;
  headers?: Record<string, string>;
  /** Redirects followed by this request; default the guard's `maxRedirects`. */
  maxRedirects?: number;
  /** Each hop must deliver its status and headers within this time, else it rejects with HopTimeoutError. */
  hopTimeoutMs?: number;
  /**
   * Awaited before each hop is sent, with the hop's (already checked) URL; the function it returns is
   * called once that hop's headers arrived or it failed. Per-host concurrency limits hook in here.
   */
  beforeHop?: (url: URL, signal: AbortSignal | undefined) => Promise<() => void>;
}

/** One hop did not answer within `hopTimeoutMs`. */
export class HopTimeoutError extends Error {
  constructor(
    readonly url: string,
    readonly timeoutMs: number,
  ) {
    super(`${url} did not answer within ${timeoutMs} ms`);
    this.name = 'HopTimeoutError';
  }
}

const systemResolver: HostResolver = (hostname) =>
  new Promise((resolve, reject) => {
    dnsLookup(hostname, { all: true, verbatim: true }, (error, addresses) => (error ? reject(error) : resolve(addresses)));
  });

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * Server-side HTTP through an SSRF guard (docs/net-guard.md). Every URL is checked before
 * anything is sent: http(s) only, no credentials, allowed ports, no single-label or `localhost` names,
 * IP literals must be public. Names are resolved at connect time by the guard's own lookup, which refuses
 * the connection when any answer is not public, and the socket connects to exactly the checked answer,
 * so DNS rebinding has no window. Redirects are followed by hand and each hop is checked again.
 */
export class SsrfGuard {
  readonly dispatcher: Dispatcher;
  private readonly allowedPorts: ReadonlySet<number>;
  private readonly allowedAddresses: ReadonlySet<string>;
  private readonly resolve: HostResolver;
  private readonly maxRedirects: number;

  constructor(options: SsrfGuardOptions = {}) {
    this.allowedPorts = new Set(options.allowedPorts ?? [80, 443]);
    this.allowedAddresses = new Set((options.allowedAddresses ?? []).map(normalizeAddress));
    this.resolve = options.resolve ?? systemResolver;
    this.maxRedirects = options.maxRedirects ?? 5;
    this.dispatcher = new Agent({
      connect: {
        timeout: options.connectTimeoutMs ?? 2000,
        lookup: (hostname: string, lookupOptions: { all?: boolean }, callback: LookupCallback) => this.lookup(hostname, lookupOptions, callback),
      },
      // One short request per URL: no connection is worth keeping.
      keepAliveTimeout: 1,
      keepAliveMaxTimeout: 1,
    });
  }

  /** Whether an address may be connected to. */
  addressAllowed(address: string): boolean {
    return isPublicAddress(address) || this.allowedAddresses.has(normalizeAddress(address));
  }

  /** Checks a URL without connecting; throws SsrfRefusedError, returns the parsed URL. */
  check(raw: string | URL): URL {
    let url: URL;
    try {
      url = new URL(String(raw));
    } catch {
      throw new SsrfRefusedError('invalid-url', String(raw), 'not a URL');
    }
    const text = url.href;
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new SsrfRefusedError('scheme', text, `${url.protocol} is not http(s)`);
    if (url.username || url.password) throw new SsrfRefusedError('credentials', text, 'URLs with credentials are not fetched');
    // WHATWG URL has already normalized 2130706433, 0x7f.1 and [::ffff:7f00:1] to canonical addresses.
    const host = url.hostname;
    const literal = isIpLiteral(host);
    if (literal && !this.addressAllowed(host)) throw new SsrfRefusedError('address', text, `${host} is not a public address`);
    if (!literal) {
      const name = host.replace(/\.$/, '').toLowerCase();
      if (!name.includes('.') || name === 'localhost' || name.endsWith('.localhost')) {
        throw new SsrfRefusedError('hostname', text, `${host} is not a public host name`);
      }
    }
    const port = url.port === '' ? (url.protocol === 'https:' ? 443 : 80) : Number(url.port);
    if (!this.allowedPorts.has(port) && !(literal && this.allowedAddresses.has(normalizeAddress(host)))) {
      throw new SsrfRefusedError('port', text, `port ${port} is not allowed`);
    }
    return url;
  }

  /**
   * One request through the guard, following redirects (each hop checked). The body is discarded:
   * callers read status and headers only (HEAD, or GET where a server refuses HEAD).
   */
  async request(raw: string, options: GuardedRequestOptions = {}): Promise<GuardedResponse> {
    const { body, ...response } = await this.open(raw, options);
    discard(body);
    return response;
  }

  /**
   * Like `request`, but the final answer's body is handed to the caller, who must read or destroy it
   * (URL import). Bodies of redirect answers are destroyed unread.
   */
  async open(raw: string, options: GuardedRequestOptions = {}): Promise<GuardedStream> {
    const maxRedirects = options.maxRedirects ?? this.maxRedirects;
    let url = this.check(raw);
    for (let hop = 0; ; hop++) {
      const response = await this.hop(url, options);
      const location = response.headers.location;
      if (options.followRedirects !== false && response.statusCode >= 300 && response.statusCode < 400 && typeof location === 'string') {
        // Never read a redirect's body: a hostile server could stream forever.
        discard(response.body);
        if (hop >= maxRedirects) throw new SsrfRefusedError('too-many-redirects', url.href, `more than ${maxRedirects} redirects`);
        url = this.check(new URL(location, url));
        continue;
      }
      return { status: response.statusCode, headers: response.headers, url: url.href, body: response.body };
    }
  }

  /** One hop: the caller's hook, its own timer for the headers, the caller's signal passed on to the body. */
  private async hop(url: URL, options: GuardedRequestOptions): Promise<Dispatcher.ResponseData> {
    const release = options.beforeHop ? await options.beforeHop(url, options.signal) : () => undefined;
    const outer = options.signal;
    const controller = new AbortController();
    const forward = (): void => controller.abort(outer?.reason);
    if (outer?.aborted) forward();
    else outer?.addEventListener('abort', forward, { once: true });
    const timer =
      options.hopTimeoutMs === undefined
        ? undefined
        : setTimeout(() => controller.abort(new HopTimeoutError(url.href, options.hopTimeoutMs as number)), options.hopTimeoutMs);
    const detach = (): void => outer?.removeEventListener('abort', forward);
    try {
      const response = await request(url, {
        method: options.method ?? 'HEAD',
        body: options.body,
        dispatcher: this.dispatcher,
        signal: controller.signal,
        headers: { 'user-agent': 'Mailproof/1 (+link and image checks)', ...options.headers },
      });
      // A late abort must not surface as an unhandled error; the caller's signal stays attached until the body closes.
      response.body.on('error', () => undefined);
      response.body.once('close', detach);
      return response;
    } catch (error) {
      detach();
      throw error;
    } finally {
      clearTimeout(timer);
      release();
    }
  }

  async close(): Promise<void> {
    await this.dispatcher.close();
  }

  private lookup(hostname: string, options: { all?: boolean }, callback: LookupCallback): void {
    this.resolve(hostname).then(
      (addresses) => {
        const refused = addresses.find((answer) => !this.addressAllowed(answer.address));
        if (addresses.length === 0 || refused) {
          const error = new SsrfRefusedError(
            'address',
            hostname,
            `${hostname} resolves to ${refused?.address ?? 'nothing'}, which is not a public address`,
          ) as SsrfRefusedError & NodeJS.ErrnoException;
          error.code = 'ESSRFREFUSED';
          callback(error, []);
          return;
        }
        if (options.all) callback(null, [...addresses]);
        else callback(null, addresses[0].address, addresses[0].family);
      },
      (error: NodeJS.ErrnoException) => callback(error, []),
    );
  }
}

function discard(body: Readable): void {
  body.on('error', () => undefined);
  body.destroy();
}

function normalizeAddress(address: string): string {
  return address.replace(/^\[|\]$/g, '').toLowerCase();
}
