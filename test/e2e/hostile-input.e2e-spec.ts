import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { gzipSync } from 'node:zlib';
import type { DataSource } from 'typeorm';
import request from 'supertest';
import { startTestApi, type RunningApi } from '../utils/api-server';
import { createTestAccount, openDatabase } from '../utils/database';
import { openQueues } from '../utils/queues';
import { testConfig } from '../utils/test-config';

// Input that used to reach a 500 (issue 14, "Bad input that reaches a 500"), and the guards on the
// operational endpoints. Every answer is problem+json; none of these requests reaches PostgreSQL.

const expectProblem = (response: request.Response, status: number, code: string) => {
  expect({ status: response.status, code: response.body?.code }).toEqual({ status, code });
  expect(response.headers['content-type']).toBe('application/problem+json');
  expect(response.body).toMatchObject({ status, code, type: expect.stringMatching(/^https:\/\//), title: expect.any(String), detail: expect.any(String) });
  expect(JSON.stringify(response.body)).not.toMatch(/\/work\/|node_modules|\bat .+\.(js|ts):\d+|RangeError|Error:/);
};

const fieldsOf = (response: request.Response): string[] => (response.body.errors ?? []).map((e: { field: string }) => e.field);

/** Sends raw bytes on a fresh TCP connection and resolves with everything the server wrote before closing. */
function rawExchange(url: string, chunks: Array<string | Buffer>): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    let received = '';
    socket.on('data', (data) => (received += data.toString('latin1')));
    socket.on('error', reject);
    socket.on('close', () => resolve(received));
    socket.on('connect', () => {
      for (const chunk of chunks) socket.write(chunk);
    });
  });
}

/** POSTs bytes exactly as given (supertest would serialize a Buffer as JSON when the type is JSON). */
function postBytes(
  url: string,
  path: string,
  headers: Record<string, string>,
  body: Buffer,
): Promise<{ status: number; headers: Record<string, unknown>; body: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${url}${path}`, { method: 'POST', headers: { 'Content-Length': String(body.length), ...headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

function parseRawResponse(raw: string): { status: number; headers: Record<string, string>; body: string } {
  const [head, ...rest] = raw.split('\r\n\r\n');
  const [statusLine, ...headerLines] = head.split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of headerLines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return { status: Number(statusLine.split(' ')[1]), headers, body: rest.join('\r\n\r\n') };
}

describe('hostile input never reaches a 500', () => {
  const config = testConfig();
  const queues = openQueues(config);
  let api: RunningApi;
  let db: DataSource;
  let free: { key: string };

  beforeAll(async () => {
    db = await openDatabase(config);
    free = await createTestAccount(db, 'free');
    api = await startTestApi(config);
  });
  afterAll(async () => {
    await api?.close();
    await queues.closeAll();
    await db?.destroy();
  });

  const post = (path: string, key?: string) => {
    const req = request(api.url).post(path);
    return key ? req.set('Authorization', `Bearer ${key}`) : req;
  };

  describe('a NUL character (U+0000) in any string field is a 400 naming the field', () => {
    it('in html of an anonymous preview, plain, MJML and a whole message', async () => {
      const plain = await post('/api/preview').send({ html: '<p>a\u0000b</p>' });
      expectProblem(plain, 400, 'validation_failed');
      expect(fieldsOf(plain)).toEqual(['html']);
      const mjml = await post('/api/preview').send({ html: '<mjml><mj-body><mj-text>a\u0000</mj-text></mj-body></mjml>', format: 'mjml' });
      expectProblem(mjml, 400, 'validation_failed');
      expect(fieldsOf(mjml)).toEqual(['html']);
      const message = await post('/api/preview').send({ html: 'From: a@b.example\r\nContent-Type: text/html\r\n\r\n<p>a\u0000</p>', format: 'eml' });
      expectProblem(message, 400, 'validation_failed');
      expect(fieldsOf(message)).toEqual(['html']);
    });

    it("in a saved preview's title, a key's name, a domain and a DKIM selector", async () => {
      const title = await post('/api/preview', free.key).send({ html: '<p>hi</p>', title: 'T\u0000' });
      expectProblem(title, 400, 'validation_failed');
      expect(fieldsOf(title)).toEqual(['title']);
      const name = await post('/api/keys', free.key).send({ name: 'ci\u0000' });
      expectProblem(name, 400, 'validation_failed');
      expect(fieldsOf(name)).toEqual(['name']);
      const domain = await post('/api/domains', free.key).send({ domain: 'exa\u0000mple.com' });
      expectProblem(domain, 400, 'validation_failed');
      expect(fieldsOf(domain)).toEqual(['domain']);
      const selector = await post('/api/deliverability', free.key).send({ domain: 'example.com', dkimSelectors: ['ok', 's\u0000'] });
      expectProblem(selector, 400, 'validation_failed');
      expect(fieldsOf(selector)).toEqual(['dkimSelectors.1']);
      expect(selector.body.errors[0].message).toMatch(/U\+0000/);
    });
  });

  describe('JSON nesting is limited to 64 levels, refused as invalid_json before validation', () => {
    const nested = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);

    it.each(['/api/preview', '/api/keys', '/api/domains', '/api/deliverability', '/api/share', '/api/diagnostics/round-trip'])(
      'POST %s with a 3 KB body nested 1,500 deep',
      async (path) => {
        const response = await post(path, free.key)
          .set('Content-Type', 'application/json')
          .send(`{"html":${nested(1500)}}`);
        expectProblem(response, 400, 'invalid_json');
        expect(response.body.errors).toEqual([{ field: 'body', message: expect.stringMatching(/64/) }]);
      },
    );

    it('64 levels parse (and then fail validation); 65 do not parse', async () => {
      const at64 = await post('/api/preview')
        .set('Content-Type', 'application/json')
        .send(`{"html":${nested(63)}}`);
      expectProblem(at64, 400, 'validation_failed');
      const at65 = await post('/api/preview')
        .set('Content-Type', 'application/json')
        .send(`{"html":${nested(64)}}`);
      expectProblem(at65, 400, 'invalid_json');
      // Brackets inside strings are text, not nesting.
      const inString = await post('/api/preview').send({ html: `<p>${'[{'.repeat(5000)}</p>`, clients: 'x' });
      expectProblem(inString, 400, 'validation_failed');
      expect(fieldsOf(inString)).toEqual(['clients']);
    });
  });

  describe('encodings', () => {
    it('refuses a gzip body, corrupt or not, with 415: bodies are accepted unencoded only', async () => {
      const corrupt = await postBytes(
        api.url,
        '/api/preview',
        { 'Content-Type': 'application/json', 'Content-Encoding': 'gzip' },
        Buffer.from('not gzip at all'),
      );
      expectProblem(corrupt as unknown as request.Response, 415, 'unsupported_media_type');
      const gzip = gzipSync(JSON.stringify({ html: '<p>hi</p>' }));
      const valid = await postBytes(api.url, '/api/preview', { 'Content-Type': 'application/json', 'Content-Encoding': 'gzip' }, gzip);
      expectProblem(valid as unknown as request.Response, 415, 'unsupported_media_type');
      for (const encoding of ['deflate', 'br', 'x-bogus', 'gzip, identity']) {
        expectProblem(
          await post('/api/preview').set('Content-Type', 'application/json').set('Content-Encoding', encoding).send('{}'),
          415,
          'unsupported_media_type',
        );
      }
      // identity is no encoding: parsed as usual.
      const identity = await post('/api/preview').set('Content-Encoding', 'identity').send({ html: 7 });
      expectProblem(identity, 400, 'validation_failed');
    });

    it('refuses invalid UTF-8 with 400 invalid_json instead of replacing it', async () => {
      const body = Buffer.concat([Buffer.from('{"html":"<p>'), Buffer.from([0xff, 0xfe, 0xc3]), Buffer.from('</p>"}')]);
      const response = await postBytes(api.url, '/api/preview', { 'Content-Type': 'application/json' }, body);
      expectProblem(response as unknown as request.Response, 400, 'invalid_json');
      expect(response.body.errors).toEqual([{ field: 'body', message: expect.stringMatching(/UTF-8/) }]);
      // A lone surrogate escaped as \ud800 is valid JSON and valid UTF-8 text: it parses.
      const escaped = await postBytes(api.url, '/api/preview', { 'Content-Type': 'application/json' }, Buffer.from('{"html":7,"title":"\\ud800"}'));
      expectProblem(escaped as unknown as request.Response, 400, 'validation_failed');
      expect(escaped.body.errors).toEqual([{ field: 'html', message: expect.any(String) }]);
    });

    it('refuses a charset other than UTF-8 with 415', async () => {
      const response = await post('/api/preview').set('Content-Type', 'application/json; charset=latin1').send('{"html":"x"}');
      expectProblem(response, 415, 'unsupported_media_type');
    });
  });

  describe('prototype keys', () => {
    it('refuses a top-level __proto__ like any other unknown field', async () => {
      const response = await post('/api/preview').set('Content-Type', 'application/json').send('{"__proto__":{"isAdmin":true},"html":"<p>hi</p>"}');
      expectProblem(response, 400, 'validation_failed');
      expect(fieldsOf(response)).toEqual(['__proto__']);
    });

    it('refuses constructor and prototype keys at any depth', async () => {
      const nestedKey = await post('/api/preview')
        .set('Content-Type', 'application/json')
        .send('{"html":"<p>x</p>","clients":[{"a":{"constructor":{"prototype":1}}}]}');
      expectProblem(nestedKey, 400, 'validation_failed');
      expect(fieldsOf(nestedKey)).toContain('clients.0.a.constructor');
      const topLevel = await post('/api/keys', free.key).set('Content-Type', 'application/json').send('{"name":"n","prototype":{}}');
      expectProblem(topLevel, 400, 'validation_failed');
      expect(fieldsOf(topLevel)).toEqual(['prototype']);
    });
  });

  describe('HTTP framing', () => {
    it('answers a 60 KB header with 431 and a problem body', async () => {
      const raw = await rawExchange(api.url, [`GET /api/clients HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(60_000)}\r\n\r\n`]);
      const response = parseRawResponse(raw);
      expect(response.status).toBe(431);
      expect(response.headers['content-type']).toBe('application/problem+json');
      expect(JSON.parse(response.body)).toMatchObject({ status: 431, code: 'headers_too_large' });
    });

    it('answers a malformed request line with 400 and a problem body', async () => {
      const response = parseRawResponse(await rawExchange(api.url, ['GET /\u0001 HTTP/1.1 nonsense\r\n\r\n']));
      expect(response.status).toBe(400);
      expect(JSON.parse(response.body)).toMatchObject({ status: 400, code: 'malformed_request', errors: [{ field: 'request', message: expect.any(String) }] });
    });
  });

  it('answers an HTTP/1.1 request without Host with 400 and a problem body', async () => {
    const response = parseRawResponse(await rawExchange(api.url, ['GET /health/live HTTP/1.1\r\nConnection: close\r\n\r\n']));
    expect(response.status).toBe(400);
    expect(response.headers['content-type']).toBe('application/problem+json');
    expect(JSON.parse(response.body)).toMatchObject({ status: 400, code: 'malformed_request' });
  });

  describe('operational endpoints', () => {
    it('round-trip needs a key: anonymous callers cannot queue jobs', async () => {
      expectProblem(await post('/api/diagnostics/round-trip').send({ queue: 'preview' }), 401, 'unauthorized');
      // With a key the request passes the guard (an invalid budget stops it before any job is queued).
      expectProblem(await post('/api/diagnostics/round-trip', free.key).send({ budgetMs: 0 }), 400, 'validation_failed');
    });

    it('without METRICS_TOKEN, /metrics answers direct loopback scrapes only', async () => {
      const direct = await request(api.url).get('/metrics').expect(200);
      expect(direct.text).toContain('mailproof_http_request_duration_seconds');
      expectProblem(await request(api.url).get('/metrics').set('X-Forwarded-For', '203.0.113.9'), 404, 'not_found');
      expectProblem(await request(api.url).get('/metrics').set('Forwarded', 'for=203.0.113.9'), 404, 'not_found');
    });
  });
});

/** An API of the describe block's own, with settings of its own; returns a getter of its URL. */
function apiWith(overrides: Record<string, string | number>): () => string {
  const config = testConfig(overrides);
  const queues = openQueues(config);
  let api: RunningApi | undefined;
  beforeAll(async () => {
    api = await startTestApi(config);
  });
  afterAll(async () => {
    await api?.close();
    await queues.closeAll();
  });
  return () => api!.url;
}

describe('METRICS_TOKEN guards /metrics', () => {
  const token = 'metrics-token-0123456789abcdef';
  const url = apiWith({ METRICS_TOKEN: token });

  it('needs Authorization: Bearer <METRICS_TOKEN>, from loopback too', async () => {
    const missing = await request(url()).get('/metrics');
    expectProblem(missing, 401, 'unauthorized');
    expect(missing.headers['www-authenticate']).toMatch(/^Bearer/);
    expectProblem(await request(url()).get('/metrics').set('Authorization', 'Bearer wrong-token-0123456789abcdef'), 401, 'unauthorized');
    expectProblem(await request(url()).get('/metrics').set('Authorization', `Bearer ${token}x`), 401, 'unauthorized');
    const ok = await request(url()).get('/metrics').set('Authorization', `Bearer ${token}`).set('X-Forwarded-For', '203.0.113.9').expect(200);
    expect(ok.text).toContain('mailproof_http_request_duration_seconds');
  });
});

describe('a request body that never finishes', () => {
  const url = apiWith({ HTTP_REQUEST_TIMEOUT_MS: 1000 });

  it('is answered with 408 problem+json and the connection closed once HTTP_REQUEST_TIMEOUT_MS has passed', async () => {
    const raw = await rawExchange(url(), [
      'POST /api/preview HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n',
      '{"html":"<p>',
    ]);
    const response = parseRawResponse(raw);
    expect(response.status).toBe(408);
    expect(response.headers['content-type']).toBe('application/problem+json');
    expect(response.headers.connection).toBe('close');
    expect(JSON.parse(response.body)).toMatchObject({ status: 408, code: 'request_timeout' });
  }, 20_000);

  it('also when the headers never finish', async () => {
    const response = parseRawResponse(await rawExchange(url(), ['POST /api/preview HTTP/1.1\r\nHost: x\r\nX-Slow: a']));
    expect(response.status).toBe(408);
    expect(JSON.parse(response.body)).toMatchObject({ status: 408, code: 'request_timeout' });
  }, 20_000);
});
