import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import type { DataSource } from 'typeorm';
import { startAppProcess, type AppProcess } from '../utils/app-process';
import { createTestAccount, openDatabase } from '../utils/database';
import { freePort } from '../utils/free-port';
import { openQueues } from '../utils/queues';
import { testConfig } from '../utils/test-config';
import { waitFor } from '../utils/wait';
import { queuePrefixVariable, startWorkerPreview } from '../utils/worker-preview';

/** A span as an OTLP/HTTP JSON export carries it, flattened with its service. */
interface ReceivedSpan {
  service: string;
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  attributes: Record<string, unknown>;
  links: Array<{ traceId: string; spanId: string }>;
}

type OtlpValue = { stringValue?: string; intValue?: string | number; boolValue?: boolean; doubleValue?: number };
type OtlpAttribute = { key: string; value: OtlpValue };
interface OtlpExport {
  resourceSpans: Array<{
    resource: { attributes: OtlpAttribute[] };
    scopeSpans: Array<{
      spans: Array<{
        traceId: string;
        spanId: string;
        parentSpanId?: string;
        name: string;
        attributes?: OtlpAttribute[];
        links?: Array<{ traceId: string; spanId: string }>;
      }>;
    }>;
  }>;
}

function valueOf(value: OtlpValue): unknown {
  return value.stringValue ?? value.intValue ?? value.boolValue ?? value.doubleValue;
}

/** A collector on loopback: it keeps every span posted to /v1/traces (OTLP/HTTP with JSON). */
async function startOtlpReceiver(): Promise<{ server: Server; url: string; spans: ReceivedSpan[]; contentTypes: string[] }> {
  const spans: ReceivedSpan[] = [];
  const contentTypes: string[] = [];
  const server = createServer((req: IncomingMessage, res) => {
    let body = '';
    req.on('data', (chunk) => (body += String(chunk)));
    req.on('end', () => {
      contentTypes.push(String(req.headers['content-type']));
      if (req.url === '/v1/traces') {
        const exported = JSON.parse(body) as OtlpExport;
        for (const resourceSpans of exported.resourceSpans) {
          const service = String(valueOf(resourceSpans.resource.attributes.find((a) => a.key === 'service.name')!.value));
          for (const scope of resourceSpans.scopeSpans) {
            for (const span of scope.spans) {
              spans.push({
                service,
                traceId: span.traceId,
                spanId: span.spanId,
                parentSpanId: span.parentSpanId || undefined,
                name: span.name,
                attributes: Object.fromEntries((span.attributes ?? []).map((a) => [a.key, valueOf(a.value)])),
                links: span.links ?? [],
              });
            }
          }
        }
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, spans, contentTypes };
}

/** The chain from a span up to its trace's root, by parent ids among the received spans. */
function ancestry(spans: ReceivedSpan[], span: ReceivedSpan): ReceivedSpan[] {
  const chain = [span];
  for (let at = span; at.parentSpanId;) {
    const parent = spans.find((candidate) => candidate.spanId === at.parentSpanId && candidate.traceId === at.traceId);
    if (!parent) break;
    chain.push(parent);
    at = parent;
  }
  return chain;
}

const SECRET_TEXT = 'Confidential launch of Project Bluebird';
const ADDRESS = 'ceo.private@example.org';
const EMAIL = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${SECRET_TEXT}</title></head>
<body><table role="presentation"><tr><td>${SECRET_TEXT}. Write to <a href="mailto:${ADDRESS}">${ADDRESS}</a></td></tr></table></body></html>`;

/** Every attribute name the code may set (libs/tracing TraceAttribute) or the SDK sets itself. */
const ALLOWED_ATTRIBUTE =
  /^(http\.(request\.method|route|response\.status_code)|messaging\.(system|destination\.name|operation\.type|message\.id)|mailproof\.[a-z_.]+|error\.type)$/;

// The API and the worker run as built processes, each with its own tracer exporting to the receiver: the
// trace is connected only if the context really crossed Redis. (The OTLP exporter also cannot run inside
// jest's module runtime: it loads its transport with a dynamic import.)
describe('tracing: one connected trace per request from the API to the worker, over OTLP/HTTP', () => {
  let receiver: Awaited<ReturnType<typeof startOtlpReceiver>>;
  let config: ReturnType<typeof testConfig>;
  let queues: ReturnType<typeof openQueues>;
  let api: AppProcess;
  let apiUrl: string;
  let worker: AppProcess;
  let db: DataSource;
  let key: string;

  beforeAll(async () => {
    receiver = await startOtlpReceiver();
    const tracing = { TRACING: 'on', OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' };
    config = testConfig({ ...tracing, PREVIEW_BUDGET_MS: 20_000, GATE_BUDGET_MS: 20_000 });
    queues = openQueues(config);
    db = await openDatabase(config);
    key = (await createTestAccount(db, 'pro')).key;
    worker = await startWorkerPreview(config, queues, tracing, ['preview', 'gate', 'link-check']);
    const port = await freePort();
    apiUrl = `http://127.0.0.1:${port}`;
    api = startAppProcess('api', { ...tracing, PORT: String(port), HOST: '127.0.0.1', QUEUE_PREFIX: queuePrefixVariable(config), MIGRATE_ON_START: 'false' });
    await waitFor(async () => (await fetch(`${apiUrl}/health/live`).catch(() => null))?.ok, 'the API process to answer', 30_000, 200);
  });
  afterAll(async () => {
    await api?.stop();
    await worker?.stop();
    await queues?.closeAll();
    await db?.destroy();
    await new Promise((resolve) => receiver?.server.close(resolve));
  });

  /** Waits until the trace of the request span that named `subject` holds a span named `name` from the worker. */
  async function traceOf(attribute: string, subject: string, workerSpan: string): Promise<ReceivedSpan[]> {
    return waitFor(
      async () => {
        const named = receiver.spans.find((span) => span.attributes[attribute] === subject && span.service === 'mailproof-worker-preview');
        if (!named) return undefined;
        const trace = receiver.spans.filter((span) => span.traceId === named.traceId);
        return trace.some((span) => span.name === workerSpan) && trace.some((span) => span.service === 'mailproof-api') ? trace : undefined;
      },
      `the trace of ${subject} with ${workerSpan}`,
      30_000,
      200,
    );
  }

  it('a preview: the request span is the root, the job and its compile, analysis and store spans hang under it', async () => {
    const response = await request(apiUrl).post('/api/preview').set('x-api-key', key).send({ html: EMAIL }).expect(200);
    const trace = await traceOf('mailproof.preview_id', response.body.id, 'store');

    const roots = trace.filter((span) => !span.parentSpanId);
    expect(roots).toHaveLength(1);
    expect(roots[0]).toMatchObject({ service: 'mailproof-api', name: 'POST /api/preview' });
    expect(roots[0].attributes['http.response.status_code']).toBe(200);

    const job = trace.find((span) => span.name === 'job preview.analyze')!;
    expect(job.service).toBe('mailproof-worker-preview');
    expect(job.attributes['mailproof.job.attempt']).toBe(1);
    // Connected: the worker's spans reach the API's request span by parent ids alone.
    for (const name of ['compile', 'analysis', 'engine', 'encode', 'store']) {
      const span = trace.find((candidate) => candidate.name === name);
      expect(span).toBeDefined();
      const chain = ancestry(trace, span!);
      expect(chain).toContain(job);
      expect(chain[chain.length - 1]).toBe(roots[0]);
    }
    expect(ancestry(trace, job).map((span) => span.name)).toEqual(['job preview.analyze', 'enqueue preview.analyze', 'POST /api/preview']);
  });

  it('a gate run: its steps are jobs of the same trace as the request', async () => {
    const response = await request(apiUrl).post('/api/gate').set('x-api-key', key).send({ html: EMAIL }).expect(200);
    const trace = await traceOf('mailproof.gate_run_id', response.body.runId, 'job gate.verdict');
    const root = trace.find((span) => !span.parentSpanId)!;
    expect(root.name).toBe('POST /api/gate');
    for (const step of ['job preview.analyze', 'job gate.verdict']) {
      const span = trace.find((candidate) => candidate.name === step)!;
      expect(ancestry(trace, span).pop()).toBe(root);
    }
  });

  it('no span carries the email, an address or the key, and attribute names come from the closed list', async () => {
    // Both processes flush what they hold when they stop.
    await api.stop();
    await worker.stop();
    expect(receiver.spans.filter((span) => span.service === 'mailproof-api').length).toBeGreaterThanOrEqual(2);
    expect(receiver.spans.length).toBeGreaterThan(10);
    // The health probes this test made while the API started are not traced.
    expect(receiver.spans.filter((span) => String(span.attributes['http.route'] ?? '').startsWith('/health'))).toEqual([]);
    const everything = JSON.stringify(receiver.spans);
    expect(everything).not.toContain('Bluebird');
    expect(everything).not.toContain(ADDRESS);
    expect(everything).not.toContain(key);
    expect(everything).not.toContain(key.slice(-12));
    for (const span of receiver.spans) for (const name of Object.keys(span.attributes)) expect(name).toMatch(ALLOWED_ATTRIBUTE);
    expect(new Set(receiver.contentTypes)).toEqual(new Set(['application/json']));
  });
});

// OpenTelemetry's convention: OTEL_EXPORTER_OTLP_ENDPOINT alone (TRACING unset) turns OTLP export on; only
// TRACING=off keeps it off. A setting that silently sent nothing was the defect (issue 39).
describe('tracing: OTEL_EXPORTER_OTLP_ENDPOINT with TRACING unset exports to the collector', () => {
  let receiver: Awaited<ReturnType<typeof startOtlpReceiver>>;
  let api: AppProcess;
  let apiUrl: string;
  let db: DataSource;
  let key: string;

  beforeAll(async () => {
    expect(process.env.TRACING).toBeUndefined();
    receiver = await startOtlpReceiver();
    const config = testConfig({});
    db = await openDatabase(config);
    key = (await createTestAccount(db, 'pro')).key;
    const port = await freePort();
    apiUrl = `http://127.0.0.1:${port}`;
    api = startAppProcess('api', {
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      LOG_LEVEL: 'info',
      PORT: String(port),
      HOST: '127.0.0.1',
      QUEUE_PREFIX: queuePrefixVariable(config),
      MIGRATE_ON_START: 'false',
    });
    await waitFor(async () => (await fetch(`${apiUrl}/health/live`).catch(() => null))?.ok, 'the API process to answer', 30_000, 200);
  });
  afterAll(async () => {
    await api?.stop();
    await db?.destroy();
    await new Promise((resolve) => receiver?.server.close(resolve));
  });

  it("sends the request's span to the endpoint, and says at start where spans go", async () => {
    await request(apiUrl).get('/api/preview/00000000-0000-4000-8000-000000000000').set('x-api-key', key).expect(404);
    // The API flushes what it holds when it stops.
    await api.stop();
    const span = receiver.spans.find((candidate) => candidate.service === 'mailproof-api' && candidate.name === 'GET /api/preview/:id');
    expect(span?.attributes['http.response.status_code']).toBe(404);
    expect(api.output()).toContain(`tracing: spans to ${receiver.url} over OTLP/HTTP (http/json)`);
  });
});
