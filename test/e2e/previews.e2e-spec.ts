import type { INestApplicationContext } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import request from 'supertest';
import { decodePreviewResult, encodePreviewResult, isSharedPreviewResult, PreviewRepository, ScreenshotRepository } from '@mailproof/persistence';
import { clientInventorySummary, SOURCES_READ_AT, type ClientId } from '@mailproof/engine';
import { startWorkerPreview } from '../../apps/worker-preview/src/start-worker-preview';
import { startTestApi, type RunningApi } from '../utils/api-server';
import { createTestAccount, openDatabase, testRowCipher } from '../utils/database';
import { activationsByJob, openQueues } from '../utils/queues';
import { testConfig } from '../utils/test-config';

const EMAIL = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Spring sale</title>
<style>.card { display: flex; border-radius: 8px; } @media (prefers-color-scheme: dark) { .card { background: #111; } }</style></head>
<body style="background:#ffffff"><table role="presentation"><tr><td class="card" style="color:#333333;background-color:#ffffff">
Hello <a href="https://example.com/sale?utm_source=mail">see the sale</a></td></tr></table></body></html>`;

describe('POST /api/preview and reading previews back', () => {
  const config = testConfig({ PREVIEW_BUDGET_MS: 15_000 });
  const queues = openQueues(config);
  let api: RunningApi;
  let worker: INestApplicationContext;
  let db: DataSource;
  let account: { accountId: string; key: string };
  let other: { accountId: string; key: string };

  beforeAll(async () => {
    db = await openDatabase(config);
    account = await createTestAccount(db, 'free');
    other = await createTestAccount(db, 'pro');
    worker = await startWorkerPreview(config);
    api = await startTestApi(config);
  });
  afterAll(async () => {
    await api.close();
    await worker.close();
    await queues.closeAll();
    await db.destroy();
  });

  it('analyzes an anonymous email for all 21 clients and returns every report field', async () => {
    const response = await request(api.url).post('/api/preview').send({ html: EMAIL }).expect(200);
    const body = response.body;
    expect(body.id).toMatch(/^prv_[0-9A-Za-z]{24}$/);
    expect(body.transforms).toHaveLength(21);
    expect(Object.keys(body.compatibilityScores)).toHaveLength(21);
    expect(Object.keys(body.darkMode)).toHaveLength(21);
    expect(body.overallScore).toBeGreaterThanOrEqual(0);
    expect(body.overallScore).toBeLessThanOrEqual(100);
    expect(body.cssReport.some((f: { property: string }) => f.property.startsWith('display'))).toBe(true);
    for (const field of [
      'spamReport',
      'sizeReport',
      'linkReport',
      'accessibilityReport',
      'imageReport',
      'inboxPreview',
      'templateReport',
      'overflowReport',
      'visualReport',
      'darkContrast',
      'mobileContrast',
      'designReport',
      'vmlReport',
      'plainText',
    ]) {
      expect(body).toHaveProperty(field);
    }
    // The static quality reports are filled by the engine; the rendered-page reports come with the render worker.
    for (const field of [
      'spamReport',
      'sizeReport',
      'linkReport',
      'accessibilityReport',
      'imageReport',
      'inboxPreview',
      'templateReport',
      'darkContrast',
      'designReport',
      'plainText',
    ]) {
      expect(body[field]).toEqual(expect.any(Object));
    }
    expect(body.overflowReport).toBeNull();
    expect(body.visualReport).toBeNull();
    expect(body.mobileContrast).toBeNull();
    expect(body.vmlReport).toBeNull(); // no Outlook conditional comments in this email
    expect(body.spamReport).toMatchObject({ score: expect.any(Number), level: expect.stringMatching(/^(low|medium|high)$/), triggers: expect.any(Array) });
    expect(body.spamReport).not.toHaveProperty('spamassassin'); // SPAMASSASSIN_HOST is not set here
    expect(body.sizeReport).toMatchObject({ bytes: Buffer.byteLength(EMAIL), clippingRisk: false });
    // example.com is a placeholder host: the link counts as broken.
    expect(body.linkReport).toMatchObject({ total: 1, broken: 1, insecure: 0 });
    expect(body.linkReport.links[0].rules).toContain('placeholder-href');
    expect(body.accessibilityReport.score).toEqual(expect.any(Number));
    expect(body.inboxPreview.subject).toBe('Spring sale');
    expect(Object.keys(body.inboxPreview.clients)).toHaveLength(21);
    expect(Object.keys(body.darkContrast.clients)).toHaveLength(21);
    expect(body.plainText.text).toContain('Hello see the sale <https://example.com/sale?utm_source=mail>');
    expect(body.imageReport).toMatchObject({ total: 0, images: [], notes: [] });
    const again = await request(api.url).get(`/api/preview/${body.id}`).expect(200);
    expect(again.body).toEqual(body);
  });

  it('measures image weights in the worker without failing the preview: a private image address is refused, not fetched', async () => {
    const html = EMAIL.replace(
      'Hello',
      'Hello <img src="http://127.0.0.1:9/logo.png" alt="Logo" width="120"> <img src="http://10.0.0.1/pixel.gif" width="1" height="1" alt="">',
    );
    const response = await request(api.url).post('/api/preview').send({ html }).expect(200);
    const { imageReport } = response.body;
    expect(imageReport.images.map((image: { bytes: number | null }) => image.bytes)).toEqual([null, null]);
    expect(imageReport.notes).toEqual(['1 image URL(s) not requested: they do not point to a public address.']);
    expect(imageReport.totalBytes).toBeNull();
  });

  it('passes compile warnings to the template report', async () => {
    const mjml = '<mjml><mj-body><mj-include path="./footer.mjml" /><mj-section><mj-column><mj-text>Hi</mj-text></mj-column></mj-section></mj-body></mjml>';
    const response = await request(api.url).post('/api/preview').send({ html: mjml, format: 'mjml' }).expect(200);
    expect(response.body.templateReport.format).toBe('mjml');
    expect(response.body.templateReport.issues).toEqual(
      expect.arrayContaining([expect.objectContaining({ rule: 'mjml-validation', message: expect.stringMatching(/mj-include/) })]),
    );
  });

  it('gzips the result for clients that accept gzip but not br (Node fetch over http, Python requests)', async () => {
    const { request: rawRequest } = await import('node:http');
    const { gunzipSync } = await import('node:zlib');
    const created = await request(api.url).post('/api/preview').set('Accept-Encoding', 'identity').send({ html: EMAIL }).expect(200);
    const raw = await new Promise<{ status: number; headers: Record<string, unknown>; body: Buffer }>((resolve, reject) => {
      const req = rawRequest(`${api.url}/api/preview/${created.body.id}`, { headers: { 'accept-encoding': 'gzip, deflate' } }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      });
      req.on('error', reject);
      req.end();
    });
    expect(raw.status).toBe(200);
    expect(raw.headers['content-encoding']).toBe('gzip');
    const json = gunzipSync(raw.body);
    expect(raw.body.length).toBeLessThan(json.length / 5);
    expect(JSON.parse(json.toString('utf8'))).toEqual(created.body);
  });

  /** A GET of the preview with the raw body as it came over the wire (no decoding). */
  const rawGet = async (path: string, acceptEncoding: string) => {
    const { request: rawRequest } = await import('node:http');
    return new Promise<{ status: number; headers: Record<string, unknown>; body: Buffer }>((resolve, reject) => {
      const req = rawRequest(`${api.url}${path}`, { headers: { 'accept-encoding': acceptEncoding } }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      });
      req.on('error', reject);
      req.end();
    });
  };

  it('stores each distinct document and finding once, and answers byte for byte what the whole-JSON store answered', async () => {
    const { brotliDecompressSync } = await import('node:zlib');
    const created = await request(api.url).post('/api/preview').set('Accept-Encoding', 'identity').send({ html: EMAIL }).expect(200);
    const plain = await rawGet(`/api/preview/${created.body.id}`, 'identity');
    expect(plain.headers['content-encoding']).toBeUndefined();
    const { id, ...result } = JSON.parse(plain.body.toString('utf8')) as {
      id: string;
      transforms: Array<{ html: string }>;
      darkMode: Record<string, { html: string }>;
    };
    // The clients share markup: fewer distinct documents than rewritten and dark documents.
    const documents = [...result.transforms.map((transform) => transform.html), ...Object.values(result.darkMode).map((dark) => dark.html)];
    expect(documents).toHaveLength(42);
    expect(new Set(documents).size).toBeLessThan(42);

    // Its analysis left Redis once done (previewAnalyzeJob): nothing of it is kept or trimmed later.
    expect(await queues.preview.getJob(`preview.analyze-${id}`)).toBeUndefined();
    expect((await activationsByJob(queues.preview)).get(`preview.analyze-${id}`)).toBe(1);
    const cipher = testRowCipher(db, config);
    const row = await new PreviewRepository(db, new ScreenshotRepository(db), cipher).find(id);
    expect(isSharedPreviewResult(row!.result!)).toBe(true);
    // The old assembly: the whole response JSON, id first, Brotli-compressed, as results were stored before shared pieces.
    const old = encodePreviewResult(id, result);
    expect(plain.body.equals(decodePreviewResult(old))).toBe(true);
    expect(row!.result!.length).toBeLessThan(old.length * 0.75);
    const brotli = await rawGet(`/api/preview/${id}`, 'br');
    expect(brotli.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(brotli.body).equals(plain.body)).toBe(true);

    // A row stored before shared pieces still reads: the same JSON, and its stored Brotli bytes as they are to br clients.
    const sealed = await cipher.sealBytes({ table: 'previews', column: 'result', rowId: id, accountId: null }, old);
    await db.query('UPDATE previews SET result = $2 WHERE id = $1', [id, sealed]);
    expect((await rawGet(`/api/preview/${id}`, 'identity')).body.equals(plain.body)).toBe(true);
    const oldBrotli = await rawGet(`/api/preview/${id}`, 'br');
    expect(oldBrotli.headers['content-encoding']).toBe('br');
    expect(oldBrotli.body.equals(old)).toBe(true);
  });

  it('sends Brotli to clients that accept br, and plain JSON to the rest', async () => {
    const plain = await request(api.url).post('/api/preview').set('Accept-Encoding', 'identity').send({ html: EMAIL }).expect(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    const compressed = await fetch(`${api.url}/api/preview/${plain.body.id}`, { headers: { 'accept-encoding': 'br' } });
    expect(compressed.status).toBe(200);
    expect(compressed.headers.get('content-encoding')).toBe('br');
    expect(compressed.headers.get('vary')).toMatch(/Accept-Encoding/i);
    expect(await compressed.json()).toEqual(plain.body);
  });

  it('runs only the requested clients', async () => {
    const response = await request(api.url)
      .post('/api/preview')
      .send({ html: EMAIL, clients: ['gmail-web', 'outlook-windows-legacy'] })
      .expect(200);
    expect(response.body.transforms.map((t: { clientId: string }) => t.clientId)).toEqual(['gmail-web', 'outlook-windows-legacy']);
    expect(Object.keys(response.body.darkContrast.clients)).toEqual(['gmail-web', 'outlook-windows-legacy']);
    expect(Object.keys(response.body.inboxPreview.clients)).toEqual(['gmail-web', 'outlook-windows-legacy']);
  });

  it('refuses unknown clients with 400 listing the valid ids', async () => {
    const response = await request(api.url)
      .post('/api/preview')
      .send({ html: EMAIL, clients: ['gmail-web', 'lotus-notes'] })
      .expect(400);
    expect(response.body.code).toBe('validation_failed');
    expect(response.body.errors[0].field).toBe('clients');
    expect(response.body.errors[0].message).toContain('outlook-windows-legacy');
  });

  it('answers 413 for markup over 500 KB counted as UTF-8 bytes, and accepts exactly 500 KB', async () => {
    const tooBig = 'é'.repeat(256_001); // 512,002 bytes, 256,001 characters
    const response = await request(api.url).post('/api/preview').send({ html: tooBig }).expect(413);
    expect(response.body.code).toBe('payload_too_large');
    const atTheLimit = await request(api.url)
      .post('/api/preview')
      .send({ html: 'a'.repeat(512_000), clients: ['gmail-web'] })
      .expect(200);
    expect(atTheLimit.body.id).toMatch(/^prv_/);
  });

  it('validates format and title', async () => {
    const badFormat = await request(api.url).post('/api/preview').send({ html: EMAIL, format: 'docx' }).expect(400);
    expect(badFormat.body.errors[0].field).toBe('format');
    const longTitle = await request(api.url)
      .post('/api/preview')
      .send({ html: EMAIL, title: 'x'.repeat(201) })
      .expect(400);
    expect(longTitle.body.errors[0].field).toBe('title');
    await request(api.url).post('/api/preview').send({}).expect(400);
  });

  it('answers a malformed MJML document with 422 and its message', async () => {
    const response = await request(api.url).post('/api/preview').send({ html: '<p>not mjml at all</p>', format: 'mjml' }).expect(422);
    expect(response.body).toMatchObject({ status: 422, code: 'compile_failed' });
    expect(response.body.detail).toMatch(/mjml/i);
    expect(response.body.id).toMatch(/^prv_/);
    expect(JSON.stringify(response.body)).not.toMatch(/\/work\/|node_modules/);
  });

  it('saves keyed previews to the account with their title, lists and deletes them, and hides them from others', async () => {
    const created = await request(api.url).post('/api/preview').set('x-api-key', account.key).send({ html: EMAIL, title: 'Spring sale v1' }).expect(200);
    const id = created.body.id;
    const list = await request(api.url).get('/api/previews').set('x-api-key', account.key).expect(200);
    expect(list.body).toMatchObject({ page: 1, pageSize: 20, total: 1 });
    expect(list.body.previews[0]).toEqual({
      id,
      title: 'Spring sale v1',
      overallScore: created.body.overallScore,
      status: 'completed',
      createdAt: expect.any(String),
    });
    await request(api.url).get(`/api/preview/${id}`).expect(404);
    await request(api.url).get(`/api/preview/${id}`).set('x-api-key', other.key).expect(404);
    await request(api.url).get(`/api/preview/${id}`).set('x-api-key', account.key).expect(200);
    await request(api.url).delete(`/api/preview/${id}`).set('x-api-key', other.key).expect(404);
    await request(api.url).delete(`/api/preview/${id}`).set('x-api-key', account.key).expect(204);
    await request(api.url).get(`/api/preview/${id}`).set('x-api-key', account.key).expect(404);
  });

  it('paginates the list', async () => {
    const fresh = await createTestAccount(db, 'pro');
    for (let i = 0; i < 3; i++)
      await request(api.url)
        .post('/api/preview')
        .set('x-api-key', fresh.key)
        .send({ html: EMAIL, title: `v${i}`, clients: ['gmail-web'] })
        .expect(200);
    const page2 = await request(api.url).get('/api/previews?page=2&pageSize=2').set('x-api-key', fresh.key).expect(200);
    expect(page2.body).toMatchObject({ page: 2, pageSize: 2, total: 3 });
    expect(page2.body.previews.map((p: { title: string }) => p.title)).toEqual(['v0']);
    await request(api.url).get('/api/previews?pageSize=1000').set('x-api-key', fresh.key).expect(400);
    await request(api.url).get('/api/previews').expect(401);
  });

  it('answers 404 for unknown and malformed ids', async () => {
    await request(api.url).get('/api/preview/prv_000000000000000000000000').expect(404);
    const malformed = await request(api.url).get('/api/preview/not-a-preview-id').expect(404);
    expect(malformed.body.code).toBe('not_found');
    expect((await request(api.url).get('/api/preview/prv_%2e%2e%2f%2e%2e%2fetc%2fpasswd').expect(404)).body.code).toBe('not_found');
  });

  it('stops serving and sharing an anonymous preview once its 24 hours are up, before the cleanup deletes it', async () => {
    const created = await request(api.url)
      .post('/api/preview')
      .send({ html: EMAIL, clients: ['gmail-web'] })
      .expect(200);
    const id = created.body.id as string;
    await request(api.url).get(`/api/preview/${id}`).expect(200);
    await db.query(`UPDATE previews SET expires_at = now() - interval '1 second' WHERE id = $1`, [id]);
    const gone = await request(api.url).get(`/api/preview/${id}`).expect(404);
    expect(gone.body.code).toBe('not_found');
    await request(api.url).post('/api/share').set('x-api-key', account.key).send({ previewId: id }).expect(404);
  });

  it('lists the 21 clients, each with its model (engine, dark model, date checked, behaviors), and the tracked properties', async () => {
    const clients = await request(api.url).get('/api/clients').expect(200);
    expect(clients.body).toHaveLength(21);
    for (const client of clients.body) {
      expect(client).toEqual({
        id: expect.any(String),
        name: expect.any(String),
        category: expect.stringMatching(/^(webmail|desktop|mobile)$/),
        engine: expect.stringMatching(/^(WebKit|Blink|Word|Gecko)$/),
        renderer: expect.stringMatching(/\S/),
        darkMode: expect.any(String),
        darkModel: client.darkMode,
        modelCheckedAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}/),
        behaviors: expect.any(Number),
        inventory: {
          modeled: expect.any(Number),
          notModeled: expect.any(Number),
          notApplicable: expect.any(Number),
          sourcesReadAt: {
            caniemail: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
            emailBugs: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
            vendor: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
          },
        },
      });
      expect(new Date(client.modelCheckedAt).toISOString().slice(0, client.modelCheckedAt.length)).toBe(client.modelCheckedAt);
      expect(client.behaviors).toBeGreaterThan(0);
    }
    const byId = Object.fromEntries(clients.body.map((client: { id: string }) => [client.id, client]));
    expect(byId['outlook-windows-legacy'].engine).toBe('Word');
    expect(byId['apple-mail-ios'].engine).toBe('WebKit');
    expect(byId.thunderbird).toMatchObject({ engine: 'Gecko', darkModel: 'color-removal' });
    // The inventory's counts are the engine's (docs/inventory/); every client with caniemail data has rows.
    for (const client of clients.body.filter((c: { id: string }) => c.id !== 'superhuman')) {
      const { modeled, notModeled, notApplicable } = client.inventory;
      expect([client.id, modeled + notModeled + notApplicable > 0]).toEqual([client.id, true]);
      expect(client.inventory).toEqual({ ...clientInventorySummary(client.id as ClientId), sourcesReadAt: { ...SOURCES_READ_AT } });
    }
    expect(byId['yahoo-mail'].inventory.modeled).toBeGreaterThan(byId['yahoo-mail'].inventory.notModeled);
    const properties = await request(api.url).get('/api/clients/properties').expect(200);
    expect(properties.body.length).toBeGreaterThanOrEqual(298);
  });

  it("lists a client's model: every behavior with its kind, summary and sources; Thunderbird's dark view as written documented but not shown", async () => {
    const listed = (await request(api.url).get('/api/clients').expect(200)).body.find((client: { id: string }) => client.id === 'thunderbird');
    const model = (await request(api.url).get('/api/clients/thunderbird/model').expect(200)).body;
    expect(model).toMatchObject({
      client: 'thunderbird',
      engine: listed.engine,
      renderer: listed.renderer,
      darkModel: listed.darkModel,
      modelCheckedAt: listed.modelCheckedAt,
    });
    expect(model.behaviors).toHaveLength(listed.behaviors);
    const kinds = ['sanitize', 'drop-block', 'rewrite', 'prefix', 'element', 'dark', 'addition'];
    for (const behavior of model.behaviors) {
      expect(Object.keys(behavior).sort()).toEqual(['evidence', 'id', 'kind', 'shown', 'summary']);
      expect(behavior).toEqual({
        id: expect.stringMatching(/^[a-z0-9-]+$/),
        kind: expect.any(String),
        summary: expect.stringMatching(/\S/),
        shown: expect.any(Boolean),
        evidence: expect.any(Array),
      });
      expect(kinds).toContain(behavior.kind);
      expect(behavior.evidence.length).toBeGreaterThan(0);
      for (const evidence of behavior.evidence)
        expect(evidence).toMatchObject({ url: expect.stringMatching(/^https:\/\//), title: expect.any(String), date: expect.stringMatching(/^\d{4}/) });
    }
    const dark = model.behaviors.filter((behavior: { kind: string }) => behavior.kind === 'dark');
    expect(dark.filter((behavior: { shown: boolean }) => behavior.shown)).toHaveLength(1);
    expect(dark.filter((behavior: { shown: boolean }) => !behavior.shown)).toEqual([
      expect.objectContaining({ id: 'thunderbird-dark-as-written', shown: false }),
    ]);
  });

  it('answers an unknown client id with a 404 problem, without a stack trace', async () => {
    for (const id of ['no-such-client', '__proto__', 'GMAIL-WEB']) {
      const response = await request(api.url).get(`/api/clients/${encodeURIComponent(id)}/model`);
      expect(response.status).toBe(404);
      expect(response.headers['content-type']).toBe('application/problem+json');
      expect(response.body).toMatchObject({ status: 404, code: 'not_found', title: expect.any(String), detail: expect.any(String) });
      expect(JSON.stringify(response.body)).not.toMatch(/\/work\/|node_modules|\bat .+\.(js|ts):\d+|stack/i);
    }
  });

  it('documents the client list with its model fields in OpenAPI', async () => {
    const document = (await request(api.url).get('/api/openapi.json').expect(200)).body;
    const list = document.paths['/api/clients'].get.responses['200'].content['application/json'].schema;
    expect(list.type).toBe('array');
    const schema = document.components.schemas[String(list.items.$ref).replace('#/components/schemas/', '')];
    expect(Object.keys(schema.properties)).toEqual(
      expect.arrayContaining(['id', 'name', 'category', 'engine', 'renderer', 'darkMode', 'darkModel', 'modelCheckedAt', 'behaviors', 'inventory']),
    );
    expect(schema.properties.behaviors.type).toBe('number');
    const inventory =
      document.components.schemas[
        String(schema.properties.inventory.$ref ?? schema.properties.inventory.allOf?.[0]?.$ref).replace('#/components/schemas/', '')
      ];
    expect(Object.keys(inventory.properties).sort()).toEqual(['modeled', 'notApplicable', 'notModeled', 'sourcesReadAt']);
    const readAt =
      document.components.schemas[
        String(inventory.properties.sourcesReadAt.$ref ?? inventory.properties.sourcesReadAt.allOf?.[0]?.$ref).replace('#/components/schemas/', '')
      ];
    expect(Object.keys(readAt.properties).sort()).toEqual(['caniemail', 'emailBugs', 'vendor']);
    expect(document.paths['/api/clients/{id}/model'].get).toBeDefined();
  });

  // The OpenAPI document describes the result from the DTO, the worker stores what the analysis thread
  // builds; both come from the contract's PreviewResult type, and this keeps them from drifting at run time.
  it.each([
    ['an html', { html: EMAIL }],
    [
      'an mjml (with compiledHtml)',
      { html: '<mjml><mj-body><mj-section><mj-column><mj-text>Hi</mj-text></mj-column></mj-section></mj-body></mjml>', format: 'mjml' },
    ],
  ])('documents in OpenAPI every top-level key of %s stored result, which has every required property', async (_label, body) => {
    const document = (await request(api.url).get('/api/openapi.json').expect(200)).body;
    const ok = document.paths['/api/preview'].post.responses['200'].content['application/json'].schema;
    expect(document.paths['/api/preview/{id}'].get.responses['200'].content['application/json'].schema).toEqual(ok);
    const schema: { properties: Record<string, unknown>; required: string[] } =
      document.components.schemas[String(ok.$ref).replace('#/components/schemas/', '')];
    const documented = Object.keys(schema.properties);
    // Only these may be missing: screenshots and their notes come with rendering, compiledHtml with compiled formats.
    expect(documented.filter((key) => !schema.required.includes(key)).sort()).toEqual(['compiledHtml', 'screenshotNotes', 'screenshots']);

    const response = await request(api.url).post('/api/preview').send(body).expect(200);
    // The stored result as the repository opens it (the column is sealed: docs/privacy.md).
    const row = await new PreviewRepository(db, new ScreenshotRepository(db), testRowCipher(db, config)).find(response.body.id);
    const stored: Record<string, unknown> = JSON.parse(decodePreviewResult(row!.result!).toString('utf8'));
    if ('format' in body) expect(stored).toHaveProperty('compiledHtml');
    for (const result of [stored, response.body as Record<string, unknown>]) {
      expect(Object.keys(result).filter((key) => !documented.includes(key))).toEqual([]);
      expect(schema.required.filter((key) => !(key in result))).toEqual([]);
    }
  });
});
