import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { SsrfGuard } from '@mailproof/net-guard';
import { sendWebhook, WEBHOOK_RESPONSE_CAP_BYTES } from './webhook-sender';

/**
 * One delivery attempt against real loopback servers: "the internet" on 127.0.0.2 (allow-listed on the
 * guard) and a canary on 127.0.0.1 that must never be reached.
 */
interface Received {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

async function listen(host: string, handler: (request: IncomingMessage, response: ServerResponse) => void) {
  const received: Received[] = [];
  const abandoned: string[] = [];
  const server: Server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => (body += String(chunk)));
    request.on('end', () => {
      received.push({ method: request.method ?? '', url: request.url ?? '', headers: request.headers, body });
      response.once('close', () => {
        if (!response.writableFinished) abandoned.push(request.url ?? '');
      });
      handler(request, response);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const base = `http://${host}:${(server.address() as AddressInfo).port}`;
  return { server, base, received, abandoned, close: () => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))) };
}

const secret = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;
const message = { id: 'msg_test1', body: JSON.stringify({ type: 'gate.failed', timestamp: '2026-11-25T10:00:00.000Z', data: { runId: 'gtr_1' } }), secret };

describe('sendWebhook', () => {
  let site: Awaited<ReturnType<typeof listen>>;
  let canary: Awaited<ReturnType<typeof listen>>;
  const guard = new SsrfGuard({ allowedAddresses: ['127.0.0.2'] });

  beforeAll(async () => {
    canary = await listen('127.0.0.1', (_request, response) => response.writeHead(200).end());
    site = await listen('127.0.0.2', (request, response) => {
      if (request.url === '/redirect') return void response.writeHead(307, { location: `${canary.base}/stolen` }).end();
      if (request.url === '/error') return void response.writeHead(500).end('database is down');
      if (request.url === '/hang') return; // never answers
      if (request.url === '/endless') {
        response.writeHead(200, { 'content-type': 'text/plain' });
        const timer = setInterval(() => response.write('y'.repeat(4096)), 5);
        return void response.once('close', () => clearInterval(timer));
      }
      response.writeHead(204).end();
    });
  });

  afterAll(async () => {
    await guard.close();
    await site.close();
    await canary.close();
  });

  it('POSTs the body with Standard Webhooks headers whose signature verifies', async () => {
    const at = new Date();
    expect(await sendWebhook(guard, `${site.base}/in`, message, 2_000, at)).toEqual({ outcome: 'delivered', httpStatus: 204 });
    const [got] = site.received.filter((item) => item.url === '/in');
    expect(got).toMatchObject({ method: 'POST', body: message.body });
    expect(got.headers).toMatchObject({
      'content-type': 'application/json',
      'webhook-id': 'msg_test1',
      'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    });
    const verified = new Webhook(secret).verify(got.body, got.headers as Record<string, string>);
    expect(verified).toEqual(JSON.parse(message.body));
  });

  it('does not follow a redirect: the 3xx is a failed attempt and its Location is never requested', async () => {
    const attempt = await sendWebhook(guard, `${site.base}/redirect`, message, 2_000);
    expect(attempt).toMatchObject({ outcome: 'rejected', httpStatus: 307 });
    expect(attempt.outcome === 'rejected' && attempt.error).toContain('redirects are not followed');
    expect(canary.received).toEqual([]);
  });

  it('reports a non-2xx answer with the start of its body', async () => {
    expect(await sendWebhook(guard, `${site.base}/error`, message, 2_000)).toEqual({
      outcome: 'rejected',
      httpStatus: 500,
      error: 'HTTP 500: database is down',
    });
  });

  it('gives up on a server that does not answer within the timeout', async () => {
    expect(await sendWebhook(guard, `${site.base}/hang`, message, 300)).toEqual({ outcome: 'unreachable', httpStatus: null, error: 'no answer within 300 ms' });
  });

  it(`reads no more than ${WEBHOOK_RESPONSE_CAP_BYTES} bytes of an endless answer`, async () => {
    expect(await sendWebhook(guard, `${site.base}/endless`, message, 5_000)).toEqual({ outcome: 'delivered', httpStatus: 200 });
    // The server sees its response cut off: the body was dropped after the cap, not read to the end.
    await new Promise<void>((resolve, reject) => {
      const until = Date.now() + 2_000;
      const poll = () =>
        site.abandoned.includes('/endless') ? resolve() : Date.now() > until ? reject(new Error('response not abandoned')) : setTimeout(poll, 10);
      poll();
    });
  });

  it.each(['http://127.0.0.1/in', 'http://10.0.0.8/in', 'http://169.254.169.254/latest/meta-data', 'http://[::1]/in'])(
    'declines %s without connecting',
    async (url) => {
      const attempt = await sendWebhook(guard, url.replace('127.0.0.1/', `127.0.0.1:${new URL(canary.base).port}/`), message, 2_000);
      expect(attempt.outcome).toBe('declined');
      expect(canary.received).toEqual([]);
    },
  );
});
