import type { INestApplicationContext } from '@nestjs/common';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { Client as McpClient } from '@modelcontextprotocol/sdk/client/index.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv-provider.js';
import { join } from 'node:path';
import request from 'supertest';
import type { DataSource } from 'typeorm';
import { TOOL_NAMES, TOOL_OUTPUTS, type ToolName } from '@mailproof/mcp';
import { startWorkerDns } from '../../apps/worker-dns/src/start-worker-dns';
import { BROKEN_JSX, CLEAN_EMAIL, CLEAN_MESSAGE, WORSE_EMAIL } from '../fixtures/mcp/emails';
import { startTestApi, type RunningApi } from '../utils/api-server';
import { createTestAccount, openDatabase } from '../utils/database';
import { connectMcp, textOf } from '../utils/mcp-client';
import { openQueues } from '../utils/queues';
import { testConfig } from '../utils/test-config';
import { waitFor } from '../utils/wait';
import { startAppProcess, type AppProcess } from '../utils/app-process';
import { startWorkerPreview } from '../utils/worker-preview';

/**
 * POST /api/mcp end to end with the SDK's own client: the API in-process, a real worker-preview
 * process (previews and the gate), worker-dns in-process against a resolver that does not answer
 * (every DNS audit is inconclusive, on both paths alike), PostgreSQL and Redis.
 */
interface OpenApiSchema {
  type?: string;
  properties?: Record<string, OpenApiSchema>;
  required?: string[];
  items?: OpenApiSchema;
  enum?: unknown[];
  default?: unknown;
  minimum?: number;
  maximum?: number;
  maxLength?: number;
}

describe('POST /api/mcp', () => {
  // capture_screenshots waits for its render: the first one launches Chromium, which on a fresh machine's
  // cold disk takes longer than the default 3 s wait (then the answer is a correct `pending`, not the test's point).
  const config = testConfig({
    DNS_SERVERS: '127.0.0.1:9',
    DNS_PROTOCOL: 'http',
    DNS_TIMEOUT_MS: 300,
    DNS_TRIES: 1,
    GATE_BUDGET_MS: 15_000,
    PREVIEW_BUDGET_MS: 15_000,
    PREVIEW_RENDER_WAIT_MS: 20_000,
  });
  const queues = openQueues(config);
  const outputValidator = new AjvJsonSchemaValidator();
  let api: RunningApi;
  let db: DataSource;
  let worker: AppProcess;
  let renderWorker: AppProcess;
  let dnsWorker: INestApplicationContext;
  let pro: { accountId: string; key: string; keyId: string };
  let free: { accountId: string; key: string; keyId: string };
  let client: Client;
  let freeClient: Client;

  beforeAll(async () => {
    db = await openDatabase(config);
    api = await startTestApi(config);
    worker = await startWorkerPreview(config, queues, {}, ['preview', 'gate', 'link-check']);
    renderWorker = startAppProcess('worker-render', { QUEUE_PREFIX: config.queue.prefix, MIGRATE_ON_START: 'false', RENDER_IMAGES: 'false' });
    await waitFor(async () => (await queues.render.getWorkersCount()) > 0, 'the worker-render process to consume render', 30_000);
    dnsWorker = await startWorkerDns(config);
    pro = await createTestAccount(db, 'pro');
    free = await createTestAccount(db, 'free');
    client = await connectMcp(api.url, pro.key);
    freeClient = await connectMcp(api.url, free.key);
  }, 90_000);

  afterAll(async () => {
    await client?.close();
    await freeClient?.close();
    await worker?.stop('SIGKILL');
    await renderWorker?.stop();
    await dnsWorker?.close();
    await api?.close();
    await queues.closeAll();
    await db?.destroy();
  });

  const http = (method: 'post' | 'get', path: string, key = pro.key) => request(api.url)[method](path).set('Authorization', `Bearer ${key}`);

  /** Calls a tool and checks its result: structured content valid against the tool's output schema, and the same JSON as text. */
  async function call(name: ToolName, args: Record<string, unknown>, on = client): Promise<Record<string, unknown>> {
    const result = await on.callTool({ name, arguments: args });
    expect(result.isError).toBeFalsy();
    const structured = result.structuredContent as Record<string, unknown>;
    const validation = outputValidator.getValidator(TOOL_OUTPUTS[name] as never)(structured);
    expect(validation.errorMessage).toBeUndefined();
    expect(textOf(result)).toEqual(structured);
    return structured;
  }

  describe('discovery', () => {
    it('initializes as a stateless server with tools, prompts and resources', () => {
      expect(client.getServerVersion()?.name).toBe('mailproof');
      expect(client.getServerCapabilities()).toMatchObject({ tools: {}, prompts: {}, resources: {} });
    });

    it('lists every tool with an input and an output schema', async () => {
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name).sort()).toEqual([...TOOL_NAMES].sort());
      for (const tool of tools) {
        expect(tool.inputSchema.type).toBe('object');
        expect(tool.outputSchema?.type).toBe('object');
        expect(tool.description?.length).toBeGreaterThan(40);
      }
      const analyze = tools.find((tool) => tool.name === 'analyze_email')!;
      expect((analyze.inputSchema.properties as Record<string, { items?: { enum?: string[] } }>).clients.items?.enum).toContain('outlook-windows-legacy');
    });

    it('gives each tool the fields, enums, limits and defaults of the HTTP request it wraps (the OpenAPI document)', async () => {
      const openapi = (await request(api.url).get('/api/openapi.json').expect(200)).body as { components: { schemas: Record<string, OpenApiSchema> } };
      const { tools } = await client.listTools();
      const inputOf = (name: string) => tools.find((tool) => tool.name === name)!.inputSchema as OpenApiSchema;
      // [tool, request DTO, fields only the tool has, fields only HTTP has]: analyze and audit answer findings
      // and reports, so rendering (`screenshots`) is preview_email's and capture_screenshots' business;
      // capture_screenshots takes the path's id as `previewId`.
      const pairs: Array<[string, string, string[], string[]]> = [
        ['preview_email', 'PreviewRequest', [], []],
        ['analyze_email', 'PreviewRequest', ['detail'], ['screenshots']],
        ['audit_email', 'PreviewRequest', [], ['screenshots']],
        ['gate_email', 'GateRequest', [], []],
        ['check_deliverability', 'DeliverabilityRequest', [], []],
        ['share_preview', 'CreateShareRequest', [], []],
        ['capture_screenshots', 'ScreenshotsRequest', ['previewId'], []],
        ['fix_email', 'FixRequest', [], []],
      ];
      for (const [tool, dto, toolOnly, httpOnly] of pairs) {
        const http = openapi.components.schemas[dto];
        const input = inputOf(tool);
        expect([
          tool,
          Object.keys(input.properties ?? {})
            .filter((name) => !toolOnly.includes(name))
            .sort(),
        ]).toEqual([
          tool,
          Object.keys(http.properties ?? {})
            .filter((name) => !httpOnly.includes(name))
            .sort(),
        ]);
        expect([tool, [...(input.required ?? [])].filter((name) => !toolOnly.includes(name)).sort()]).toEqual([tool, [...(http.required ?? [])].sort()]);
        for (const [name, property] of Object.entries(http.properties ?? {})) {
          if (httpOnly.includes(name)) continue;
          const mine = input.properties![name];
          for (const keyword of ['enum', 'default', 'minimum', 'maximum', 'maxLength'] as const) {
            if (property[keyword] !== undefined) expect([tool, name, keyword, mine[keyword]]).toEqual([tool, name, keyword, property[keyword]]);
          }
          if (property.items?.enum) expect([tool, name, mine.items?.enum]).toEqual([tool, name, property.items.enum]);
          expect([tool, name, mine.type]).toEqual([tool, name, property.type]);
        }
      }
    });

    it('lists the prompts and fills one in', async () => {
      const { prompts } = await client.listPrompts();
      expect(prompts.map((prompt) => prompt.name)).toEqual(['analyze-email', 'fix-email', 'check-domain']);
      const prompt = await client.getPrompt({ name: 'check-domain', arguments: { domain: 'example.org' } });
      expect(prompt.messages[0].content).toMatchObject({ type: 'text' });
      expect(JSON.stringify(prompt.messages)).toContain('check_deliverability');
    });

    it('serves the client list as a resource, as GET /api/clients lists it', async () => {
      const { resources } = await client.listResources();
      expect(resources.map((resource) => resource.uri)).toEqual(['mailproof://clients']);
      const read = await client.readResource({ uri: 'mailproof://clients' });
      const listed = JSON.parse(String((read.contents[0] as { text: string }).text)) as { clients: unknown[] };
      expect(listed.clients).toEqual((await request(api.url).get('/api/clients').expect(200)).body);
    });
  });

  describe('every tool against the HTTP endpoint it wraps', () => {
    it('list_clients', async () => {
      const structured = await call('list_clients', {});
      expect(structured.clients).toEqual((await request(api.url).get('/api/clients').expect(200)).body);
    });

    it('preview_email answers what POST /api/preview answers, and saves the preview to the account', async () => {
      const args = { html: CLEAN_EMAIL, clients: ['gmail-web', 'outlook-windows-legacy'], title: 'via MCP' };
      const structured = await call('preview_email', args);
      const viaHttp = (await http('post', '/api/preview').send(args).expect(200)).body as Record<string, unknown>;
      expect(structured.id).not.toBe(viaHttp.id);
      expect({ ...structured, id: null }).toEqual({ ...viaHttp, id: null });
      const [saved] = await db.query('SELECT account_id, title FROM previews WHERE id = $1', [structured.id]);
      expect(saved).toEqual({ account_id: pro.accountId, title: 'via MCP' });
    });

    it('preview_email with screenshots carries visualReport.divergence against the reference rendering, summarised in a second text block', async () => {
      const result = await client.callTool({
        name: 'preview_email',
        arguments: { html: WORSE_EMAIL, clients: ['gmail-web', 'outlook-windows-legacy'], screenshots: true },
      });
      const structured = result.structuredContent as {
        screenshots?: Record<string, string>;
        visualReport: { divergence?: Record<string, { light: { score: number } }> } | null;
      };
      expect(outputValidator.getValidator(TOOL_OUTPUTS.preview_email as never)(structured).errorMessage).toBeUndefined();
      expect(Object.keys(structured.screenshots ?? {})).toEqual(
        expect.arrayContaining(['reference-wide-light', 'gmail-web-light', 'outlook-windows-legacy-light']),
      );
      const divergence = structured.visualReport!.divergence!;
      expect(Object.keys(divergence).sort()).toEqual(['gmail-web', 'outlook-windows-legacy']);
      const blocks = result.content as Array<{ type: string; text: string }>;
      expect(JSON.parse(blocks[0].text)).toEqual(structured);
      const ordered = Object.keys(divergence).sort(
        (a, b) =>
          Math.max(...Object.values(divergence[b]).map((d) => d.score)) - Math.max(...Object.values(divergence[a]).map((d) => d.score)) || (a < b ? -1 : 1),
      );
      const named = blocks[1].text
        .split('\n')
        .filter((line) => line.startsWith('- '))
        .map((line) => line.slice(2).split(':')[0]);
      expect(named).toEqual(ordered);
    });

    it('analyze_email groups the findings of the same analysis across clients', async () => {
      const structured = await call('analyze_email', { html: WORSE_EMAIL });
      const viaHttp = (await http('post', '/api/preview').send({ html: WORSE_EMAIL }).expect(200)).body as {
        overallScore: number;
        compatibilityScores: Record<string, { score: number }>;
        cssReport: Array<{ severity: string; client: string; property: string }>;
      };
      expect(structured.overallScore).toBe(viaHttp.overallScore);
      const clients = structured.clients as Array<{ clientId: string; score: number }>;
      expect(Object.fromEntries(clients.map((c) => [c.clientId, c.score]))).toEqual(
        Object.fromEntries(Object.entries(viaHttp.compatibilityScores).map(([id, s]) => [id, s.score])),
      );
      const findings = structured.findings as Array<{ severity: string; property: string; clients: string[] }>;
      // summary: errors and warnings only, each problem once with every client it affects.
      expect(findings.every((f) => f.severity !== 'info')).toBe(true);
      const blocking = viaHttp.cssReport.filter((f) => f.severity !== 'info');
      expect(findings.reduce((sum, f) => sum + f.clients.length, 0)).toBe(blocking.length);
      const flex = findings.find((f) => f.property.includes('flex') && f.clients.includes('outlook-windows-legacy'));
      expect(flex).toBeDefined();
      expect(new Set(findings.map((f) => `${f.severity}|${f.property}`)).size).toBeLessThan(blocking.length);

      const full = await call('analyze_email', { html: WORSE_EMAIL, detail: 'full', format: 'html' });
      const fullFindings = full.findings as Array<{ severity: string; message?: string }>;
      expect(fullFindings.length).toBeGreaterThan(findings.length);
      expect(fullFindings.every((f) => typeof f.message === 'string')).toBe(true);
    });

    it('audit_email returns every quality report of the same analysis', async () => {
      const structured = await call('audit_email', { html: CLEAN_EMAIL });
      const viaHttp = (await http('post', '/api/preview').send({ html: CLEAN_EMAIL }).expect(200)).body as Record<string, unknown>;
      for (const report of ['sizeReport', 'linkReport', 'accessibilityReport', 'inboxPreview', 'plainText', 'designReport']) {
        expect(structured[report]).toEqual(viaHttp[report]);
      }
      expect(structured.compatibilityScores).toEqual(viaHttp.compatibilityScores);
      expect(typeof structured.previewId).toBe('string');
    });

    it('gate_email gives the verdict POST /api/gate gives', async () => {
      const args = { html: WORSE_EMAIL, threshold: 80, checks: ['compatibility', 'content'] };
      const structured = await call('gate_email', args);
      const viaHttp = (await http('post', '/api/gate').send(args).expect(200)).body as Record<string, unknown>;
      expect(structured.passed).toBe(false);
      const strip = (verdict: Record<string, unknown>) => ({ ...verdict, runId: null, previewId: null });
      expect(strip(structured)).toEqual(strip(viaHttp));
    });

    it('audit_email and gate_email take a whole message (format eml): its messageReport, and the message check holding bulk mail to one-click unsubscribe', async () => {
      const audit = await call('audit_email', { html: CLEAN_MESSAGE, format: 'eml' });
      expect(audit.messageReport).toMatchObject({
        headers: { from: { address: 'bookings@bistro.example.net' }, listUnsubscribe: null },
        bulkSender: { bulk: false },
      });
      expect((await call('audit_email', { html: CLEAN_EMAIL })).messageReport).toBeNull();
      const transactional = await call('gate_email', { html: CLEAN_MESSAGE, format: 'eml', checks: ['message'] });
      expect(transactional).toMatchObject({ passed: true, failures: [], checks: ['message'] });
      const bulk = await call('gate_email', { html: CLEAN_MESSAGE, format: 'eml', checks: ['message'], bulk: true });
      expect(bulk.passed).toBe(false);
      expect(bulk.failures).toContainEqual(expect.objectContaining({ family: 'message', check: 'bulk-sender', requirement: 'one-click-unsubscribe' }));
    });

    it('diff_emails reports what a change fixed and introduced per client, with score deltas', async () => {
      const structured = await call('diff_emails', { before: CLEAN_EMAIL, after: WORSE_EMAIL, clients: ['gmail-web', 'outlook-windows-legacy'] });
      const clients = structured.clients as Array<{ clientId: string; scoreDelta: number; introduced: Array<{ property: string }>; fixed: unknown[] }>;
      expect(clients.map((c) => c.clientId)).toEqual(['gmail-web', 'outlook-windows-legacy']);
      const legacy = clients.find((c) => c.clientId === 'outlook-windows-legacy')!;
      expect(legacy.scoreDelta).toBeLessThan(0);
      expect(legacy.introduced.length).toBeGreaterThan(0);
      expect(legacy.fixed).toEqual([]);
      expect((structured.summary as { regressed: string[] }).regressed).toContain('outlook-windows-legacy');
      // The scores are the previews' own: the same as POST /api/preview for each version.
      const after = (
        await http('post', '/api/preview')
          .send({ html: WORSE_EMAIL, clients: ['outlook-windows-legacy'] })
          .expect(200)
      ).body;
      const before = (
        await http('post', '/api/preview')
          .send({ html: CLEAN_EMAIL, clients: ['outlook-windows-legacy'] })
          .expect(200)
      ).body;
      expect(legacy.scoreDelta).toBe(after.compatibilityScores['outlook-windows-legacy'].score - before.compatibilityScores['outlook-windows-legacy'].score);
    });

    it('share_preview shares a previewId from another tool, as POST /api/share does', async () => {
      const analysis = await call('analyze_email', { html: CLEAN_EMAIL, clients: ['gmail-web'] });
      const share = await call('share_preview', { previewId: analysis.previewId });
      expect(share.id).toMatch(/^shr_/);
      expect(share.expiresAt).toBeNull();
      const viaHttp = (await http('post', '/api/share').send({ previewId: analysis.previewId }).expect(201)).body;
      expect(Object.keys(share).sort()).toEqual(Object.keys(viaHttp).sort());
      const shared = await request(api.url)
        .get(`/api/share/${share.id as string}`)
        .expect(200);
      expect(shared.body.id).toBe(analysis.previewId);
    });

    it('capture_screenshots renders a saved preview, as POST /api/preview/:id/screenshots does', async () => {
      const analysis = await call('analyze_email', { html: CLEAN_EMAIL, clients: ['gmail-web', 'apple-mail-ios'] });
      const shots = await call('capture_screenshots', { previewId: analysis.previewId, clients: ['gmail-web'], modes: ['light'] });
      expect(shots).toMatchObject({ screenshotStatus: 'complete', captured: ['gmail-web-light'], failed: [] });
      expect((shots.screenshots as Record<string, string>)['gmail-web-light']).toMatch(/\/screenshots\/[0-9a-f]{64}\.png$/);
      const viaHttp = (
        await http('post', `/api/preview/${analysis.previewId as string}/screenshots`)
          .send({ clients: ['gmail-web'], modes: ['light'] })
          .expect(200)
      ).body;
      // The same answer, plus the preview's visualReport as stored with the screenshots (its divergence when a reference was painted).
      const { visualReport, ...answer } = shots;
      expect(viaHttp).toEqual(answer);
      const stored = (await http('get', `/api/preview/${analysis.previewId as string}`).expect(200)).body as { visualReport: unknown };
      expect(visualReport).toEqual(stored.visualReport);
      // The reference rendering was painted with the client: its divergence is typed by the output schema
      // (call() validated it) and summarised in a second text block.
      expect((shots.screenshots as Record<string, string>)['reference-wide-light']).toMatch(/\/screenshots\/[0-9a-f]{64}\.png$/);
      expect((visualReport as { divergence: Record<string, { light: { score: number } }> }).divergence['gmail-web'].light.score).toEqual(expect.any(Number));
      const again = await client.callTool({
        name: 'capture_screenshots',
        arguments: { previewId: analysis.previewId, clients: ['gmail-web'], modes: ['light'] },
      });
      const blocks = again.content as Array<{ type: string; text: string }>;
      expect(blocks).toHaveLength(2);
      expect(blocks[1].text).toMatch(/^Visual divergence from the email as written .*\n- gmail-web: light [\d.]+/);
      // A client the preview did not analyze is a bad argument: a protocol error naming the field.
      const notAnalyzed = await client
        .callTool({ name: 'capture_screenshots', arguments: { previewId: analysis.previewId, clients: ['aol'] } })
        .catch((error: { code: number; message: string }) => error);
      expect(notAnalyzed).toMatchObject({ code: -32602 });
      expect((notAnalyzed as { message: string }).message).toContain('clients: not analyzed in this preview: aol');
    });

    it('check_deliverability answers what POST /api/deliverability answers', async () => {
      const structured = await call('check_deliverability', { domain: 'mcp-check.example' });
      const viaHttp = (await http('post', '/api/deliverability').send({ domain: 'mcp-check.example' }).expect(200)).body;
      expect({ ...structured, checkedAt: null }).toEqual({ ...viaHttp, checkedAt: null });
      expect(structured.domain).toBe('mcp-check.example');
    });

    it("list_domains lists the account's monitored domains, as GET /api/domains does", async () => {
      await http('post', '/api/domains').send({ domain: 'mcp-monitored.example' }).expect(201);
      const structured = await call('list_domains', {});
      const viaHttp = (await http('get', '/api/domains').expect(200)).body;
      expect((structured.domains as Array<{ domain: string }>).map((d) => d.domain)).toContain('mcp-monitored.example');
      expect(structured).toEqual(viaHttp);
    });
  });

  describe('errors the assistant can act on', () => {
    async function protocolError(
      args: Record<string, unknown>,
      name = 'analyze_email',
    ): Promise<{ code: number; message: string; data?: { errors?: Array<{ field: string }> } }> {
      const error = await client.callTool({ name, arguments: args }).then(
        () => null,
        (thrown: unknown) => thrown as { code: number; message: string; data?: { errors?: Array<{ field: string }> } },
      );
      expect(error).not.toBeNull();
      return error!;
    }

    it.each<[string, Record<string, unknown>, string]>([
      ['missing html', {}, 'html'],
      ['html that is not a string', { html: 42 }, 'html'],
      ['600 KB of html', { html: `<p>${'x'.repeat(600_000)}</p>` }, 'html'],
      ['600 KB of multi-byte html under 512,000 characters', { html: 'é'.repeat(300_000) }, 'html'],
      ['an unknown format', { html: CLEAN_EMAIL, format: 'pug' }, 'format'],
      ['an unknown detail', { html: CLEAN_EMAIL, detail: 'everything' }, 'detail'],
      ['an unknown argument', { html: CLEAN_EMAIL, color: 'red' }, 'color'],
      ['an unknown client id', { html: CLEAN_EMAIL, clients: ['gmail-web', 'lotus-notes'] }, 'clients.1'],
      ['an empty client list', { html: CLEAN_EMAIL, clients: [] }, 'clients'],
    ])('%s is a protocol error (-32602) naming the field', async (_name, args, field) => {
      const error = await protocolError(args);
      expect(error.code).toBe(-32602);
      expect(error.data?.errors?.map((e) => e.field)).toContain(field);
      expect(error.message).toContain(field);
    });

    it('lists the valid client ids when one is unknown', async () => {
      const error = await protocolError({ html: CLEAN_EMAIL, clients: ['lotus-notes'] });
      expect(error.message).toContain('outlook-windows-legacy');
    });

    it("answers the gate's own argument rules as protocol errors too: neither html nor url, a ref with a space", async () => {
      expect((await protocolError({}, 'gate_email')).data?.errors?.map((e) => e.field)).toEqual(['html', 'url']);
      expect((await protocolError({ html: CLEAN_EMAIL, ref: 'a b' }, 'gate_email')).data?.errors?.map((e) => e.field)).toEqual(['ref']);
      expect((await protocolError({ domain: '10.0.0.1' }, 'check_deliverability')).data?.errors?.map((e) => e.field)).toEqual(['domain']);
    });

    it('an unknown tool is a protocol error (-32602)', async () => {
      const error = await protocolError({}, 'render_everything');
      expect(error.code).toBe(-32602);
      expect(error.message).toContain('Unknown tool');
    });

    it('a compile failure is a tool result with isError, the code, the message and the line', async () => {
      const result = await client.callTool({ name: 'analyze_email', arguments: { html: BROKEN_JSX, format: 'jsx' } });
      expect(result.isError).toBe(true);
      expect(result.structuredContent).toBeUndefined();
      const problem = textOf(result);
      expect(problem.code).toBe('compile_failed');
      expect(typeof problem.message).toBe('string');
      expect(typeof problem.line).toBe('number');
      expect(JSON.stringify(problem)).not.toMatch(/\n\s+at /);
    });

    it('a declined URL is a tool result with isError url_declined', async () => {
      const result = await client.callTool({ name: 'gate_email', arguments: { url: 'ftp://example.org/email.html' } });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toMatchObject({ code: 'url_declined' });
    });

    it('a free key on gate_email is a tool result with isError plan_required', async () => {
      const result = await freeClient.callTool({ name: 'gate_email', arguments: { html: CLEAN_EMAIL } });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toMatchObject({ code: 'plan_required' });
      // The free key's other tools work.
      expect((await call('list_clients', {}, freeClient)).clients).toHaveLength(21);
    });

    it('an unknown previewId is a tool result with isError not_found', async () => {
      const result = await client.callTool({ name: 'share_preview', arguments: { previewId: 'prv_doesnotexist' } });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toMatchObject({ code: 'not_found' });
    });
  });

  describe('HTTP', () => {
    const rpc = (body: string, key: string | null = pro.key) => {
      const call = request(api.url).post('/api/mcp').set('Content-Type', 'application/json').set('Accept', 'application/json, text/event-stream');
      return (key ? call.set('x-api-key', key) : call).send(body);
    };
    const listTools = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} });

    it('needs a key: 401 problem+json', async () => {
      const res = await rpc(listTools, null);
      expect(res.status).toBe(401);
      expect(res.headers['content-type']).toMatch(/application\/problem\+json/);
      expect(res.body.code).toBe('unauthorized');
    });

    it('answers tools/list without initialization (stateless) with the x-api-key header, rate-limit headers and no session id', async () => {
      const res = await rpc(listTools);
      expect(res.status).toBe(200);
      expect(res.body.result.tools).toHaveLength(TOOL_NAMES.length);
      expect(res.headers['ratelimit-limit']).toBeDefined();
      expect(res.headers['mcp-session-id']).toBeUndefined();
    });

    it('refuses a JSON-RPC batch: 400 problem+json with the JSON-RPC code -32600', async () => {
      const res = await rpc(JSON.stringify([JSON.parse(listTools), { ...JSON.parse(listTools), id: 2 }]));
      expect(res.status).toBe(400);
      expect(res.headers['content-type']).toMatch(/application\/problem\+json/);
      expect(res.body).toMatchObject({ code: 'validation_failed', jsonrpcCode: -32600, errors: [{ field: 'body' }] });
    });

    it('refuses JSON that is no JSON-RPC message (-32700), text that is no JSON (invalid_json) and no body at all (415), as problem+json', async () => {
      const notRpc = await rpc(JSON.stringify({ hello: 'world' }));
      expect(notRpc.status).toBe(400);
      expect(notRpc.headers['content-type']).toMatch(/application\/problem\+json/);
      expect(notRpc.body).toMatchObject({ code: 'validation_failed', jsonrpcCode: -32700 });
      const notJson = await rpc('{"jsonrpc": "2.0", "id": 1,');
      expect(notJson.status).toBe(400);
      expect(notJson.body.code).toBe('invalid_json');
      const empty = await request(api.url).post('/api/mcp').set('x-api-key', pro.key).set('Accept', 'application/json, text/event-stream');
      expect(empty.status).toBe(415);
      expect(empty.body.code).toBe('unsupported_media_type');
      for (const body of [notRpc.body, notJson.body, empty.body]) expect(JSON.stringify(body)).not.toMatch(/\n\s+at /);
    });

    it('needs Accept: application/json, text/event-stream, as the transport says (406 not_acceptable)', async () => {
      const res = await request(api.url).post('/api/mcp').set('x-api-key', pro.key).set('Content-Type', 'application/json').send(listTools);
      expect(res.status).toBe(406);
      expect(res.headers['content-type']).toMatch(/application\/problem\+json/);
      expect(res.body.code).toBe('not_acceptable');
    });

    it('answers a notification with 202 and no body', async () => {
      const res = await rpc(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }));
      expect(res.status).toBe(202);
      expect(res.text ?? '').toBe('');
    });

    it('answers GET and DELETE with 405 and Allow: POST (no event stream, no session)', async () => {
      for (const method of ['get', 'delete'] as const) {
        const res = await request(api.url)[method]('/api/mcp').set('Authorization', `Bearer ${pro.key}`);
        expect(res.status).toBe(405);
        expect(res.headers.allow).toBe('POST');
        expect(res.body.code).toBe('method_not_allowed');
      }
    });

    it('counts every request as mcp usage of the key', async () => {
      await rpc(listTools).expect(200);
      await waitFor(async () => {
        const rows: Array<{ count: number }> = await db.query(`SELECT count FROM usage_counters WHERE key_id = $1 AND kind = 'mcp'`, [pro.keyId]);
        return rows.length === 1 && rows[0].count > 5;
      }, 'mcp usage to be counted');
      const previews: Array<{ count: string }> = await db.query(`SELECT count(*) FROM usage_counters WHERE key_id = $1 AND kind = 'preview' AND count > 0`, [
        free.keyId,
      ]);
      expect(previews[0].count).toBe('0');
    });
  });

  describe('mailproof mcp (stdio) with a server configured', () => {
    it('calls the server for the server-side tools and passes on its errors', async () => {
      const stdio = new McpClient({ name: 'mailproof-tests', version: '1.0.0' });
      await stdio.connect(
        new StdioClientTransport({
          command: process.execPath,
          args: [join(__dirname, '..', '..', 'bin', 'mailproof.js'), 'mcp'],
          env: { PATH: process.env.PATH ?? '', MAILPROOF_API_URL: api.url, MAILPROOF_API_KEY: free.key },
          stderr: 'pipe',
        }),
      );
      try {
        const domains = await stdio.callTool({ name: 'list_domains', arguments: {} });
        expect(domains.isError).toBeFalsy();
        expect(domains.structuredContent).toEqual((await http('get', '/api/domains', free.key).expect(200)).body);
        const gate = await stdio.callTool({ name: 'gate_email', arguments: { html: CLEAN_EMAIL } });
        expect(gate.isError).toBe(true);
        expect(textOf(gate)).toMatchObject({ code: 'plan_required' });
        const invalid = await stdio.callTool({ name: 'share_preview', arguments: {} }).catch((error: { code: number; message: string }) => error);
        expect(invalid).toMatchObject({ code: -32602 });
        expect((invalid as { message: string }).message).toContain('previewId');
      } finally {
        await stdio.close();
      }
    });
  });
});
