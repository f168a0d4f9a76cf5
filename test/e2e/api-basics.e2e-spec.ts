import request from 'supertest';
import { startTestApi, type RunningApi } from '../utils/api-server';
import { createTestAccount, openDatabase } from '../utils/database';
import { openQueues } from '../utils/queues';
import { testConfig } from '../utils/test-config';

// The API's answers to malformed, oversized and unknown input, and its operational endpoints.
describe('API basics', () => {
  const config = testConfig();
  const queues = openQueues(config);
  let api: RunningApi;
  let key: string;

  beforeAll(async () => {
    const db = await openDatabase(config);
    // The round trip needs a key (any plan); body parsing answers before the key is checked.
    key = (await createTestAccount(db, 'free')).key;
    await db.destroy();
    api = await startTestApi(config);
  });
  afterAll(async () => {
    await api.close();
    await queues.closeAll();
  });

  const expectProblem = (response: request.Response, status: number, code: string) => {
    expect(response.status).toBe(status);
    expect(response.headers['content-type']).toBe('application/problem+json'); // exactly the registered type (RFC 9457), never with a charset
    expect(response.body).toMatchObject({ status, code, type: expect.stringMatching(/^https:\/\//), title: expect.any(String), detail: expect.any(String) });
    expect(JSON.stringify(response.body)).not.toMatch(/\/work\/|node_modules|\bat .+\.(js|ts):\d+/);
  };

  it('answers malformed JSON with 400 invalid_json and no parser internals', async () => {
    const response = await request(api.url).post('/api/diagnostics/round-trip').set('Content-Type', 'application/json').send('{"queue": "preview",');
    expectProblem(response, 400, 'invalid_json');
    expect(response.body.detail).not.toMatch(/position|Unexpected/);
    // Like every 400, it says which field was wrong (errors: [{ field, message }]).
    expect(response.body.errors).toEqual([{ field: 'body', message: expect.any(String) }]);
  });

  it('answers a body that is not JSON with 415', async () => {
    const response = await request(api.url).post('/api/diagnostics/round-trip').set('Content-Type', 'text/plain').send('queue=preview');
    expectProblem(response, 415, 'unsupported_media_type');
  });

  it('answers a 3 MB body with 413 payload_too_large', async () => {
    const body = JSON.stringify({ queue: 'preview', padding: 'x'.repeat(3 * 1024 * 1024) });
    const response = await request(api.url).post('/api/diagnostics/round-trip').set('Content-Type', 'application/json').send(body);
    expectProblem(response, 413, 'payload_too_large');
  });

  it('answers an unknown field with 400 validation_failed listing the field', async () => {
    const response = await request(api.url).post('/api/diagnostics/round-trip').set('x-api-key', key).send({ queue: 'preview', surprise: true });
    expectProblem(response, 400, 'validation_failed');
    expect(response.body.errors).toEqual([{ field: 'surprise', message: 'property surprise should not exist' }]);
  });

  it('answers a wrong value with 400 naming the field', async () => {
    const response = await request(api.url).post('/api/diagnostics/round-trip').set('x-api-key', key).send({ queue: 'nope' });
    expectProblem(response, 400, 'validation_failed');
    expect(response.body.errors[0].field).toBe('queue');
  });

  it('answers unknown routes with 404 not_found', async () => {
    expectProblem(await request(api.url).get('/api/does-not-exist'), 404, 'not_found');
    expectProblem(await request(api.url).delete('/nothing/here'), 404, 'not_found');
  });

  it('stays healthy after all of that', async () => {
    await request(api.url).get('/health/live').expect(200, { status: 'ok' });
  });

  it('echoes a sane X-Request-Id and makes one otherwise', async () => {
    const given = await request(api.url).get('/health/live').set('X-Request-Id', 'abc-123-def-456');
    expect(given.headers['x-request-id']).toBe('abc-123-def-456');
    const made = await request(api.url).get('/health/live').set('X-Request-Id', 'bad id with spaces');
    expect(made.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('serves the OpenAPI document generated from the DTOs, and Swagger UI', async () => {
    const document = await request(api.url).get('/api/openapi.json').expect(200);
    expect(document.body.openapi).toMatch(/^3\./);
    const roundTrip = document.body.paths['/api/diagnostics/round-trip'].post;
    expect(roundTrip.requestBody.content['application/json'].schema.$ref).toMatch(/RoundTripRequest/);
    expect(Object.keys(roundTrip.responses)).toEqual(expect.arrayContaining(['200', '503']));
    expect(document.body.components.schemas.RoundTripRequest.properties.queue.enum).toEqual([
      'preview',
      'render',
      'dns-audit',
      'scheduler',
      'gate',
      'link-check',
      'webhook',
    ]);
    const ui = await request(api.url).get('/api/docs').redirects(1).expect(200);
    expect(ui.text).toMatch(/swagger/i);
  });

  it('answers GET / with a small page pointing to the API docs, readiness and the share pages, each link live', async () => {
    const home = await request(api.url).get('/').expect(200);
    expect(home.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(home.headers['content-security-policy']).toContain("default-src 'none'");
    expect(home.text).toContain('/share/&lt;id&gt;');
    const links = [...home.text.matchAll(/href="([^"]+)"/g)].map((match) => match[1]);
    expect(links).toEqual(expect.arrayContaining(['/api/docs', '/api/openapi.json', '/health/ready', '/api/clients']));
    // Readiness may answer 503 here (no workers run in this suite); what matters is that no link is a 404.
    const statuses = await Promise.all(links.map(async (link) => `${link} ${(await request(api.url).get(link).redirects(1)).status}`));
    expect(statuses.filter((line) => line.endsWith(' 404'))).toEqual([]);
  });

  it('exposes Prometheus metrics: HTTP latency, queue depths, job durations and failures', async () => {
    await request(api.url).get('/health/live');
    const metrics = await request(api.url).get('/metrics').expect(200);
    expect(metrics.headers['content-type']).toMatch(/^text\/plain/);
    expect(metrics.text).toMatch(/mailproof_http_request_duration_seconds_bucket\{[^}]*route="\/health\/live"/);
    expect(metrics.text).toMatch(/mailproof_queue_jobs\{queue="preview",state="waiting"\} \d+/);
    expect(metrics.text).toContain('# TYPE mailproof_job_duration_seconds histogram');
    expect(metrics.text).toContain('# TYPE mailproof_job_failures_total counter');
  });
});
