import type { IncomingMessage, ServerResponse } from 'node:http';
import { SsrfGuard } from './ssrf-guard';
import { eventually, startLoopbackServer, type LoopbackServer } from './testing/loopback-server';
import { NAMES_RESOLVING_PRIVATE, PRIVATE_TARGETS, REDIRECT_TARGETS, REFUSED_BEFORE_CONNECTING, testResolver } from './testing/ssrf-vectors';
import { importEmailFromUrl, UrlDeclinedError, UrlUnreachableError, type ImportEmailOptions } from './url-import';

/**
 * The gate's URL import against real HTTP servers: "the internet" on 127.0.0.2 (allow-listed on the guard
 * for these tests only) and a canary on 127.0.0.1 that must never receive a request.
 */
describe('importEmailFromUrl', () => {
  let site: LoopbackServer;
  let canary: LoopbackServer;
  let guard: SsrfGuard;

  const handler = (request: IncomingMessage, response: ServerResponse): void => {
    const url = new URL(request.url ?? '/', 'http://x');
    switch (url.pathname) {
      case '/email':
        return void response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end('<p>Grüße, 20 €</p>');
      case '/latin1':
        return void response
          .writeHead(200, { 'content-type': 'text/html; charset="ISO-8859-1"' })
          .end(Buffer.from('<p>Gr\u00fc\u00dfe \u00e9t\u00e9</p>', 'latin1'));
      case '/shift-jis':
        return void response.writeHead(200, { 'content-type': 'text/html; charset=shift_jis' }).end('<p>Grüße</p>');
      case '/xhtml':
        return void response
          .writeHead(200, { 'content-type': 'application/xhtml+xml' })
          .end('<html xmlns="http://www.w3.org/1999/xhtml"><body>x</body></html>');
      case '/redirect':
        return void response.writeHead(302, { location: url.searchParams.get('to') ?? '/' }).end();
      case '/chain': {
        const left = Number(url.searchParams.get('n'));
        if (left <= 0) return void response.writeHead(200, { 'content-type': 'text/html' }).end('<p>end of chain</p>');
        return void response.writeHead(301, { location: `/chain?n=${left - 1}` }).end();
      }
      case '/big': {
        // 600 KB in 6 KB chunks 5 ms apart, no Content-Length: only counting while reading can stop it,
        // and the server sees the connection closed long before its last chunk.
        response.writeHead(200, { 'content-type': 'text/html' });
        let sent = 0;
        const timer = setInterval(() => {
          sent++;
          if (sent < 100) response.write(Buffer.alloc(6000, 97));
          else response.end(Buffer.alloc(6000, 97));
        }, 5);
        response.once('close', () => clearInterval(timer));
        return;
      }
      case '/big-declared':
        return void response.writeHead(200, { 'content-type': 'text/html', 'content-length': '600000' }).end(Buffer.alloc(600_000, 97));
      case '/slow':
        return void setTimeout(() => !response.destroyed && response.writeHead(200, { 'content-type': 'text/html' }).end('<p>late</p>'), 6000);
      case '/trickle': {
        response.writeHead(200, { 'content-type': 'text/html' });
        const timer = setInterval(() => response.write('<p>'), 50);
        response.once('close', () => clearInterval(timer));
        return;
      }
      case '/image':
        return void response.writeHead(200, { 'content-type': 'image/png' }).end('png');
      case '/no-type':
        return void response.writeHead(200).end('<p>x</p>');
      case '/empty':
        return void response.writeHead(200, { 'content-type': 'text/html' }).end();
      case '/500':
        return void response.writeHead(500, { 'content-type': 'text/html' }).end('<p>oops</p>');
      default:
        return void response.writeHead(404, { 'content-type': 'text/html' }).end('<p>not found</p>');
    }
  };

  beforeAll(async () => {
    canary = await startLoopbackServer('127.0.0.1', (_request, response) => response.end('canary'));
    site = await startLoopbackServer('127.0.0.2', handler);
  });
  afterAll(async () => {
    await Promise.all([site.close(), canary.close()]);
  });
  beforeEach(() => {
    site.reset();
    guard = new SsrfGuard({ allowedAddresses: ['127.0.0.2'], allowedPorts: [80, 443, canary.port], resolve: testResolver, connectTimeoutMs: 1000 });
  });
  afterEach(async () => {
    await guard.close();
    // The point of every test: the canary never saw a request.
    expect(canary.hits).toEqual([]);
  });

  const importing = (url: string, options: Partial<ImportEmailOptions> = {}) => importEmailFromUrl(url, { guard, ...options });
  const failure = async (url: string, options: Partial<ImportEmailOptions> = {}): Promise<Error> => {
    try {
      await importing(url, options);
    } catch (error) {
      return error as Error;
    }
    throw new Error(`${url} was imported`);
  };

  it('imports a normal page, decoded as utf-8', async () => {
    await expect(importing(`${site.base}/email`)).resolves.toEqual({
      html: '<p>Grüße, 20 €</p>',
      finalUrl: `${site.base}/email`,
      contentType: 'text/html',
      charset: 'utf-8',
      bytes: 22,
    });
  });

  it('honors a latin1 charset, reads anything else as utf-8, and accepts XHTML', async () => {
    await expect(importing(`${site.base}/latin1`)).resolves.toMatchObject({ html: '<p>Grüße été</p>', charset: 'windows-1252', bytes: 16 });
    await expect(importing(`${site.base}/shift-jis`)).resolves.toMatchObject({ html: '<p>Grüße</p>', charset: 'utf-8' });
    await expect(importing(`${site.base}/xhtml`)).resolves.toMatchObject({ contentType: 'application/xhtml+xml' });
  });

  describe('declines every SSRF vector of the guard suite, without a request to it', () => {
    it.each([...REFUSED_BEFORE_CONNECTING, ...PRIVATE_TARGETS, ...NAMES_RESOLVING_PRIVATE])('%s', async (_name, url) => {
      const error = await failure(url(canary.port));
      expect(error).toBeInstanceOf(UrlDeclinedError);
      expect(error).toMatchObject({ code: 'url_declined', reason: expect.stringMatching(/\w/) });
    });

    it.each(REDIRECT_TARGETS)('a redirect to %s', async (_name, target) => {
      const start = `${site.base}/redirect?to=${encodeURIComponent(target(canary.port))}`;
      const error = await failure(start);
      expect(error).toBeInstanceOf(UrlDeclinedError);
      expect((error as UrlDeclinedError).reason).toMatch(/^The page redirects to http:\/\/.+ only public addresses are fetched\.$/);
      expect(site.hits).toEqual([`GET /redirect?to=${encodeURIComponent(target(canary.port))}`]);
    });
  });

  it.each([
    ['a file: URL', 'file:///etc/passwd', 'Only http and https URLs are imported.'],
    ['credentials', 'http://user:pass@example.com/', 'URLs with a user name or password are not fetched.'],
    ['a private address', 'http://10.0.0.1/', '10.0.0.1 is not a public address; only public addresses are fetched.'],
    ['another port', 'http://example.com:8080/', 'Port 8080 is not allowed: only ports 80 and 443 are fetched.'],
    [
      'a name resolving to the metadata address',
      'http://metadata.example.test/',
      'Metadata.example.test resolves to 169.254.169.254, which is not a public address; only public addresses are fetched.',
    ],
    ['not a URL', 'view in browser', 'This is not a valid URL.'],
  ])('says why it declines %s', async (_name, url, reason) => {
    await expect(failure(url)).resolves.toMatchObject({ code: 'url_declined', reason });
  });

  it('follows 3 redirects, each re-checked, and refuses a 4th as unreachable', async () => {
    await expect(importing(`${site.base}/chain?n=3`)).resolves.toMatchObject({ html: '<p>end of chain</p>', finalUrl: `${site.base}/chain?n=0` });
    const error = await failure(`${site.base}/chain?n=4`);
    expect(error).toBeInstanceOf(UrlUnreachableError);
    expect(error).toMatchObject({ code: 'url_unreachable', reason: 'The page redirects more than 3 times.' });
  });

  it('refuses a 600 KB page, cutting the stream at the limit instead of truncating', async () => {
    const error = await failure(`${site.base}/big`);
    expect(error).toBeInstanceOf(UrlUnreachableError);
    expect(error).toMatchObject({ reason: 'The page is larger than 500,000 bytes, the most an import reads.' });
    await eventually(() => site.abandoned.includes('GET /big'));
    // A declared Content-Length over the limit is refused before reading.
    await expect(failure(`${site.base}/big-declared`)).resolves.toMatchObject({ reason: 'The page is larger than 500,000 bytes, the most an import reads.' });
  });

  // 5 s is the default limit; the jest timeout proves the import gives up on time.
  it('gives up on a server that takes 6 s to answer after 5 s', async () => {
    const error = await failure(`${site.base}/slow`);
    expect(error).toBeInstanceOf(UrlUnreachableError);
    expect(error).toMatchObject({ reason: 'The page did not arrive completely within 5 s.' });
  }, 6500);

  it('counts the body against the time limit: a page that trickles forever is cut', async () => {
    await expect(failure(`${site.base}/trickle`, { timeoutMs: 300 })).resolves.toMatchObject({
      code: 'url_unreachable',
      reason: 'The page did not arrive completely within 0.3 s.',
    });
    await eventually(() => site.abandoned.includes('GET /trickle'));
  }, 2000);

  it.each([
    ['an image', '/image', 'The page is image/png, not HTML; only text/html is imported.'],
    ['no Content-Type', '/no-type', 'The page was sent without a Content-Type; only text/html is imported.'],
    ['a 404', '/missing', 'The page answered with HTTP status 404; only a 2xx answer is imported.'],
    ['a 500', '/500', 'The page answered with HTTP status 500; only a 2xx answer is imported.'],
    ['an empty page', '/empty', 'The page is empty.'],
  ])('refuses %s as unreachable', async (_name, path, reason) => {
    const error = await failure(`${site.base}${path}`);
    expect(error).toBeInstanceOf(UrlUnreachableError);
    expect(error).toMatchObject({ code: 'url_unreachable', reason });
  });

  it('names the redirect target when the page behind a redirect fails, and reports a closed port', async () => {
    await expect(failure(`${site.base}/redirect?to=/missing`)).resolves.toMatchObject({
      reason: `The page answered with HTTP status 404 (after redirecting to ${site.base}/missing); only a 2xx answer is imported.`,
    });
    const closed = await startLoopbackServer('127.0.0.2', () => undefined);
    await closed.close();
    await expect(failure(`http://127.0.0.2:${closed.port}/`)).resolves.toMatchObject({ code: 'url_unreachable', reason: 'The server refused the connection.' });
  });
});
