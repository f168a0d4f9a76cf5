import { brotliDecompressSync } from 'node:zlib';
import request from 'supertest';
import type { DataSource } from 'typeorm';
import { FixRunRepository } from '@mailproof/persistence';
import type { AppProcess } from '../utils/app-process';
import { startTestApi, type RunningApi } from '../utils/api-server';
import { openDatabase, testRowCipher } from '../utils/database';
import { openQueues } from '../utils/queues';
import { testConfig } from '../utils/test-config';
import { startWorkerPreview } from '../utils/worker-preview';

/**
 * POST /api/fix against a built worker-preview process, where fixEmail runs in a thread of the analysis
 * pool (piscina's `fix` task) and MJML compiles in the sandbox's compile processes with its `files`.
 * Run `npm run build` first.
 */
const EMAIL = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Receipt</title></head>
<body><table width="600"><tr><td style="color:#a11;font-family:Georgia">Thanks, {{ first_name }}.</td></tr></table></body></html>`;

/** MJML whose one fix is a value the template writes once (a 3-digit hex in mj-style), beside an mj-include the files carry. */
const NEWSLETTER = `<mjml>
  <mj-head>
    <mj-raw><meta name="x-apple-disable-message-reformatting"></mj-raw>
    <mj-style>.note { color: #abc; }</mj-style>
  </mj-head>
  <mj-body>
    <mj-include path="./partials/header.mjml" />
    <mj-section>
      <mj-column>
        <mj-text css-class="note">This month at Acme</mj-text>
      </mj-column>
    </mj-section>
  </mj-body>
</mjml>`;

const HEADER = `<mj-section>
  <mj-column>
    <mj-text font-size="13px">Acme Monthly</mj-text>
  </mj-column>
</mj-section>`;

describe('POST /api/fix through a worker-preview process', () => {
  const config = testConfig({ PREVIEW_BUDGET_MS: 30_000 });
  const queues = openQueues(config);
  let api: RunningApi;
  let db: DataSource;
  let worker: AppProcess;

  beforeAll(async () => {
    db = await openDatabase(config);
    api = await startTestApi(config);
    worker = await startWorkerPreview(config, queues);
  }, 60_000);
  afterAll(async () => {
    await worker?.stop();
    await api?.close();
    await queues.closeAll();
    await db?.destroy();
  });

  it('fixes an HTML email in an analysis thread and sends the stored answer as it is to a client that takes br', async () => {
    const response = await fetch(`${api.url}/api/fix`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'accept-encoding': 'br' },
      body: JSON.stringify({ html: EMAIL, clients: ['gmail-web', 'outlook-windows-legacy'] }),
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-encoding')).toBe('br');
    // fetch decodes the Brotli body; what PostgreSQL stores is compared with it below.
    const answer = await response.json();
    expect(answer).toMatchObject({ id: expect.stringMatching(/^fix_/), format: 'html', patched: 'source', introduced: [] });
    expect(answer.applied.map((fix: { rule: string }) => fix.rule)).toEqual(
      expect.arrayContaining(['layout-table-role', 'six-digit-hex', 'generic-font-family']),
    );
    expect(answer.html).toContain(
      '<table width="600" role="presentation"><tr><td style="color:#aa1111;font-family:Georgia, serif">Thanks, {{ first_name }}.</td>',
    );

    // What PostgreSQL holds is that answer: the row is completed, its result the same bytes.
    const row = await new FixRunRepository(db, testRowCipher(db, config)).find(answer.id as string);
    expect(row?.status).toBe('completed');
    expect(row?.failure).toBeNull();
    expect(JSON.parse(brotliDecompressSync(row!.result!).toString('utf8'))).toEqual(answer);

    // A client that takes no encoding gets the same answer as plain JSON.
    const plain = await request(api.url)
      .get(`/api/fix/${answer.id as string}`)
      .set('Accept-Encoding', 'identity')
      .expect(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toEqual(answer);
  });

  it('compiles MJML with its files and writes the fix into the template itself', async () => {
    const response = await request(api.url)
      .post('/api/fix')
      .send({ html: NEWSLETTER, format: 'mjml', files: { './partials/header.mjml': HEADER }, clients: ['gmail-web'] })
      .expect(200);
    expect(response.body).toMatchObject({ format: 'mjml', patched: 'source', introduced: [] });
    expect(response.body).not.toHaveProperty('note');
    expect(response.body.applied.map((fix: { rule: string }) => fix.rule)).toEqual(['six-digit-hex']);
    expect(response.body.html).toBe(NEWSLETTER.replace('#abc;', '#aabbcc;'));
    expect(response.body.diff).toContain('+    <mj-style>.note { color: #aabbcc; }</mj-style>');
  });

  it('stores a template that does not compile as compile_failed (422 with its line)', async () => {
    const response = await request(api.url).post('/api/fix').send({ html: '<p>not mjml at all</p>', format: 'mjml' }).expect(422);
    expect(response.body).toMatchObject({ code: 'compile_failed', id: expect.stringMatching(/^fix_/) });
    const [row] = await db.query('SELECT status, failure FROM fix_runs WHERE id = $1', [response.body.id]);
    expect(row).toMatchObject({ status: 'failed', failure: { code: 'compile_failed' } });
  });
});
