import { spawn, type ChildProcess } from 'node:child_process';
import { connect } from 'node:net';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { Pool } from 'undici';
import { createTestAccount, openDatabase } from '../utils/database';
import { freePort } from '../utils/free-port';
import { openQueues } from '../utils/queues';
import { testConfig } from '../utils/test-config';
import { waitFor } from '../utils/wait';

// The HTTP fuzz suite (issue 14): fast-check generates requests to every route (JSON bodies, headers,
// encodings, sizes, broken framing) against the all-in-one process started as a real child, so the
// API and every worker share the process and a crash anywhere shows as an exit. It must record no
// 500 and no exit over at least 20,000 requests, with a fixed seed; it prints the count and the
// status histogram. Run `npm run build` first.

const ROOT = join(__dirname, '..', '..');
const SEED = Number(process.env.FUZZ_SEED ?? 1_400_014);
const REQUESTS = Number(process.env.FUZZ_REQUESTS ?? 20_000);
const CONCURRENCY = 16;
const BODY_LIMIT = 2 * 1024 * 1024;
const MARKUP_LIMIT = 512_000;

// ---------------------------------------------------------------------------------------------
// What one generated request is. Large strings stay descriptions (Huge) until the request is sent,
// so 20,000 of them fit in memory.

/** A long string, built only when the body is serialized. */
class Huge {
  constructor(
    readonly length: number,
    readonly unit: string,
  ) {}
  toJSON(): string {
    return this.unit.repeat(Math.ceil(this.length / this.unit.length)).slice(0, this.length);
  }
}

type BodySpec =
  | { kind: 'json'; value: unknown }
  | { kind: 'text'; text: string }
  | { kind: 'bytes'; bytes: Uint8Array }
  | { kind: 'deep'; depth: number; open: '[' | '{"a":'; inString: boolean }
  | { kind: 'padded'; bytes: number }
  | { kind: 'gzip'; inner: unknown; corrupt: boolean };

interface HttpSpec {
  type: 'http';
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: BodySpec;
}

interface RawSpec {
  type: 'raw';
  name: string;
  bytes: string;
}

type Spec = HttpSpec | RawSpec;

// ---------------------------------------------------------------------------------------------
// Generators.

const CLIENT_IDS = ['gmail-web', 'outlook-windows', 'apple-mail-macos', 'yahoo-web', 'outlook-web', 'nope', 'GMAIL-WEB', ''];
const FORMATS = ['html', 'jsx', 'mjml', 'maizzle', 'eml', 'HTML', 'pdf', ''];
const QUEUES = ['preview', 'render', 'dns-audit', 'scheduler', 'nope'];
/** Whole messages (format eml): one well formed, and hostile ones (a boundary never closed, nesting and encoded-word bombs, no header block). */
const nestedMessage = (depth: number) => {
  let body = 'Content-Type: text/html\r\n\r\n<p>deep</p>\r\n';
  for (let level = depth; level > 0; level -= 1) body = `Content-Type: multipart/mixed; boundary="n${level}"\r\n\r\n--n${level}\r\n${body}--n${level}--\r\n`;
  return `From: a@b.example\r\nMIME-Version: 1.0\r\n${body}`;
};
const MESSAGES = [
  'From: News <news@acme.example>\r\nSubject: Hi\r\nMIME-Version: 1.0\r\nContent-Type: text/html; charset=utf-8\r\n\r\n<p>hi</p>\r\n',
  'From: a@b.example\r\nContent-Type: multipart/mixed; boundary="x"\r\n\r\n--x\r\nContent-Type: text/html\r\n\r\n<p>never closed</p>\r\n',
  nestedMessage(120),
  `From: a@b.example\r\nSubject: ${'=?utf-8?B?YQ==?= '.repeat(4_000)}\r\nContent-Type: text/html\r\n\r\n<p>x</p>`,
  'no header block at all\r\n\r\n<p>x</p>',
];
const VALID_HTML = ['<p>hi</p>', '<table><tr><td style="color:red">x</td></tr></table>', '<mjml><mj-body><mj-text>x</mj-text></mj-body></mjml>', ...MESSAGES];

const printable = fc.integer({ min: 0x20, max: 0x7e }).map((code) => String.fromCharCode(code));
const headerValue = fc.string({ unit: printable, maxLength: 80 }).map((text) => text.trim());
const token = fc.string({ unit: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-'), maxLength: 60 });

/** Strings that have broken something somewhere: NUL, lone surrogates, bidi overrides, prototype words. */
const nastyString = fc.constantFrom(
  '\u0000',
  'a\u0000b',
  '<p>\u0000</p>',
  '\ud800',
  'x\udfffy',
  '\u202e\u2066',
  '\ufeff',
  '__proto__',
  'constructor',
  '${7*7}{{7*7}}',
  '<script>alert(1)</script>',
  "'; DROP TABLE previews; --",
  '../../etc/passwd',
  '%00',
  '\r\n\r\nHTTP/1.1 200 OK',
  'é'.normalize('NFD'),
  '😀'.repeat(3),
  '',
  ' ',
);

const hugeString = fc
  .record({
    length: fc.constantFrom(99, 100, 101, 127, 128, 199, 200, 201, 999, 1_000, 1_001, 64_000, MARKUP_LIMIT - 1, MARKUP_LIMIT, MARKUP_LIMIT + 1, 700_000),
    unit: fc.constantFrom('a', 'é', '€', '😀', '<p>x</p>', '{['),
  })
  .map(({ length, unit }) => new Huge(length, unit));

const anyValue: fc.Arbitrary<unknown> = fc.oneof(
  { arbitrary: fc.string({ maxLength: 40 }), weight: 6 },
  { arbitrary: hugeString, weight: 1 },
  { arbitrary: fc.string({ unit: 'binary', maxLength: 20 }), weight: 4 },
  { arbitrary: nastyString, weight: 6 },
  { arbitrary: fc.integer(), weight: 2 },
  { arbitrary: fc.double(), weight: 2 },
  { arbitrary: fc.constantFrom(0, -1, 1e308, -0, 2 ** 53 + 1, 30_001, 1e-7), weight: 2 },
  { arbitrary: fc.boolean(), weight: 2 },
  { arbitrary: fc.constant(null), weight: 2 },
  { arbitrary: fc.array(fc.oneof(fc.string({ maxLength: 10 }), nastyString, fc.integer()), { maxLength: 6 }), weight: 2 },
  { arbitrary: fc.jsonValue({ maxDepth: 3 }), weight: 2 },
);

/** A field that is usually valid and otherwise anything at all (or missing). */
const field = <T>(valid: fc.Arbitrary<T>, validWeight = 3) =>
  fc.oneof({ arbitrary: valid, weight: validWeight }, { arbitrary: anyValue, weight: 2 }, { arbitrary: fc.constant(undefined), weight: 1 });

const clientsField = field(fc.uniqueArray(fc.constantFrom(...CLIENT_IDS), { minLength: 0, maxLength: 6 }), 2);

/** `files`: relative paths and hostile ones (absolute, backslash, URL, too many `..`), sources of any size or type. */
const filesField = field(
  fc.dictionary(
    fc.oneof(
      fc.constantFrom(
        'ui/Button.tsx',
        '../partials/header.mjml',
        './a/../b.html',
        '/etc/passwd',
        'a\\b.tsx',
        'https://x.test/a.tsx',
        '',
        `${'../'.repeat(9)}x`,
      ),
      fc.string({ maxLength: 12 }),
    ),
    fc.oneof({ arbitrary: fc.string({ maxLength: 40 }), weight: 6 }, { arbitrary: hugeString, weight: 1 }, { arbitrary: anyValue, weight: 1 }),
    { maxKeys: 4 },
  ),
  1,
);
const mjmlValidationField = field(fc.constantFrom('soft', 'strict', 'lenient'), 1);

const bodiesByRoute: Record<string, fc.Arbitrary<Record<string, unknown>>> = {
  '/api/preview': fc.record({
    // Valid markup is rare: a valid preview costs the worker real analysis time.
    html: fc.oneof({ arbitrary: fc.constantFrom(...VALID_HTML), weight: 2 }, { arbitrary: anyValue, weight: 12 }, { arbitrary: hugeString, weight: 1 }),
    format: field(fc.constantFrom(...FORMATS)),
    clients: clientsField,
    title: field(fc.string({ maxLength: 210 })),
    files: filesField,
    mjmlValidation: mjmlValidationField,
  }),
  '/api/fix': fc.record({
    html: fc.oneof({ arbitrary: fc.constantFrom(...VALID_HTML), weight: 2 }, { arbitrary: anyValue, weight: 12 }, { arbitrary: hugeString, weight: 1 }),
    format: field(fc.constantFrom(...FORMATS)),
    clients: clientsField,
    tiers: field(fc.oneof(fc.constantFrom(['safe'], ['safe', 'layout'], ['layout'], [], ['safe', 'safe'], ['bold']), anyValue)),
    files: filesField,
    mjmlValidation: mjmlValidationField,
  }),
  '/api/keys': fc.record({ name: field(fc.string({ maxLength: 110 })) }),
  '/api/domains': fc.record({
    domain: field(
      fc.constantFrom(
        'example.com',
        'mailproof.invalid',
        'https://user@example.org/path',
        'xn--bcher-kva.example',
        'bücher.example',
        '-bad-.com',
        'a'.repeat(300) + '.com',
        '1.2.3.4',
        'localhost',
      ),
    ),
    dkimSelectors: field(fc.array(fc.oneof(fc.constantFrom('s1', 'google', 'bad selector', ''), nastyString), { maxLength: 25 })),
  }),
  '/api/deliverability': fc.record({
    domain: field(fc.constantFrom('example.com', 'mailproof.invalid', 'exa mple.com', '', '.', 'a..b', 'x'.repeat(70) + '.com')),
    dkimSelectors: field(fc.array(fc.string({ maxLength: 130 }), { maxLength: 22 })),
  }),
  '/api/share': fc.record({
    previewId: field(
      fc.oneof(
        fc.constant('prv_'),
        token.map((t) => `prv_${t}`),
        fc.uuid(),
      ),
    ),
  }),
  '/api/diagnostics/round-trip': fc.record({ queue: field(fc.constantFrom(...QUEUES)), budgetMs: field(fc.integer({ min: -10, max: 40_000 })) }),
  '/api/gate': fc.record({
    html: field(fc.constantFrom(...VALID_HTML)),
    url: field(fc.oneof(fc.webUrl(), fc.constantFrom('ftp://x/', 'http://10.0.0.1/', 'http://user:pw@example.org/', 'not a url'))),
    format: field(fc.constantFrom('html', 'jsx', 'mjml', 'maizzle', 'eml', 'pug')),
    ref: field(fc.oneof(fc.string({ maxLength: 210 }), fc.constantFrom('emails/welcome.html', 'a b', 'r'.repeat(201)))),
    threshold: field(fc.oneof(fc.integer({ min: -5, max: 105 }), fc.double())),
    checks: field(fc.array(fc.oneof(fc.constantFrom('compatibility', 'content', 'regression', 'message'), fc.string()))),
    bulk: field(fc.oneof(fc.boolean(), fc.constantFrom('yes', 1))),
    clients: field(fc.array(fc.constantFrom('gmail-web', 'outlook-windows-legacy', 'lotus-notes'))),
    failOnError: field(fc.oneof(fc.boolean(), fc.string())),
    updateBaseline: field(fc.constantFrom('on-pass', 'always', 'never', 'sometimes')),
    // Link resolution stays off: the fuzz suite must not fetch anything.
    resolveLinks: fc.constantFrom(false, 'yes', undefined),
    files: filesField,
    mjmlValidation: mjmlValidationField,
  }),
  // `.invalid` never resolves and 10/8 is refused: no generated endpoint can receive a delivery.
  '/api/webhooks': fc.record({
    url: field(
      fc.constantFrom(
        'https://hooks.mailproof.invalid/in',
        'http://10.0.0.1/',
        'ftp://x/',
        'http://localhost/',
        'not a url',
        'https://hooks.mailproof.invalid:8443/',
      ),
    ),
    events: field(
      fc.array(fc.oneof(fc.constantFrom('domain.drift', 'domain.status_changed', 'gate.failed', 'gate.passed'), fc.string({ maxLength: 20 })), {
        maxLength: 6,
      }),
    ),
  }),
  '/api/mcp': fc.record({
    jsonrpc: field(fc.constant('2.0')),
    id: anyValue,
    method: field(fc.constantFrom('tools/list', 'tools/call', 'initialize')),
    params: anyValue,
  }),
};

const FORBIDDEN_KEYS = ['__proto__', 'constructor', 'prototype'];

/** Adds unknown or prototype keys as own properties (plain assignment of __proto__ would set the prototype). */
const withExtraKeys = (body: Record<string, unknown>, extras: Array<[string, unknown]>): Record<string, unknown> => {
  const copy: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(body))
    if (value !== undefined) Object.defineProperty(copy, key, { value, enumerable: true, writable: true, configurable: true });
  for (const [key, value] of extras) Object.defineProperty(copy, key, { value, enumerable: true, writable: true, configurable: true });
  return copy;
};

const routeBody: fc.Arbitrary<{ path: string; body: BodySpec }> = fc
  .record({
    path: fc.constantFrom(...Object.keys(bodiesByRoute)),
    extras: fc.oneof(
      { arbitrary: fc.constant([] as Array<[string, unknown]>), weight: 6 },
      { arbitrary: fc.array(fc.tuple(fc.oneof(fc.constantFrom(...FORBIDDEN_KEYS), fc.string({ maxLength: 8 })), anyValue), { maxLength: 3 }), weight: 2 },
    ),
  })
  .chain(({ path, extras }) => bodiesByRoute[path].map((body) => ({ path, body: { kind: 'json' as const, value: withExtraKeys(body, extras) } })));

// Bodies near and over the 2 MB limit are few: each costs megabytes of copying on both sides.
const rawBody: fc.Arbitrary<BodySpec> = fc.oneof(
  { arbitrary: fc.jsonValue({ maxDepth: 6 }).map((value) => ({ kind: 'json' as const, value })), weight: 6 },
  { arbitrary: fc.string({ maxLength: 200 }).map((text) => ({ kind: 'text' as const, text })), weight: 4 },
  {
    arbitrary: fc
      .constantFrom(
        '',
        ' ',
        '{}',
        '[]',
        'null',
        '0',
        '"x"',
        '{',
        '{"a":',
        '[1,]',
        '{"a":1}}',
        '\ufeff{}',
        '{"a":"\\u0000"}',
        '{"a":"\\ud800"}',
        '{"__proto__":{"x":1}}',
        '{"a":1,"a":2}',
        '1e999999',
      )
      .map((text) => ({ kind: 'text' as const, text })),
    weight: 4,
  },
  { arbitrary: fc.uint8Array({ maxLength: 200 }).map((bytes) => ({ kind: 'bytes' as const, bytes })), weight: 4 },
  {
    arbitrary: fc
      .record({ depth: fc.integer({ min: 1, max: 3_000 }), open: fc.constantFrom('[' as const, '{"a":' as const), inString: fc.boolean() })
      .map((deep) => ({ kind: 'deep' as const, ...deep })),
    weight: 4,
  },
  { arbitrary: fc.constantFrom(BODY_LIMIT - 64, BODY_LIMIT, BODY_LIMIT + 1, BODY_LIMIT * 2).map((bytes) => ({ kind: 'padded' as const, bytes })), weight: 1 },
  { arbitrary: fc.record({ inner: fc.jsonValue({ maxDepth: 2 }), corrupt: fc.boolean() }).map((gzip) => ({ kind: 'gzip' as const, ...gzip })), weight: 2 },
);

const CONTENT_TYPES = [
  'application/json',
  'application/json',
  'application/json; charset=utf-8',
  'application/json; charset=UTF8',
  'application/json; charset=latin1',
  'application/json; charset="',
  'application/problem+json',
  'application/vnd.api+json',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'text/plain',
  'text/html; charset=utf-8',
  'application/jsonx',
  'json',
  '*/*',
  '',
];
const ENCODINGS = ['gzip', 'deflate', 'br', 'identity', 'IDENTITY', 'x-bogus', 'gzip, gzip', 'compress', ''];
const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'HEAD'];

const idSegment = fc.oneof(
  fc.uuid(),
  token.map((t) => `prv_${t}`),
  token.map((t) => `shr_${t}`),
  token,
  fc.string({ maxLength: 30 }).map((text) => encodeURIComponent(text)),
  fc.constantFrom('%zz', '%', '%00', '%c0%ae', '..', '%2e%2e', '%2F', ';', '~', 'undefined', 'null', '0', '-1', 'x'.repeat(2_000), '%E2%80%AE', '%F0%9F%98%80'),
);

const query = fc.oneof(
  { arbitrary: fc.constant(''), weight: 4 },
  {
    arbitrary: fc
      .array(
        fc.tuple(
          fc.constantFrom('page', 'pageSize', 'limit', 'page[]', '__proto__', 'x'),
          fc.oneof(fc.constantFrom('1', '0', '-1', '1e309', 'abc', '', '100001', '%zz', '2.5'), token),
        ),
        { maxLength: 4 },
      )
      .map((pairs) => '?' + pairs.map(([k, v]) => `${k}=${v}`).join('&')),
    weight: 1,
  },
);

const path: fc.Arbitrary<string> = fc
  .tuple(
    fc.oneof(
      fc.constantFrom('/api/preview', '/api/previews', '/api/keys', '/api/domains', '/api/deliverability', '/api/share', '/api/diagnostics/round-trip'),
      fc.constantFrom(
        '/api/clients',
        '/api/clients/properties',
        '/health/live',
        '/health/ready',
        '/metrics',
        '/api/gate',
        '/api/fix',
        '/metrics/queues',
        '/api/mcp',
        '/api/account',
        '/api/account/export',
        '/',
        '/api',
        '/share/assets/share.js',
        '/share/assets/share.css',
      ),
      fc.constantFrom(
        '/api/gate/runs',
        '/api/gate/runs?ref=a%20b',
        '/api/gate/runs?page=0',
        '/api/gate/runs?pageSize=1000',
        '/api/gate/runs/gtr_x',
        '/api/gate/runs/%00',
      ),
      idSegment.map((id) => `/api/preview/${id}`),
      idSegment.map((id) => `/api/fix/${id}`),
      idSegment.map((id) => `/api/preview/${id}/screenshots`),
      idSegment.map((id) => `/screenshots/${id}.png`),
      idSegment.map((id) => `/api/keys/${id}`),
      idSegment.map((id) => `/api/domains/${id}`),
      idSegment.map((id) => `/api/domains/${id}/history`),
      idSegment.map((id) => `/api/share/${id}`),
      idSegment.map((id) => `/share/${id}`),
      fc.tuple(idSegment, idSegment).map(([id, client]) => `/share/${id}/clients/${client}`),
      fc.constantFrom('//api/preview', '/api/preview/', '/API/PREVIEW', '/api/./preview', '/api/%70review', '/metrics/', '/health/../metrics'),
    ),
    query,
  )
  .map(([p, q]) => p + q);

const authHeaders = (keys: { free: string; pro: string }): fc.Arbitrary<Record<string, string>> =>
  fc.oneof(
    { arbitrary: fc.constant({}), weight: 4 },
    { arbitrary: fc.constant({ authorization: `Bearer ${keys.free}` }), weight: 3 },
    { arbitrary: fc.constant({ 'x-api-key': keys.pro }), weight: 2 },
    { arbitrary: token.map((t) => ({ authorization: `Bearer mp_live_${t}` })), weight: 1 },
    { arbitrary: token.map((t) => ({ 'x-api-key': `mp_live_${t}` })), weight: 1 },
    {
      arbitrary: fc.constantFrom<Record<string, string>>(
        { authorization: 'Bearer' },
        { authorization: 'Bearer ' },
        { authorization: 'Basic dXNlcjpwYXNz' },
        { authorization: `bearer   ${keys.free}` },
        { authorization: `Bearer ${keys.free}`, 'x-api-key': keys.pro },
        { authorization: `Bearer ${keys.free}x` },
        { authorization: `Bearer ${'k'.repeat(8_000)}` },
        { 'x-api-key': '' },
        { 'x-api-key': 'mp_live_' },
        { authorization: 'Bearer metrics-token-that-is-wrong' },
      ),
      weight: 1,
    },
    { arbitrary: headerValue.map((value) => ({ authorization: value })), weight: 1 },
  );

const extraHeaders: fc.Arbitrary<Record<string, string>> = fc
  .array(
    fc.oneof(
      fc.tuple(fc.constant('accept-encoding'), fc.constantFrom('br', 'gzip', 'br;q=0', '*', 'identity;q=0', 'x-bogus', 'br, gzip;q=2')),
      fc.tuple(fc.constant('x-request-id'), fc.oneof(headerValue, fc.uuid(), fc.constant('x'.repeat(500)))),
      fc.tuple(fc.constant('x-forwarded-for'), fc.oneof(headerValue, fc.constantFrom('203.0.113.9', '::1, 127.0.0.1', 'unknown', '999.1.1.1'))),
      fc.tuple(fc.constant('forwarded'), headerValue),
      fc.tuple(fc.constant('accept'), fc.constantFrom('text/html', 'application/json', '*/*', 'image/png', '')),
      fc.tuple(fc.constant('range'), fc.constantFrom('bytes=0-1', 'bytes=-1', 'bytes=abc')),
      fc.tuple(fc.constant('if-none-match'), fc.constantFrom('*', '"x"', 'W/"y"')),
      fc.tuple(fc.constant('origin'), fc.constantFrom('https://evil.example', 'null')),
      fc.tuple(fc.constantFrom('x-custom', 'user-agent', 'cookie', 'referer'), headerValue),
    ),
    { maxLength: 4 },
  )
  .map((pairs) => Object.fromEntries(pairs));

/**
 * The account's own routes with their bodies: PATCH /api/account's retention, and DELETE /api/account's confirmation,
 * never the right one (an erased test account would turn the rest of the run into 401s).
 */
const accountRequest: fc.Arbitrary<{ method: string; path: string; body: BodySpec | undefined }> = fc.oneof(
  fc
    .record({ retentionDays: field(fc.oneof(fc.integer({ min: -3, max: 400 }), fc.constantFrom(0, 30, 365, 1.5, '30'))) }, { requiredKeys: [] })
    .map((value) => ({ method: 'PATCH', path: '/api/account', body: { kind: 'json' as const, value } })),
  fc
    .record({ confirm: field(fc.constantFrom('yes', 'DELETE ', 'delete-me', true)) }, { requiredKeys: [] })
    .map((value) => ({ method: 'DELETE', path: '/api/account', body: { kind: 'json' as const, value } })),
);

const httpSpec = (keys: { free: string; pro: string }): fc.Arbitrary<HttpSpec> =>
  fc
    .record({
      target: fc.oneof(
        { arbitrary: routeBody.map(({ path, body }) => ({ method: 'POST', path, body: body as BodySpec | undefined })), weight: 10 },
        {
          arbitrary: fc
            .tuple(fc.constantFrom(...Object.keys(bodiesByRoute)), rawBody)
            .map(([p, body]) => ({ method: 'POST', path: p, body: body as BodySpec | undefined })),
          weight: 5,
        },
        { arbitrary: accountRequest, weight: 1 },
        {
          arbitrary: fc
            .tuple(fc.constantFrom(...METHODS), path, fc.option(rawBody, { freq: 4 }))
            .map(([method, p, body]) => ({ method, path: p, body: body ?? undefined })),
          weight: 5,
        },
      ),
      contentType: fc.oneof({ arbitrary: fc.constant('application/json'), weight: 8 }, { arbitrary: fc.constantFrom(...CONTENT_TYPES), weight: 2 }),
      encoding: fc.oneof({ arbitrary: fc.constant(''), weight: 12 }, { arbitrary: fc.constantFrom(...ENCODINGS), weight: 1 }),
      auth: authHeaders(keys),
      extra: extraHeaders,
    })
    .map(({ target, contentType, encoding, auth, extra }) => {
      const headers: Record<string, string> = { ...extra, ...auth };
      if (target.body) {
        if (contentType) headers['content-type'] = contentType;
        if (target.body.kind === 'gzip') headers['content-encoding'] = 'gzip';
        else if (encoding) headers['content-encoding'] = encoding;
      }
      // HEAD and GET with a body: undici refuses; those requests go without one.
      const body = target.method === 'HEAD' || target.method === 'GET' ? undefined : target.body;
      return { type: 'http' as const, method: target.method, path: target.path, headers, body };
    });

const rawSpec: fc.Arbitrary<RawSpec> = fc.oneof(
  fc.integer({ min: 8_000, max: 70_000 }).map((size) => ({
    type: 'raw' as const,
    name: 'huge header',
    bytes: `GET /api/clients HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(size)}\r\nConnection: close\r\n\r\n`,
  })),
  fc.integer({ min: 100, max: 400 }).map((count) => ({
    type: 'raw' as const,
    name: 'many headers',
    bytes: `GET /health/live HTTP/1.1\r\nHost: x\r\n${Array.from({ length: count }, (_, i) => `X-H${i}: v`).join('\r\n')}\r\nConnection: close\r\n\r\n`,
  })),
  fc
    .string({ unit: printable, maxLength: 60 })
    .map((line) => ({ type: 'raw' as const, name: 'garbage request line', bytes: `${line}\r\nHost: x\r\nConnection: close\r\n\r\n` })),
  fc
    .constantFrom(
      {
        name: 'bad chunk size',
        bytes: 'POST /api/preview HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n',
      },
      {
        name: 'length and chunked',
        bytes:
          'POST /api/preview HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n',
      },
      {
        name: 'two lengths',
        bytes: 'POST /api/preview HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n{}',
      },
      {
        name: 'body longer than declared',
        bytes: 'POST /api/preview HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}GARBAGE\r\n\r\n',
      },
      { name: 'negative length', bytes: 'POST /api/preview HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: -1\r\n\r\n{}' },
      { name: 'unknown method', bytes: 'BREW /api/preview HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n' },
      { name: 'HTTP/0.9', bytes: 'GET /\r\nConnection: close\r\n\r\n' },
      { name: 'HTTP/2 preface', bytes: 'PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n' },
      { name: 'NUL in header', bytes: 'GET /health/live HTTP/1.1\r\nHost: x\r\nX-A: a\u0000b\r\n\r\n' },
      { name: 'header without colon', bytes: 'GET /health/live HTTP/1.1\r\nHost x\r\n\r\n' },
      { name: 'obs-fold header', bytes: 'GET /health/live HTTP/1.1\r\nHost: x\r\nX-A: a\r\n b\r\nConnection: close\r\n\r\n' },
      { name: 'absolute-form target', bytes: 'GET http://evil.example/metrics HTTP/1.1\r\nHost: evil.example\r\nConnection: close\r\n\r\n' },
      { name: 'asterisk target', bytes: 'OPTIONS * HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n' },
      {
        name: 'expect continue',
        bytes:
          'POST /api/preview HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nExpect: 100-continue\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}',
      },
      { name: 'no host', bytes: 'GET /health/live HTTP/1.1\r\nConnection: close\r\n\r\n' },
    )
    .map((raw) => ({ type: 'raw' as const, ...raw })),
);

const spec = (keys: { free: string; pro: string }): fc.Arbitrary<Spec> =>
  fc.oneof({ arbitrary: httpSpec(keys), weight: 97 }, { arbitrary: rawSpec, weight: 3 });

// ---------------------------------------------------------------------------------------------
// Sending.

function bodyBytes(body: BodySpec): Buffer {
  switch (body.kind) {
    case 'json':
      return Buffer.from(JSON.stringify(body.value) ?? 'null', 'utf8');
    case 'text':
      return Buffer.from(body.text, 'utf8');
    case 'bytes':
      return Buffer.from(body.bytes);
    case 'deep': {
      const close = body.open === '[' ? ']' : '}';
      const nested = body.open.repeat(body.depth) + close.repeat(body.depth);
      return Buffer.from(body.inString ? JSON.stringify({ html: nested }) : `{"html":${nested}}`, 'utf8');
    }
    case 'padded':
      return Buffer.from(JSON.stringify({ html: new Huge(body.bytes - 11, 'a') }), 'utf8');
    case 'gzip': {
      const packed = gzipSync(JSON.stringify(body.inner) ?? 'null');
      return body.corrupt ? Buffer.concat([packed.subarray(0, 10), Buffer.from('corrupt!'), packed.subarray(18)]) : packed;
    }
  }
}

interface Outcome {
  status: string;
  /** Set when something is wrong with the answer besides its status. */
  problem?: string;
}

const STACK = /\bat .+\.(js|ts):\d+|node_modules|\/work\//;

async function sendHttp(pool: Pool, spec: HttpSpec): Promise<Outcome> {
  const body = spec.body ? bodyBytes(spec.body) : undefined;
  const refusedEarly = body !== undefined && (body.length > BODY_LIMIT || spec.headers['content-encoding'] !== undefined || spec.body?.kind === 'gzip');
  try {
    const response = await pool.request({
      method: spec.method as 'GET',
      path: spec.path,
      headers: spec.headers,
      body,
      headersTimeout: 60_000,
      bodyTimeout: 60_000,
    });
    const text = await response.body.text();
    const status = String(response.statusCode);
    if (response.statusCode >= 400 && spec.method !== 'HEAD') {
      const type = String(response.headers['content-type'] ?? '');
      // The share page is for people: an unknown share is an HTML page (docs/previews.md), the one exception.
      const sharePage = spec.method === 'GET' && /^\/share\/[^/?]+(\?|$)/.test(spec.path) && response.statusCode === 404 && type.startsWith('text/html');
      if (type !== 'application/problem+json' && !sharePage) return { status, problem: `error without problem+json (${type})` };
      if (STACK.test(text)) return { status, problem: 'stack trace or path in an error body' };
    }
    return { status };
  } catch (error) {
    const code = (error as { code?: string }).code ?? (error as Error).name;
    // Refused before its body was read (413 by Content-Length, 415): the server answers and closes
    // while the client may still be writing, so the client sees the close instead of the answer.
    // A body larger than the socket buffers is still being written when such an answer closes the connection.
    if ((refusedEarly || (body?.length ?? 0) > 65_536) && /SOCKET|ECONNRESET|EPIPE/i.test(code)) return { status: 'closed early (body refused)' };
    return { status: `client error ${code}`, problem: `request failed: ${(error as Error).message}` };
  }
}

function sendRaw(port: number, spec: RawSpec): Promise<Outcome> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    let received = '';
    // The server closes the connection after answering (every case either says Connection: close or is
    // malformed); past the deadline the case counts as unanswered.
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      socket.destroy();
    }, 15_000);
    socket.on('data', (data) => (received += data.toString('latin1')));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearTimeout(timer);
      const status = /^HTTP\/1\.1 (\d{3})/.exec(received)?.[1];
      if (!status) return resolve({ status: 'raw: no answer', problem: `${timedOut ? 'no answer within 15 s' : 'closed without an answer'} to ${spec.name}` });
      const responses = received.split(/(?=HTTP\/1\.1 \d{3} )/);
      for (const response of responses) {
        const code = Number(/^HTTP\/1\.1 (\d{3})/.exec(response)?.[1]);
        if (code === 500) return resolve({ status: '500', problem: `raw ${spec.name}` });
        if (code >= 400 && !/content-type: application\/problem\+json/i.test(response))
          return resolve({ status: `raw ${code}`, problem: `raw ${spec.name}: error without problem+json` });
      }
      resolve({ status: `raw ${status}` });
    });
    // write, not end: Node drops a request whose client half-closes before the answer.
    socket.on('connect', () => socket.write(Buffer.from(spec.bytes, 'latin1')));
  });
}

describe('HTTP fuzz against the running all-in-one process', () => {
  const config = testConfig();
  const queues = openQueues(config);
  let child: ChildProcess | undefined;
  let output = '';
  const exits: string[] = [];

  afterAll(async () => {
    if (child && child.exitCode === null) {
      child.kill('SIGTERM');
      await waitFor(() => child!.exitCode !== null || child!.signalCode !== null, 'the process to stop', 30_000).catch(() => child!.kill('SIGKILL'));
    }
    await queues.closeAll();
  });

  it(`answers ${REQUESTS} generated requests without a 500 and without the process exiting`, async () => {
    const db = await openDatabase(config);
    const keys = { free: (await createTestAccount(db, 'free')).key, pro: (await createTestAccount(db, 'pro')).key };
    await db.destroy();

    const port = await freePort();
    child = spawn(process.execPath, [join(ROOT, 'dist', 'launcher', 'main.js')], {
      cwd: ROOT,
      env: {
        ...process.env,
        PORT: String(port),
        HOST: '127.0.0.1',
        QUEUE_PREFIX: config.queue.prefix,
        LOG_LEVEL: 'error',
        // Most requests must not be 429.
        RATE_LIMIT_ANONYMOUS: '1000000',
        RATE_LIMIT_FREE: '1000000',
        RATE_LIMIT_PRO: '1000000',
        // Valid previews and audits answer (or 503) quickly, and nothing leaves the machine.
        PREVIEW_BUDGET_MS: '2000',
        DELIVERABILITY_BUDGET_MS: '1000',
        ROUND_TRIP_BUDGET_MS: '2000',
        WORKER_PREVIEW_CONCURRENCY: '1',
        IMAGE_WEIGHT_CHECK: 'off',
        SPAMASSASSIN_HOST: '',
        DNS_SERVERS: '127.0.0.1:9',
        DNS_PROTOCOL: 'http',
        DNS_TIMEOUT_MS: '100',
        DNS_TRIES: '1',
        HTTP_REQUEST_TIMEOUT_MS: '5000',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout?.on('data', (chunk) => (output = (output + String(chunk)).slice(-20_000)));
    child.stderr?.on('data', (chunk) => (output = (output + String(chunk)).slice(-20_000)));
    child.once('exit', (code, signal) => exits.push(`exit ${code ?? signal}`));

    const origin = `http://127.0.0.1:${port}`;
    await waitFor(
      async () =>
        exits.length > 0 ||
        (await fetch(`${origin}/health/ready`).then(
          (r) => r.status === 200,
          () => false,
        )),
      'the all-in-one process to be ready',
      90_000,
      250,
    );
    if (exits.length > 0) throw new Error(`the all-in-one process ended at start (${exits[0]}):\n${output.slice(-4_000)}`);

    const specs = fc.sample(spec(keys), { seed: SEED, numRuns: REQUESTS });
    const pool = new Pool(origin, { connections: CONCURRENCY, pipelining: 1, keepAliveTimeout: 10_000 });
    const histogram = new Map<string, number>();
    const failures: Array<{ index: number; status: string; problem: string; spec: string }> = [];
    const started = Date.now();
    let next = 0;
    const worker = async () => {
      while (next < specs.length && exits.length === 0) {
        const index = next++;
        const item = specs[index];
        const outcome = item.type === 'raw' ? await sendRaw(port, item) : await sendHttp(pool, item);
        histogram.set(outcome.status, (histogram.get(outcome.status) ?? 0) + 1);
        if (outcome.status === '500' || outcome.problem) {
          failures.push({ index, status: outcome.status, problem: outcome.problem ?? '500', spec: describeSpec(item) });
        }
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    await pool.close();
    const seconds = (Date.now() - started) / 1000;

    const sent = [...histogram.values()].reduce((a, b) => a + b, 0);
    const sorted = [...histogram.entries()].sort((a, b) => b[1] - a[1]);
    // The figures the issue asks for: how many, which statuses, which seed.
    console.log(
      [
        `HTTP fuzz: ${sent} requests, seed ${SEED}, ${CONCURRENCY} concurrent, ${seconds.toFixed(1)} s, process exits: ${exits.length}`,
        ...sorted.map(([status, count]) => `  ${status.padEnd(32)} ${count}`),
      ].join('\n'),
    );
    if (failures.length > 0)
      console.log(
        `failures (first 20 of ${failures.length}):\n${failures
          .slice(0, 20)
          .map((f) => JSON.stringify(f))
          .join('\n')}\n--- process output ---\n${output.slice(-8_000)}`,
      );

    expect(exits).toEqual([]);
    expect(sent).toBe(REQUESTS);
    expect(histogram.get('500') ?? 0).toBe(0);
    expect(failures).toEqual([]);
    // Still answering afterwards.
    expect((await fetch(`${origin}/health/live`)).status).toBe(200);
  }, 600_000);
});

function describeSpec(spec: Spec): string {
  if (spec.type === 'raw') return `raw ${spec.name}: ${JSON.stringify(spec.bytes.slice(0, 200))}`;
  const body = spec.body ? bodyBytes(spec.body) : undefined;
  return `${spec.method} ${spec.path.slice(0, 200)} headers=${JSON.stringify(spec.headers).slice(0, 300)} body(${body?.length ?? 0})=${JSON.stringify(body?.subarray(0, 300).toString('utf8') ?? '')}`;
}
