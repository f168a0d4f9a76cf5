import type { IncomingMessage, ServerResponse } from 'node:http';
import { resolveLinks, normalizeLinkUrl, type CachedLinkOutcome, type LinkCheckCache, type ResolveLinksOptions } from './link-resolution';
import { SsrfGuard } from './ssrf-guard';
import { eventually, startLoopbackServer, type LoopbackServer } from './testing/loopback-server';
import { testResolver } from './testing/ssrf-vectors';

/**
 * The gate's link resolution against real HTTP servers on loopback: "the internet" on 127.0.0.2 and
 * 127.0.0.3 (allow-listed on the guard for these tests only) and a canary on 127.0.0.1 that must never
 * receive a request.
 */
describe('resolveLinks', () => {
  let site: LoopbackServer;
  let other: LoopbackServer;
  let canary: LoopbackServer;
  let guard: SsrfGuard;

  const handler = (request: IncomingMessage, response: ServerResponse): void => {
    const url = new URL(request.url ?? '/', 'http://x');
    const head = request.method === 'HEAD';
    switch (url.pathname) {
      case '/ok':
      case '/dup':
        return void response.writeHead(200, { 'content-type': 'text/html' }).end(head ? undefined : '<p>ok</p>');
      case '/no-head':
        return void response.writeHead(head ? 405 : 200).end();
      case '/no-head-501':
        return void response.writeHead(head ? 501 : 200).end();
      case '/head-reset':
        if (head) return void request.socket.destroy();
        return void response.writeHead(200).end();
      case '/404':
        return void response.writeHead(404).end();
      case '/500':
        return void response.writeHead(500).end();
      case '/slow':
        return; // never answers
      case '/stream-forever': {
        if (head) return void response.writeHead(405).end();
        response.writeHead(200, { 'content-type': 'application/octet-stream' });
        const chunk = Buffer.alloc(64 * 1024, 120);
        const timer = setInterval(() => response.write(chunk), 5);
        response.once('close', () => clearInterval(timer));
        return;
      }
      case '/redirect':
        return void response.writeHead(302, { location: url.searchParams.get('to') ?? '/' }).end();
      case '/chain': {
        const left = Number(url.searchParams.get('n'));
        if (left <= 0) return void response.writeHead(200).end();
        return void response.writeHead(301, { location: `/chain?n=${left - 1}` }).end();
      }
      case '/busy':
        return void setTimeout(() => response.writeHead(200).end(), 60);
      default:
        return void response.writeHead(404).end();
    }
  };

  beforeAll(async () => {
    canary = await startLoopbackServer('127.0.0.1', (_request, response) => response.end('canary'));
    site = await startLoopbackServer('127.0.0.2', handler);
    other = await startLoopbackServer('127.0.0.3', handler);
  });
  afterAll(async () => {
    await Promise.all([site.close(), other.close(), canary.close()]);
  });
  beforeEach(() => {
    site.reset();
    other.reset();
    guard = new SsrfGuard({
      allowedAddresses: ['127.0.0.2', '127.0.0.3'],
      allowedPorts: [80, 443, canary.port],
      resolve: testResolver,
      connectTimeoutMs: 1000,
    });
  });
  afterEach(async () => {
    await guard.close();
    // The point of every test: the canary never saw a request.
    expect(canary.hits).toEqual([]);
  });

  const run = (urls: string[], options: Partial<ResolveLinksOptions> = {}) => resolveLinks(urls, { guard, ...options });

  it('asks again with GET when HEAD is rejected (405, 501, or the connection reset), and never otherwise', async () => {
    const urls = [`${site.base}/no-head`, `${site.base}/no-head-501`, `${site.base}/head-reset`, `${site.base}/ok`];
    const result = await run(urls);
    expect(result.unchecked).toEqual([]);
    expect(result.checked).toEqual(urls.map((url) => ({ url, status: 200 })));
    for (const path of ['/no-head', '/no-head-501', '/head-reset'])
      expect(site.hits.filter((hit) => hit.endsWith(` ${path}`))).toEqual([`HEAD ${path}`, `GET ${path}`]);
    expect(site.hits.filter((hit) => hit.endsWith(' /ok'))).toEqual(['HEAD /ok']);
  });

  it('reports 404 and 500 as checked with their status (the gate fails on them)', async () => {
    const result = await run([`${site.base}/404`, `${site.base}/500`]);
    expect(result).toEqual({
      checked: [
        { url: `${site.base}/404`, status: 404 },
        { url: `${site.base}/500`, status: 500 },
      ],
      unchecked: [],
    });
    expect(site.hits).toEqual(['HEAD /404', 'HEAD /500']);
  });

  // The jest timeout (2 s for a 400 ms budget) is the proof that the call returns on time.
  it('reports what a slow server has not answered when the budget ends as budget, and returns on time', async () => {
    const slow = [0, 1, 2, 3].map((i) => `${site.base}/slow?i=${i}`);
    const result = await run([`${other.base}/ok`, ...slow], { budgetMs: 400 });
    expect(result.checked).toEqual([{ url: `${other.base}/ok`, status: 200 }]);
    expect(result.unchecked).toEqual(slow.map((url) => ({ url, reason: 'budget', detail: 'the 400 ms budget was spent' })));
    // Two of the four were in flight (per-host limit), the others were still queued: all end as budget.
    expect(site.hits).toHaveLength(2);
  }, 2000);

  it('ends a request that does not answer within requestTimeoutMs as error, within a larger budget', async () => {
    const result = await run([`${site.base}/slow`], { requestTimeoutMs: 200, budgetMs: 5000 });
    expect(result.unchecked).toEqual([{ url: `${site.base}/slow`, reason: 'error', detail: expect.stringMatching(/did not answer within 200 ms/) }]);
  }, 2000);

  it('checks at most 25 distinct URLs; the extras are reported as cap and never requested', async () => {
    const urls = Array.from({ length: 30 }, (_, i) => `${site.base}/ok?i=${i}`);
    const result = await run(urls, { perHostConcurrency: 8 });
    expect(result.checked.map((check) => check.url)).toEqual(urls.slice(0, 25));
    expect(result.unchecked).toEqual(urls.slice(25).map((url) => ({ url, reason: 'cap', detail: 'at most 25 distinct URLs are checked' })));
    expect(site.hits).toHaveLength(25);
    expect((await run(urls.slice(0, 5), { maxUrls: 2 })).unchecked.map((link) => link.reason)).toEqual(['cap', 'cap', 'cap']);
  });

  it('declines private addresses, names resolving to them, redirects into them and non-http(s) URLs without requesting them', async () => {
    const declined = [
      `http://127.0.0.1:${canary.port}/`,
      `http://localhost:${canary.port}/`,
      `http://[::1]:${canary.port}/`,
      'http://10.0.0.1/',
      'http://169.254.169.254/latest/meta-data/',
      `http://rebind.example.test:${canary.port}/`,
      'http://metadata.example.test/',
      `http://user:pass@127.0.0.2:${site.port}/ok`,
      `${site.base}/redirect?to=${encodeURIComponent(`http://127.0.0.1:${canary.port}/`)}`,
      `${site.base}/redirect?to=${encodeURIComponent(`http://rebind.example.test:${canary.port}/`)}`,
      'ftp://example.com/file',
      'javascript:alert(1)',
      'not a url',
    ];
    const result = await run(declined);
    expect(result.checked).toEqual([]);
    expect(result.unchecked).toEqual(declined.map((url) => ({ url, reason: 'declined', detail: expect.stringMatching(/^Refused /) })));
    expect(site.hits).toEqual([
      `HEAD /redirect?to=${encodeURIComponent(`http://127.0.0.1:${canary.port}/`)}`,
      `HEAD /redirect?to=${encodeURIComponent(`http://rebind.example.test:${canary.port}/`)}`,
    ]);
  });

  it('never reads a body: a server streaming forever after refusing HEAD sees its socket closed, and the call completes', async () => {
    const result = await run([`${site.base}/stream-forever`]);
    expect(result).toEqual({ checked: [{ url: `${site.base}/stream-forever`, status: 200 }], unchecked: [] });
    expect(site.hits).toEqual(['HEAD /stream-forever', 'GET /stream-forever']);
    await eventually(() => site.abandoned.includes('GET /stream-forever'));
  }, 5000);

  it('fetches duplicates once (scheme and host case, fragments) and reports them once, as first written', async () => {
    const first = `${site.base}/dup#top`;
    const result = await run([first, `HTTP://127.0.0.2:${site.port}/dup`, `${site.base}/dup#footer`, ` ${site.base}/dup `]);
    expect(result).toEqual({ checked: [{ url: first, status: 200 }], unchecked: [] });
    expect(site.hits).toEqual(['HEAD /dup']);
    expect(normalizeLinkUrl(`HTTP://EXAMPLE.com:80/a#b`)).toBe('http://example.com/a');
  });

  it('keeps at most perHostConcurrency requests in flight per host while other hosts proceed', async () => {
    const urls = [site, other].flatMap((server) => Array.from({ length: 8 }, (_, i) => `${server.base}/busy?i=${i}`));
    const result = await run(urls, { perHostConcurrency: 2, concurrency: 8 });
    expect(result.checked).toHaveLength(16);
    expect(site.maxInFlight).toBe(2);
    expect(other.maxInFlight).toBe(2);

    site.reset();
    await run(urls.slice(0, 8), { perHostConcurrency: 3 });
    expect(site.maxInFlight).toBe(3);
  });

  it('follows redirect chains of 5 hops (tracking redirectors too) and ends a 6th hop as error', async () => {
    const tracked = `${other.base}/redirect?to=${encodeURIComponent(`${site.base}/404`)}`;
    const result = await run([`${site.base}/chain?n=5`, `${site.base}/chain?n=6`, tracked]);
    expect(result.checked).toEqual([
      { url: `${site.base}/chain?n=5`, status: 200, finalUrl: `${site.base}/chain?n=0` },
      { url: tracked, status: 404, finalUrl: `${site.base}/404` },
    ]);
    expect(result.unchecked).toEqual([{ url: `${site.base}/chain?n=6`, reason: 'error', detail: 'more than 5 redirects' }]);
  });

  it('reports an unreachable server as error', async () => {
    const closed = await startLoopbackServer('127.0.0.2', () => undefined);
    await closed.close();
    const result = await run([`http://127.0.0.2:${closed.port}/`]);
    expect(result.unchecked).toEqual([{ url: `http://127.0.0.2:${closed.port}/`, reason: 'error', detail: expect.stringMatching(/ECONNREFUSED/) }]);
  });

  describe('with a cache', () => {
    const memory = (): LinkCheckCache & { store: Map<string, CachedLinkOutcome> } => {
      const store = new Map<string, CachedLinkOutcome>();
      return { store, get: async (url) => store.get(url), set: async (url, check) => void store.set(url, check) };
    };

    it('serves hits without a request and stores only checked results, under the normalized URL', async () => {
      const cache = memory();
      cache.store.set(`${site.base}/cached`, { status: 410 });
      const result = await run([`${site.base}/cached#x`, `${site.base}/ok`, 'http://10.0.0.1/'], { cache });
      expect(result.checked).toEqual([
        { url: `${site.base}/cached#x`, status: 410 },
        { url: `${site.base}/ok`, status: 200 },
      ]);
      expect(site.hits).toEqual(['HEAD /ok']);
      await eventually(() => cache.store.has(`${site.base}/ok`));
      expect(cache.store.get(`${site.base}/ok`)).toEqual({ status: 200 });
      expect([...cache.store.keys()]).toHaveLength(2);
    });

    it('keeps only the status of a redirected link: neither its URL nor where it ended, and a hit reports no final URL', async () => {
      const cache = memory();
      const redirected = `${site.base}/chain?n=2`;
      const first = await run([redirected], { cache });
      expect(first.checked).toEqual([{ url: redirected, status: 200, finalUrl: `${site.base}/chain?n=0` }]);
      await eventually(() => cache.store.has(redirected));
      expect(cache.store.get(redirected)).toEqual({ status: 200 });
      const again = await run([redirected], { cache });
      expect(again.checked).toEqual([{ url: redirected, status: 200 }]);
    });

    it('ignores a cache that throws, rejects, hangs or answers garbage', async () => {
      const urls = [`${site.base}/ok?a`, `${site.base}/ok?b`, `${site.base}/ok?c`, `${site.base}/ok?d`];
      const answers: Array<() => Promise<CachedLinkOutcome | undefined>> = [
        () => {
          throw new Error('sync');
        },
        () => Promise.reject(new Error('down')),
        () => new Promise(() => undefined),
        async () => ({ nonsense: true }) as unknown as CachedLinkOutcome,
      ];
      let call = 0;
      const cache: LinkCheckCache = { get: () => answers[call++ % answers.length](), set: () => Promise.reject(new Error('down')) };
      const result = await run(urls, { cache, cacheTimeoutMs: 100 });
      expect(result.checked.map((check) => check.status)).toEqual([200, 200, 200, 200]);
      expect(site.hits).toHaveLength(4);
    }, 3000);
  });
});
