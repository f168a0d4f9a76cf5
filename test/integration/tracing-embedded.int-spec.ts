import { execFile } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Redis } from 'ioredis';
import { startOtelTracer } from '@mailproof/tracing/otel-tracer';
import { TraceStore, traceStreamKey, waterfall, type Tracer } from '@mailproof/tracing';

const run = promisify(execFile);
const ROOT = join(__dirname, '..', '..');

describe('tracing: the embedded store (a capped Redis stream) and tracing off', () => {
  const redisUrl = process.env.REDIS_URL!;
  const key = traceStreamKey(process.env.QUEUE_PREFIX!);
  const redis = new Redis(redisUrl);
  let tracing: Tracer;

  beforeAll(() => {
    tracing = startOtelTracer({
      mode: 'embedded',
      serviceName: 'embedded-test',
      sampleRatio: 1,
      otlp: null,
      stream: { key, maxSpans: 100, subjectTtlSeconds: 60 },
      openRedis: () => new Redis(redisUrl),
    });
  });
  afterAll(async () => {
    await tracing.shutdown();
    await redis.del(key, `${key}:subject:preview:prv_embedded`);
    redis.disconnect();
  });

  it('keeps at most TRACING_STREAM_MAX_SPANS spans, the newest; a preview finds its trace and its waterfall', async () => {
    for (let i = 0; i < 250; i++) tracing.startSpan(`filler ${i}`, { parent: 'root' }).end();
    const traceparent = await tracing.inSpan('POST /api/preview', { kind: 'server', parent: 'root' }, async (request) => {
      await tracing.inSpan('job preview.analyze', { kind: 'consumer', attributes: { 'mailproof.preview_id': 'prv_embedded' } }, async () => {
        tracing.record(tracing.activeTraceparent()!, [
          { name: 'engine', startMs: performance.timeOrigin + performance.now(), endMs: performance.timeOrigin + performance.now() + 1 },
        ]);
      });
      return request.traceparent()!;
    });
    await tracing.flush();

    expect(await redis.xlen(key)).toBe(100);
    const store = new TraceStore(redis, key);
    const traceId = await store.traceIdOf('preview', 'prv_embedded');
    expect(traceId).toBe(traceparent.split('-')[1]);
    const spans = await store.spansOf(traceId!);
    expect(spans.map((span) => span.name).sort()).toEqual(['POST /api/preview', 'engine', 'job preview.analyze']);
    const rows = waterfall(spans).rows;
    expect(rows.map((row) => [row.span.name, row.depth])).toEqual([
      ['POST /api/preview', 0],
      ['job preview.analyze', 1],
      ['engine', 2],
    ]);
    // The oldest fillers left the stream; the newest stayed.
    const names = (await redis.xrange(key, '-', '+')).map(([, fields]) => (JSON.parse(fields[3]) as { name: string }).name);
    expect(names).not.toContain('filler 0');
    expect(names).toContain('filler 249');
  });

  it('with TRACING=off the API and the preview worker start without loading the OpenTelemetry SDK or an exporter', async () => {
    // The built apps in a child process: its require cache is the process's own, not jest's. prom-client
    // requires @opentelemetry/api (for exemplars on its CPU metric) whatever Mailproof does, so the API
    // package alone is not counted; the SDK, the context manager and the exporters are.
    const script = `
      const { loadConfig } = require('./dist/libs/config/src');
      const { startApi } = require('./dist/apps/api/src/start-api');
      const { startWorkerPreview } = require('./dist/apps/worker-preview/src/start-worker-preview');
      (async () => {
        const config = loadConfig();
        const apps = [await startWorkerPreview(config), await startApi(config)];
        const loaded = Object.keys(require.cache).filter((file) => file.includes('@opentelemetry') && !file.includes('@opentelemetry/api/')).length;
        for (const app of apps.reverse()) await app.close();
        console.log('OTEL_MODULES=' + loaded);
        process.exit(0);
      })().catch((error) => { console.error(error); process.exit(1); });`;
    const loadedWith = async (tracingMode: string) => {
      const env = { ...process.env, TRACING: tracingMode, PORT: '0', HOST: '127.0.0.1', MIGRATE_ON_START: 'false', LOG_LEVEL: 'silent' };
      const { stdout } = await run(process.execPath, ['-e', script], { cwd: ROOT, env, timeout: 60_000 });
      return Number(/OTEL_MODULES=(\d+)/.exec(stdout)![1]);
    };
    expect(await loadedWith('off')).toBe(0);
    // The same check sees them when tracing is on.
    expect(await loadedWith('on')).toBeGreaterThan(0);
  }, 120_000);

  it('with a collector configured, spans leave over OTLP/HTTP as protobuf by default', async () => {
    const posts: Array<{ path: string; type: string; body: Buffer }> = [];
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        posts.push({ path: String(req.url), type: String(req.headers['content-type']), body: Buffer.concat(chunks) });
        res.writeHead(200).end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      // The exporter loads its transport with a dynamic import, which jest's module runtime cannot run: a plain Node child.
      const script = `
        const { initTracing, shutdownTracing } = require('./dist/libs/tracing/src');
        const tracing = initTracing({ mode: 'otlp', serviceName: 'protobuf-check', sampleRatio: 1,
          otlp: { endpoint: process.env.ENDPOINT, protocol: 'http/protobuf' }, stream: { key: 'unused', maxSpans: 100, subjectTtlSeconds: 60 },
          openRedis: () => { throw new Error('no Redis in OTLP mode'); } });
        tracing.startSpan('protobuf-span-name', { parent: 'root' }).end();
        shutdownTracing().then(() => process.exit(0));`;
      const endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
      await run(process.execPath, ['-e', script], { cwd: ROOT, env: { ...process.env, ENDPOINT: endpoint }, timeout: 30_000 });
      expect(posts).toHaveLength(1);
      expect(posts[0].path).toBe('/v1/traces');
      expect(posts[0].type).toBe('application/x-protobuf');
      // Protobuf strings are their UTF-8 bytes: the span's and the service's names are in the body.
      expect(posts[0].body.includes('protobuf-span-name')).toBe(true);
      expect(posts[0].body.includes('protobuf-check')).toBe(true);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  }, 60_000);
});
