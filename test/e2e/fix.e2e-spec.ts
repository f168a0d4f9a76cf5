import type { INestApplicationContext } from '@nestjs/common';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv-provider.js';
import { applyPatch } from 'diff';
import request from 'supertest';
import type { DataSource } from 'typeorm';
import { fixRunJob } from '@mailproof/contracts';
import { TOOL_NAMES, TOOL_OUTPUTS } from '@mailproof/mcp';
import { UsageRecorder } from '../../apps/api/src/auth/usage-recorder.service';
import { startWorkerPreview } from '../../apps/worker-preview/src/start-worker-preview';
import { startTestApi, type RunningApi } from '../utils/api-server';
import { createTestAccount, openDatabase } from '../utils/database';
import { connectMcp, textOf } from '../utils/mcp-client';
import { openQueues } from '../utils/queues';
import { testConfig } from '../utils/test-config';

/**
 * A layout table without a role, a tracking pixel without alt, a 3-digit hex and a font stack without
 * a generic family: things the safe tier fixes. Beside them what must survive byte for byte: ESP merge
 * tags of four dialects, a conditional comment (Outlook's ghost table), odd white space and a data table
 * (header cells), which must never get role="presentation".
 */
const EMAIL = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Your order</title></head>
<body style="margin:0">
<!--[if mso]><table role="presentation" width="600"><tr><td><![endif]-->
<table width="100%"  cellpadding="0" cellspacing="0"><tr><td style="color:#333;font-family:Helvetica">
  Hello *|FNAME|*, your order {{ order.id }} ships today. %%=v(@city)=%% {% if vip %}Thanks for staying with us.{% endif %}
  <table><tr><th scope="col">Item</th><th scope="col">Price</th></tr><tr><td>Lamp</td><td>$40</td></tr></table>
  <a href="https://shop.example.com/orders?id={{ order.id }}">Track it</a>
</td></tr></table>
<!--[if mso]></td></tr></table><![endif]-->
<img src="https://t.example.com/open.gif" width="1" height="1">
</body></html>`;

/** React Email JSX: it compiles, and its fixes land in the compiled HTML. */
const JSX_EMAIL = `import { Body, Button, Container, Html, Text } from '@react-email/components';

export default function Welcome() {
  return (
    <Html>
      <Body style={{ backgroundColor: '#fff' }}>
        <Container>
          <Text style={{ color: '#333', fontFamily: 'Helvetica' }}>Welcome aboard.</Text>
          <Button href="https://example.com/start">Get started</Button>
        </Container>
      </Body>
    </Html>
  );
}
`;

/** JSX that does not parse: a compile failure with a line. */
const BROKEN_JSX = `import { Html } from '@react-email/components';
export default function Email() {
  return <Html><p>unclosed</Html>;
}
`;

/** RFC 9457 problem+json with its code, and nothing of the server's insides. */
function expectProblem(response: request.Response, status: number, code: string): void {
  expect(response.status).toBe(status);
  expect(response.headers['content-type']).toBe('application/problem+json');
  expect(response.body).toMatchObject({ status, code, type: expect.stringMatching(/^https:\/\//), title: expect.any(String), detail: expect.any(String) });
  expect(JSON.stringify(response.body)).not.toMatch(/\/work\/|node_modules|\bat .+\.(js|ts):\d+|stack/i);
}

describe('POST /api/fix', () => {
  const config = testConfig({ PREVIEW_BUDGET_MS: 30_000 });
  const queues = openQueues(config);
  let api: RunningApi;
  let worker: INestApplicationContext;
  let db: DataSource;
  let account: { accountId: string; key: string; keyId: string };
  let other: { accountId: string; key: string; keyId: string };
  let mcp: Client;

  beforeAll(async () => {
    db = await openDatabase(config);
    account = await createTestAccount(db, 'free');
    other = await createTestAccount(db, 'pro');
    worker = await startWorkerPreview(config);
    api = await startTestApi(config);
    mcp = await connectMcp(api.url, account.key);
  }, 60_000);
  afterAll(async () => {
    await mcp?.close();
    await api?.close();
    await worker?.close();
    await queues.closeAll();
    await db?.destroy();
  });

  const fix = (body: Record<string, unknown>, key?: string) => {
    const post = request(api.url).post('/api/fix');
    return (key ? post.set('x-api-key', key) : post).send(body);
  };

  describe('an HTML email', () => {
    let answer: Record<string, unknown> & { html: string; diff: string; applied: Array<{ rule: string; line: number; clients: string[] }> };

    beforeAll(async () => {
      const response = await fix({ html: EMAIL });
      expect(response.status).toBe(200);
      answer = response.body;
    }, 60_000);

    it('is described by the OpenAPI document: the request (tiers), the statuses, and every field of the answer', async () => {
      type Schema = { properties?: Record<string, Schema & { items?: Schema; $ref?: string }>; $ref?: string; enum?: string[]; items?: Schema };
      const document = (await request(api.url).get('/api/openapi.json').expect(200)).body as {
        paths: Record<
          string,
          Record<
            string,
            { requestBody?: { content: Record<string, { schema: Schema }> }; responses: Record<string, { content?: Record<string, { schema: Schema }> }> }
          >
        >;
        components: { schemas: Record<string, Schema> };
      };
      const schemaOf = (ref: string | undefined): Schema => document.components.schemas[String(ref).split('/').pop() as string];
      const post = document.paths['/api/fix'].post;
      expect(Object.keys(post.responses)).toEqual(expect.arrayContaining(['200', '400', '413', '422', '503']));
      const requestSchema = schemaOf(post.requestBody?.content['application/json'].schema.$ref);
      expect(Object.keys(requestSchema.properties ?? {})).toEqual(expect.arrayContaining(['html', 'files', 'mjmlValidation', 'format', 'clients', 'tiers']));
      expect(requestSchema.properties?.tiers.items?.enum ?? requestSchema.properties?.tiers.enum).toEqual(['safe', 'layout']);
      const responseSchema = schemaOf(post.responses['200'].content?.['application/json'].schema.$ref);
      // Every field the answer carries is documented, and so is every field of an applied fix.
      expect(Object.keys(responseSchema.properties ?? {})).toEqual(expect.arrayContaining(Object.keys(answer)));
      const appliedSchema = schemaOf(responseSchema.properties?.applied.items?.$ref);
      for (const fixed of answer.applied) expect(Object.keys(appliedSchema.properties ?? {})).toEqual(expect.arrayContaining(Object.keys(fixed)));
      expect(document.paths['/api/fix/{id}'].get.responses['200']).toBeDefined();
    });

    it('answers the patched email, its diff, what was applied and skipped, and the tallies before and after', () => {
      expect(answer).toMatchObject({
        id: expect.stringMatching(/^fix_[0-9A-Za-z]{24}$/),
        format: 'html',
        patched: 'source',
        before: { score: expect.any(Number), errors: expect.any(Number), warnings: expect.any(Number) },
        after: { score: expect.any(Number), errors: expect.any(Number), warnings: expect.any(Number) },
        introduced: [],
        skipped: expect.any(Array),
      });
      expect(answer).not.toHaveProperty('note');
      const rules = answer.applied.map((fixed) => fixed.rule);
      expect(rules).toEqual(expect.arrayContaining(['layout-table-role', 'decorative-image-alt', 'six-digit-hex', 'generic-font-family']));
      for (const fixed of answer.applied) {
        expect(fixed).toEqual({
          id: expect.any(String),
          rule: expect.any(String),
          tier: 'safe',
          clients: expect.any(Array),
          line: expect.any(Number),
          description: expect.any(String),
        });
      }
      const role = answer.applied.find((fixed) => fixed.rule === 'layout-table-role')!;
      expect(role.line).toBe(5);
      expect(role.clients.length).toBeGreaterThan(0);
      expect(answer.html).toContain('<table width="100%"  cellpadding="0" cellspacing="0" role="presentation">');
      expect(answer.html).toContain('<img src="https://t.example.com/open.gif" width="1" height="1" alt="">');
      expect(answer.html).toContain('color:#333333;font-family:Helvetica, sans-serif');
      // The data table was looked at and left alone, with the reason.
      expect(answer.skipped).toContainEqual({ rule: 'layout-table-role', line: 7, reason: expect.stringContaining('data table') });
      // Proven by the analysis of the answer: findings resolved, none added.
      expect(answer.resolved).toMatchObject({ 'layout-table-role': 1 });
      const { before, after } = answer as unknown as Record<'before' | 'after', { errors: number; warnings: number }>;
      expect(after.errors).toBeLessThanOrEqual(before.errors);
      expect(after.warnings).toBeLessThanOrEqual(before.warnings);
    });

    it('changes nothing outside the fixes: merge tags, the conditional comments, white space and the data table stay byte for byte', () => {
      for (const kept of [
        '*|FNAME|*',
        '{{ order.id }} ships today. %%=v(@city)=%% {% if vip %}Thanks for staying with us.{% endif %}',
        '<!--[if mso]><table role="presentation" width="600"><tr><td><![endif]-->',
        '<!--[if mso]></td></tr></table><![endif]-->',
        '<table><tr><th scope="col">Item</th>',
        '<a href="https://shop.example.com/orders?id={{ order.id }}">Track it</a>',
      ]) {
        expect(answer.html).toContain(kept);
      }
      // The diff is a unified diff of exactly this change: applied to the submitted email it gives the answer.
      expect(answer.diff).toMatch(/^Index: email\.html\n/);
      expect(answer.diff).toContain('+<table width="100%"  cellpadding="0" cellspacing="0" role="presentation">');
      expect(applyPatch(EMAIL, answer.diff)).toBe(answer.html);
      // Every line the diff does not name is the submitted line.
      const changed = new Set(
        answer.diff
          .split('\n')
          .filter((line) => line.startsWith('-') && !line.startsWith('---'))
          .map((line) => line.slice(1)),
      );
      const untouched = EMAIL.split('\n').filter((line) => !changed.has(line));
      for (const line of untouched) expect(answer.html.split('\n')).toContain(line);
    });

    it('is idempotent: fixing the answer again applies nothing and changes nothing', async () => {
      const again = await fix({ html: answer.html }).expect(200);
      expect(again.body.applied).toEqual([]);
      expect(again.body.diff).toBe('');
      expect(again.body.html).toBe(answer.html);
      expect(again.body.before).toEqual(answer.after);
    });

    it('keeps the run for GET /api/fix/:id: anonymous runs for anyone with the id', async () => {
      const read = await request(api.url)
        .get(`/api/fix/${answer.id as string}`)
        .expect(200);
      expect(read.body).toEqual(answer);
      await request(api.url).get('/api/fix/fix_000000000000000000000000').expect(404);
      await request(api.url).get('/api/fix/not-an-id').expect(404);
    });

    it('queues fix.run with the run id only, never the email', async () => {
      const job = await queues.preview.getJob(fixRunJob(answer.id as string).jobId);
      expect(job?.name).toBe('fix.run');
      expect(job?.data).toEqual({ schemaVersion: 1, fixRunId: answer.id });
    });
  });

  it('applies only what was asked: tiers and clients', async () => {
    const safe = await fix({ html: EMAIL, tiers: ['safe'], clients: ['outlook-windows-legacy'] }).expect(200);
    const hexFixes = safe.body.applied.filter((fixed: { rule: string }) => fixed.rule === 'six-digit-hex');
    expect(hexFixes.length).toBeGreaterThan(0);
    for (const fixed of safe.body.applied as Array<{ clients: string[]; tier: string }>) {
      expect(fixed.tier).toBe('safe');
      for (const client of fixed.clients) expect(client).toBe('outlook-windows-legacy');
    }
    const withLayout = await fix({ html: EMAIL, tiers: ['safe', 'layout'] }).expect(200);
    expect(withLayout.body.introduced).toEqual([]);
    expect(withLayout.body.html).toContain('*|FNAME|*');
  });

  it('answers a JSX email with the patched compiled HTML and says so', async () => {
    const response = await fix({ html: JSX_EMAIL, format: 'jsx', clients: ['gmail-web', 'outlook-windows-legacy'] }).expect(200);
    expect(response.body).toMatchObject({ format: 'jsx', patched: 'compiled-html', note: expect.stringContaining('compiled HTML'), introduced: [] });
    expect(response.body.applied.length).toBeGreaterThan(0);
    // The engine's framework snippet for a fix passes through: how to write it in the JSX source.
    expect(response.body.applied).toContainEqual(expect.objectContaining({ snippet: expect.objectContaining({ language: 'jsx' }) }));
    expect(response.body.html).toMatch(/^<!DOCTYPE html/i);
    expect(response.body.html).not.toContain('@react-email/components');
    expect(response.body.diff).toContain('+');
  });

  it('answers bad requests with problem+json naming what was wrong, and never a stack', async () => {
    const malformed = await request(api.url).post('/api/fix').set('Content-Type', 'application/json').send('{"html": "<p>x</p>",');
    expectProblem(malformed, 400, 'invalid_json');

    const tooBig = await fix({ html: 'é'.repeat(256_001) });
    expectProblem(tooBig, 413, 'payload_too_large');

    const tier = await fix({ html: EMAIL, tiers: ['safe', 'aggressive'] });
    expectProblem(tier, 400, 'validation_failed');
    expect(tier.body.errors).toEqual([{ field: 'tiers', message: 'each value in tiers must be one of the fix tiers: safe, layout' }]);

    const client = await fix({ html: EMAIL, clients: ['gmail-web', 'lotus-notes'] });
    expectProblem(client, 400, 'validation_failed');
    expect(client.body.errors[0]).toMatchObject({ field: 'clients', message: expect.stringContaining('outlook-windows-legacy') });

    const format = await fix({ html: EMAIL, format: 'docx' });
    expectProblem(format, 400, 'validation_failed');
    expect(format.body.errors[0].field).toBe('format');

    const unknownField = await fix({ html: EMAIL, tier: 'layout' });
    expectProblem(unknownField, 400, 'validation_failed');
    expect(unknownField.body.errors).toEqual([{ field: 'tier', message: 'property tier should not exist' }]);
  });

  it('answers an email that does not compile with 422 compile_failed, its line and the run id', async () => {
    const response = await fix({ html: BROKEN_JSX, format: 'jsx' });
    expectProblem(response, 422, 'compile_failed');
    expect(response.body).toMatchObject({ id: expect.stringMatching(/^fix_/), line: expect.any(Number) });
    // The stored failure answers the same on a later read.
    const read = await request(api.url).get(`/api/fix/${response.body.id as string}`);
    expectProblem(read, 422, 'compile_failed');
  });

  it('answers an email over an engine limit with 413 payload_too_large', async () => {
    const response = await fix({ html: '<div>'.repeat(1_100), clients: ['gmail-web'] });
    expectProblem(response, 413, 'payload_too_large');
    expect(response.body.detail).toMatch(/nest/);
  });

  it("keeps an account's run to that account and counts its requests as usage kind fix", async () => {
    const keyed = await fix({ html: EMAIL, clients: ['gmail-web'] }, account.key).expect(200);
    await request(api.url)
      .get(`/api/fix/${keyed.body.id as string}`)
      .set('x-api-key', account.key)
      .expect(200);
    await request(api.url)
      .get(`/api/fix/${keyed.body.id as string}`)
      .set('x-api-key', other.key)
      .expect(404);
    await request(api.url)
      .get(`/api/fix/${keyed.body.id as string}`)
      .expect(404);
    const stored = await db.query('SELECT account_id, tiers, clients, status FROM fix_runs WHERE id = $1', [keyed.body.id]);
    expect(stored).toEqual([{ account_id: account.accountId, tiers: ['safe'], clients: ['gmail-web'], status: 'completed' }]);

    await api.app.get(UsageRecorder).flush();
    const listed = await request(api.url).get('/api/keys').set('x-api-key', account.key).expect(200);
    // This test's POST and the GET with the account's key (the other key's GET counts for the other account; the listing is counted in the next batch).
    expect(listed.body.keys[0].usage.last30Days.fixes).toBe(2);
  });

  describe('MCP fix_email', () => {
    const outputValidator = new AjvJsonSchemaValidator();

    it('is listed with the other tools', async () => {
      const { tools } = await mcp.listTools();
      expect(tools.map((tool) => tool.name)).toEqual(TOOL_NAMES);
      expect(tools.map((tool) => tool.name)).toContain('fix_email');
      const fixTool = tools.find((tool) => tool.name === 'fix_email')!;
      expect((fixTool.inputSchema.properties as Record<string, { items?: { enum?: string[] } }>).tiers.items?.enum).toEqual(['safe', 'layout']);
    });

    it('answers the fix POST /api/fix answers, valid against its output schema', async () => {
      const result = await mcp.callTool({ name: 'fix_email', arguments: { html: EMAIL, clients: ['gmail-web', 'outlook-windows-legacy'] } });
      expect(result.isError).toBeFalsy();
      const structured = result.structuredContent as { id: string; html: string; applied: Array<{ rule: string }>; patched: string };
      expect(outputValidator.getValidator(TOOL_OUTPUTS.fix_email as never)(structured).errorMessage).toBeUndefined();
      expect(textOf(result)).toEqual(structured);
      expect(structured.id).toMatch(/^fix_/);
      expect(structured.patched).toBe('source');
      expect(structured.applied.map((fixed) => fixed.rule)).toContain('layout-table-role');
      expect(structured.html).toContain('*|FNAME|*');
      // The same run, read over HTTP.
      const read = await request(api.url).get(`/api/fix/${structured.id}`).set('x-api-key', account.key).expect(200);
      expect(read.body).toEqual(structured);
    });

    it('answers a compile failure as a tool error and an unknown tier as a protocol error naming it', async () => {
      const broken = await mcp.callTool({ name: 'fix_email', arguments: { html: BROKEN_JSX, format: 'jsx' } });
      expect(broken.isError).toBe(true);
      expect(textOf(broken)).toMatchObject({ code: 'compile_failed', line: expect.any(Number), id: expect.stringMatching(/^fix_/) });
      const error = await mcp
        .callTool({ name: 'fix_email', arguments: { html: EMAIL, tiers: ['bold'] } })
        .catch((thrown: { code: number; message: string }) => thrown);
      expect(error).toMatchObject({ code: -32602 });
      expect((error as { message: string }).message).toContain('tiers');
    });
  });
});
