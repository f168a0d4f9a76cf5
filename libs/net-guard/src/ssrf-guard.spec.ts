import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { isPublicAddress } from './address-policy';
import { headUrls } from './head-requests';
import { SsrfGuard, SsrfRefusedError, type HostResolver } from './ssrf-guard';
import { PRIVATE_TARGETS, REDIRECT_TARGETS, REFUSED_BEFORE_CONNECTING, TEST_DNS_ANSWERS } from './testing/ssrf-vectors';

/**
 * Hostile URLs are refused before any connection. Only loopback servers take part: a canary on 127.0.0.1
 * that must never receive a request, and an allow-listed "public" server on 127.0.0.2 (all of 127/8 is
 * loopback on Linux) standing in for the internet.
 */
interface TestServer {
  server: Server;
  port: number;
  hits: string[];
}

async function listen(host: string, handler: (request: IncomingMessage, response: ServerResponse) => void): Promise<TestServer> {
  const hits: string[] = [];
  const server = createServer((request, response) => {
    hits.push(`${request.method} ${request.url}`);
    handler(request, response);
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  return { server, port: (server.address() as AddressInfo).port, hits };
}

const close = (test: TestServer): Promise<void> => new Promise((resolve) => test.server.close(() => resolve()));

describe('isPublicAddress', () => {
  it.each([
    '127.0.0.1',
    '127.8.9.10',
    '10.0.0.1',
    '172.16.5.4',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '255.255.255.255',
    '224.0.0.1',
    '192.0.2.10',
    '198.18.0.1',
    '::1',
    '::',
    '::ffff:127.0.0.1',
    '::ffff:10.0.0.1',
    'fe80::1',
    'fd00:ec2::254',
    'fc00::1',
    'ff02::1',
    '2001:db8::1',
    '64:ff9b::7f00:1',
    '2002:7f00:1::1',
    '::127.0.0.1',
    'not-an-ip',
    '',
  ])('refuses %s', (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });

  it.each(['8.8.8.8', '1.1.1.1', '93.184.216.34', '2606:4700:4700::1111', '::ffff:8.8.8.8', '[2a00:1450:4001:80b::200e]'])('allows %s', (address) => {
    expect(isPublicAddress(address)).toBe(true);
  });
});

describe('SsrfGuard', () => {
  let canary: TestServer;
  let publicServer: TestServer;
  let guard: SsrfGuard;
  /** Resolves every name to what the test says; never asks real DNS. */
  const answers = new Map<string, string[]>();
  const resolve: HostResolver = async (hostname) =>
    (answers.get(hostname) ?? ['203.0.113.1']).map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));

  beforeAll(async () => {
    canary = await listen('127.0.0.1', (_request, response) => response.end('canary'));
    publicServer = await listen('127.0.0.2', (request, response) => {
      const redirect = /^\/redirect\?to=(.*)$/.exec(request.url ?? '');
      if (redirect) {
        response.writeHead(302, { location: decodeURIComponent(redirect[1]) }).end();
        return;
      }
      if (request.url === '/no-head' && request.method === 'HEAD') {
        response.writeHead(405).end();
        return;
      }
      if (request.url === '/slow') return; // never answers
      response.writeHead(200, { 'content-type': 'image/png', 'content-length': '4321' }).end(request.method === 'HEAD' ? undefined : 'x'.repeat(4321));
    });
  });

  afterAll(async () => {
    await close(canary);
    await close(publicServer);
  });

  beforeEach(() => {
    answers.clear();
    for (const [name, addresses] of Object.entries(TEST_DNS_ANSWERS)) answers.set(name, [...addresses]);
    guard = new SsrfGuard({ resolve, allowedAddresses: ['127.0.0.2'], allowedPorts: [80, 443, canary.port, publicServer.port], connectTimeoutMs: 1000 });
  });

  afterEach(async () => {
    await guard.close();
    // The point of every test: the canary never saw a request.
    expect(canary.hits).toEqual([]);
  });

  const refusal = async (url: string): Promise<SsrfRefusedError | Error> => {
    try {
      await guard.request(url);
    } catch (error) {
      return error as Error;
    }
    throw new Error(`${url} was not refused`);
  };

  it('reaches an allowed server and reports the final status and headers', async () => {
    const response = await guard.request(`http://127.0.0.2:${publicServer.port}/logo.png`);
    expect(response).toMatchObject({ status: 200, url: `http://127.0.0.2:${publicServer.port}/logo.png` });
    expect(response.headers['content-length']).toBe('4321');
  });

  it.each(REFUSED_BEFORE_CONNECTING)('refuses %s without connecting', async (_name, url) => {
    const error = await refusal(url(canary.port));
    expect(error).toBeInstanceOf(SsrfRefusedError);
  });

  it.each(PRIVATE_TARGETS)('refuses %s without dispatching anything', async (_name, url) => {
    // Never connect to a non-loopback target, not even to be refused: a dispatcher that fails the test if used.
    const spy = jest.spyOn(guard.dispatcher, 'dispatch').mockImplementation(() => {
      throw new Error('connection attempted');
    });
    const error = await refusal(url(0));
    expect(error).toBeInstanceOf(SsrfRefusedError);
    expect(error).toMatchObject({ reason: 'address' });
    expect(spy).not.toHaveBeenCalled();
  });

  it('refuses a public-looking name that resolves to the metadata address inside its own lookup, before any socket exists', async () => {
    const error = await refusal('http://metadata.example.test/');
    expect(error.message).toMatch(/169\.254\.169\.254.*not a public address/);
  });

  it('refuses a public-looking name that resolves to loopback, at connect time (DNS rebinding has no window)', async () => {
    const error = await refusal(`http://rebind.example.test:${canary.port}/`);
    expect(error.message).toMatch(/127\.0\.0\.1.*not a public address/);
  });

  it('refuses a name when any of its addresses is not public', async () => {
    const error = await refusal(`http://mixed.example.test:${canary.port}/`);
    expect(error.message).toMatch(/not a public address/);
  });

  it.each(REDIRECT_TARGETS)('re-checks redirects: an allowed server redirecting to %s is refused', async (_name, target) => {
    const start = `http://127.0.0.2:${publicServer.port}/redirect?to=${encodeURIComponent(target(canary.port))}`;
    const error = await refusal(start);
    expect(error.message).toMatch(/not a public|127\.0\.0\.1|localhost/);
    expect(publicServer.hits).toContain(`HEAD /redirect?to=${encodeURIComponent(target(canary.port))}`);
  });

  it('follows an allowed redirect and stops after five hops', async () => {
    const final = `http://127.0.0.2:${publicServer.port}/final.png`;
    expect((await guard.request(`http://127.0.0.2:${publicServer.port}/redirect?to=${encodeURIComponent(final)}`)).url).toBe(final);
    let chain = final;
    for (let i = 0; i < 6; i++) chain = `http://127.0.0.2:${publicServer.port}/redirect?to=${encodeURIComponent(chain)}`;
    expect(await refusal(chain)).toMatchObject({ reason: 'too-many-redirects' });
  });

  it('refuses ports outside the allowed list for names and non-allow-listed literals', async () => {
    const strict = new SsrfGuard({ resolve });
    await expect(strict.request('http://images.example.test:8080/a.png')).rejects.toMatchObject({ reason: 'port' });
    await strict.close();
  });
});

describe('headUrls', () => {
  let server: TestServer;
  let canary: TestServer;
  let guard: SsrfGuard;

  beforeAll(async () => {
    canary = await listen('127.0.0.1', (_request, response) => response.end());
    server = await listen('127.0.0.2', (request, response) => {
      if (request.url?.startsWith('/slow.png')) return; // never answers: the budget must end it
      if (request.url === '/no-head.png' && request.method === 'HEAD') {
        response.writeHead(405).end();
        return;
      }
      if (request.url === '/chunked.png') {
        response.writeHead(200, { 'content-type': 'image/png' });
        response.end();
        return;
      }
      response.writeHead(200, { 'content-length': String((request.url ?? '').length * 100) }).end();
    });
  });
  afterAll(async () => {
    await close(server);
    await close(canary);
  });
  beforeEach(() => {
    guard = new SsrfGuard({ allowedAddresses: ['127.0.0.2'] });
  });
  afterEach(async () => {
    await guard.close();
    expect(canary.hits).toEqual([]);
  });

  it('measures sizes from Content-Length, falls back to GET on 405, and reports refusals', async () => {
    const base = `http://127.0.0.2:${server.port}`;
    const { checks, skipped } = await headUrls(guard, [
      `${base}/a.png`,
      `${base}/no-head.png`,
      `${base}/chunked.png`,
      `http://127.0.0.1:${canary.port}/x.png`,
      `${base}/a.png`,
    ]);
    expect(skipped).toEqual([]);
    expect(checks.get(`${base}/a.png`)).toMatchObject({ status: 200, contentLength: 600, failure: null });
    expect(checks.get(`${base}/no-head.png`)).toMatchObject({ status: 200, contentLength: 1200, failure: null });
    expect(checks.get(`${base}/chunked.png`)).toMatchObject({ status: 200, contentLength: null });
    expect(checks.get(`http://127.0.0.1:${canary.port}/x.png`)).toMatchObject({ status: null, failure: 'refused' });
    expect(server.hits.filter((hit) => hit.endsWith('/a.png'))).toHaveLength(1);
  });

  it('checks at most 25 URLs and stops every request when the budget is spent', async () => {
    const base = `http://127.0.0.2:${server.port}`;
    const urls = Array.from({ length: 30 }, (_, i) => `${base}/slow.png?i=${i}`);
    // The slow server never answers: every check ends as a timeout once the 300 ms budget is spent.
    const { checks, skipped } = await headUrls(guard, urls, { budgetMs: 300, concurrency: 5 });
    expect(checks.size).toBe(25);
    expect(skipped).toHaveLength(5);
    expect([...checks.values()].every((check) => check.failure === 'timeout')).toBe(true);
  });
});
