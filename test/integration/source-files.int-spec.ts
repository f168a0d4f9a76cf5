import request from 'supertest';
import type { DataSource } from 'typeorm';
import type { AppProcess } from '../utils/app-process';
import { startTestApi, type RunningApi } from '../utils/api-server';
import { createTestAccount, openDatabase } from '../utils/database';
import { openQueues } from '../utils/queues';
import { testConfig } from '../utils/test-config';
import { startWorkerPreview } from '../utils/worker-preview';

/**
 * `files` beside `html` end to end: the API in-process validates and stores them, a real worker-preview
 * process compiles the email with them in its sandbox. Run `npm run build` first.
 */
const NEWSLETTER = `<mjml>
  <mj-body>
    <mj-include path="./partials/header.mjml" />
    <mj-section>
      <mj-column>
        <mj-text>This month at Acme</mj-text>
      </mj-column>
    </mj-section>
  </mj-body>
</mjml>`;

const HEADER = `<mj-section>
  <mj-column>
    <mj-text font-size="13">Acme Monthly</mj-text>
  </mj-column>
</mj-section>`;

const RECEIPT = `import { Html, Text } from '@react-email/components';
import { Footer } from '../ui/Footer';

export default function Receipt() {
  return (
    <Html lang="en">
      <Text>Thanks for your order.</Text>
      <Footer />
    </Html>
  );
}
`;

const FOOTER = `import { Text } from '@react-email/components';
export function Footer() {
  return <Text className="footer">Acme Rockets, 1 Launch Way</Text>;
}
`;

describe('files beside html (POST /api/preview, POST /api/gate)', () => {
  const config = testConfig({ PREVIEW_BUDGET_MS: 20_000, GATE_BUDGET_MS: 20_000 });
  const queues = openQueues(config);
  let api: RunningApi;
  let db: DataSource;
  let worker: AppProcess;
  let pro: string;

  beforeAll(async () => {
    db = await openDatabase(config);
    api = await startTestApi(config);
    worker = await startWorkerPreview(config, queues, {}, ['preview', 'gate']);
    pro = (await createTestAccount(db, 'pro')).key;
  }, 60_000);

  afterAll(async () => {
    await worker?.stop('SIGKILL');
    await api?.close();
    await queues.closeAll();
    await db?.destroy();
  });

  const preview = (body: Record<string, unknown>) => request(api.url).post('/api/preview').send(body);

  it('compiles MJML with its mj-include, and reports validation inside the partial as a warning at the include', async () => {
    const response = await preview({ html: NEWSLETTER, format: 'mjml', files: { 'partials/header.mjml': HEADER } }).expect(200);
    expect(response.body.compiledHtml).toContain('Acme Monthly');
    expect(response.body.templateReport.issues).toContainEqual(
      expect.objectContaining({
        rule: 'mjml-validation',
        severity: 'warning',
        line: 3,
        message: expect.stringMatching(/^partials\/header\.mjml line 3: <mj-text>: Attribute font-size/),
      }),
    );
  });

  it('strict MJML validation on request refuses the email (422) at the line', async () => {
    const response = await preview({ html: NEWSLETTER, format: 'mjml', files: { 'partials/header.mjml': HEADER }, mjmlValidation: 'strict' }).expect(422);
    expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(response.body).toMatchObject({ code: 'compile_failed', line: 3 });
  });

  it('compiles JSX with its local component, and refuses a missing one at the import line', async () => {
    const ok = await preview({ html: RECEIPT, format: 'jsx', files: { '../ui/Footer.tsx': FOOTER } }).expect(200);
    expect(ok.body.compiledHtml).toContain('Acme Rockets, 1 Launch Way');
    const missing = await preview({ html: RECEIPT, format: 'jsx' }).expect(422);
    expect(missing.body).toMatchObject({
      code: 'compile_failed',
      line: 2,
      column: 24,
      detail: expect.stringContaining('Import of "../ui/Footer" is not among the files'),
    });
  });

  it('places findings in the submitted source, with the compiled position beside them', async () => {
    const source = RECEIPT.replace('      <Text>Thanks for your order.</Text>', "      <Text style={{ display: 'flex' }}>Thanks for your order.</Text>");
    const response = await preview({ html: source, format: 'jsx', files: { '../ui/Footer.tsx': FOOTER }, clients: ['outlook-windows-legacy'] }).expect(200);
    const flex = response.body.cssReport.find((finding: { property: string }) => finding.property === 'display:flex');
    expect(flex).toMatchObject({ line: 7, column: 7, compiledLine: 1, compiledColumn: expect.any(Number) });
    // The compiled position is the style attribute that holds it, in compiledHtml.
    expect(response.body.compiledHtml.slice(flex.compiledColumn - 1)).toMatch(/^style="[^"]*display:flex/);
  });

  it('answers bad files with 400 naming the field, and files over the total with 413', async () => {
    const badKey = await preview({ html: RECEIPT, format: 'jsx', files: { '/etc/passwd': 'x' } }).expect(400);
    expect(badKey.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(badKey.body).toMatchObject({
      code: 'validation_failed',
      errors: [{ field: 'files', message: expect.stringContaining('"/etc/passwd" must be a relative path') }],
    });
    const notString = await preview({ html: RECEIPT, format: 'jsx', files: { 'a.tsx': 1 } }).expect(400);
    expect(notString.body.errors).toEqual([{ field: 'files', message: 'files["a.tsx"] must be a string (the file\'s source)' }]);
    const notObject = await preview({ html: RECEIPT, format: 'jsx', files: ['a.tsx'] }).expect(400);
    expect(notObject.body.errors[0]).toMatchObject({ field: 'files' });
    const badLevel = await preview({ html: NEWSLETTER, format: 'mjml', mjmlValidation: 'lenient' }).expect(400);
    expect(badLevel.body.errors[0]).toMatchObject({ field: 'mjmlValidation' });

    const tooLarge = await preview({ html: 'x'.repeat(300_000), format: 'jsx', files: { 'big.tsx': 'y'.repeat(300_000) } }).expect(413);
    expect(tooLarge.body).toMatchObject({
      code: 'payload_too_large',
      errors: [{ field: 'files', message: 'html and files are 600000 bytes together; the limit is 512000' }],
    });
  });

  it('documents files and mjmlValidation in OpenAPI for both requests', async () => {
    const { components } = (await request(api.url).get('/api/openapi.json').expect(200)).body;
    for (const name of ['PreviewRequest', 'GateRequest']) {
      expect(components.schemas[name].properties.files).toMatchObject({ type: 'object', additionalProperties: { type: 'string' } });
      expect(components.schemas[name].properties.mjmlValidation).toMatchObject({ enum: ['soft', 'strict'], default: 'soft' });
    }
  });

  it('the gate compiles html with its files; files with url are refused', async () => {
    const gate = (body: Record<string, unknown>) => request(api.url).post('/api/gate').set('Authorization', `Bearer ${pro}`).send(body);
    const verdict = await gate({
      html: RECEIPT,
      format: 'jsx',
      files: { '../ui/Footer.tsx': FOOTER },
      checks: ['compatibility'],
      threshold: 0,
      failOnError: false,
    }).expect(200);
    expect(verdict.body).toMatchObject({ passed: true, previewId: expect.any(String) });
    const stored = await request(api.url).get(`/api/preview/${verdict.body.previewId}`).set('Authorization', `Bearer ${pro}`).expect(200);
    expect(stored.body.compiledHtml).toContain('Acme Rockets, 1 Launch Way');

    const withUrl = await gate({ url: 'https://example.org/email', files: { 'a.html': 'x' } }).expect(400);
    expect(withUrl.body.errors).toEqual([{ field: 'files', message: expect.stringContaining('files go with html') }]);
  });
});
