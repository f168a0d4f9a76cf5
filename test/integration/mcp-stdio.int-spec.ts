import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { join } from 'node:path';
import { CLEAN_EMAIL, CLEAN_MESSAGE, WORSE_EMAIL, BROKEN_JSX } from '../fixtures/mcp/emails';
import { textOf } from '../utils/mcp-client';

/**
 * `mailproof mcp` (the built CLI) over stdio with the SDK's StdioClientTransport, with no server and
 * unreachable PostgreSQL and Redis: the in-process tools work, the server-side ones say what to set.
 */
describe('mailproof mcp over stdio, without a server', () => {
  let client: Client;
  let stderr = '';

  beforeAll(async () => {
    client = new Client({ name: 'mailproof-tests', version: '1.0.0' });
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [join(__dirname, '..', '..', 'bin', 'mailproof.js'), 'mcp'],
      env: { PATH: process.env.PATH ?? '', DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none', REDIS_URL: 'redis://127.0.0.1:1' },
      stderr: 'pipe',
    });
    transport.stderr?.on('data', (chunk) => (stderr += String(chunk)));
    await client.connect(transport);
  }, 60_000);

  afterAll(async () => {
    await client?.close();
  });

  it('lists the same tools, prompts and resource as the HTTP endpoint', async () => {
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual([
      'preview_email',
      'analyze_email',
      'audit_email',
      'gate_email',
      'check_deliverability',
      'list_clients',
      'diff_emails',
      'share_preview',
      'list_domains',
      'capture_screenshots',
      'fix_email',
    ]);
    expect((await client.listPrompts()).prompts).toHaveLength(3);
    expect((await client.listResources()).resources[0].uri).toBe('mailproof://clients');
  });

  it('runs analyze_email, audit_email, diff_emails and list_clients in-process', async () => {
    const analysis = await client.callTool({ name: 'analyze_email', arguments: { html: WORSE_EMAIL, clients: ['gmail-web', 'outlook-windows-legacy'] } });
    expect(analysis.isError).toBeFalsy();
    const structured = analysis.structuredContent as {
      previewId: null;
      clients: Array<{ clientId: string }>;
      findings: Array<{ property: string; clients: string[] }>;
    };
    expect(structured.previewId).toBeNull();
    expect(structured.clients.map((c) => c.clientId)).toEqual(['gmail-web', 'outlook-windows-legacy']);
    expect(structured.findings.some((f) => f.clients.includes('outlook-windows-legacy'))).toBe(true);
    expect(textOf(analysis)).toEqual(structured);

    const audit = await client.callTool({ name: 'audit_email', arguments: { html: CLEAN_EMAIL } });
    expect(audit.structuredContent).toMatchObject({ previewId: null, sizeReport: { clippingRisk: false }, messageReport: null });
    // A whole message: its report, built in-process without DNS (authentication undecided).
    const message = await client.callTool({ name: 'audit_email', arguments: { html: CLEAN_MESSAGE, format: 'eml' } });
    expect(message.isError).toBeFalsy();
    expect(message.structuredContent).toMatchObject({
      messageReport: { headers: { from: { address: 'bookings@bistro.example.net' } }, authentication: { status: 'inconclusive' } },
    });

    const diff = await client.callTool({ name: 'diff_emails', arguments: { before: WORSE_EMAIL, after: CLEAN_EMAIL, clients: ['outlook-windows-legacy'] } });
    expect((diff.structuredContent as { summary: { improved: string[] } }).summary.improved).toEqual(['outlook-windows-legacy']);

    const clients = await client.callTool({ name: 'list_clients', arguments: {} });
    expect((clients.structuredContent as { clients: unknown[] }).clients).toHaveLength(21);
  });

  it('runs fix_email in-process: the patched email and its diff, without a run id, and a second fix applies nothing', async () => {
    const email = CLEAN_EMAIL.replace('<table role="presentation" width="560"', '<table width="560"').replace('color:#7a1f1f', 'color:#a11');
    const fixed = await client.callTool({ name: 'fix_email', arguments: { html: email, clients: ['gmail-web', 'outlook-windows-legacy'] } });
    expect(fixed.isError).toBeFalsy();
    const structured = fixed.structuredContent as { html: string; diff: string; applied: Array<{ rule: string; line: number }>; introduced: unknown[] };
    expect(structured).toMatchObject({ format: 'html', patched: 'source', introduced: [] });
    expect(structured).not.toHaveProperty('id');
    expect(structured.applied.map((fix) => fix.rule)).toEqual(expect.arrayContaining(['layout-table-role', 'six-digit-hex']));
    expect(structured.html).toContain('<table width="560" cellpadding="0" cellspacing="0" style="background-color:#ffffff" role="presentation">');
    expect(structured.html).toContain('color:#aa1111');
    expect(structured.diff).toContain('+<tr><td align="center"');
    expect(textOf(fixed)).toEqual(structured);

    const again = await client.callTool({ name: 'fix_email', arguments: { html: structured.html, clients: ['gmail-web', 'outlook-windows-legacy'] } });
    expect((again.structuredContent as { applied: unknown[]; html: string }).applied).toEqual([]);
    expect((again.structuredContent as { html: string }).html).toBe(structured.html);

    const broken = await client.callTool({ name: 'fix_email', arguments: { html: BROKEN_JSX, format: 'jsx' } });
    expect(broken.isError).toBe(true);
    expect(textOf(broken)).toMatchObject({ code: 'compile_failed', line: expect.any(Number) });
  });

  it('answers a compile failure as a tool error with its line, and bad arguments as protocol errors', async () => {
    const broken = await client.callTool({ name: 'analyze_email', arguments: { html: BROKEN_JSX, format: 'jsx' } });
    expect(broken.isError).toBe(true);
    expect(textOf(broken)).toMatchObject({ code: 'compile_failed', line: expect.any(Number) });
    const error = await client
      .callTool({ name: 'audit_email', arguments: { html: `<p>${'x'.repeat(600_000)}</p>` } })
      .catch((thrown: { code: number; message: string }) => thrown);
    expect(error).toMatchObject({ code: -32602 });
    expect((error as { message: string }).message).toContain('html');
  });

  it('says which variables to set for the tools that need a server', async () => {
    for (const name of ['preview_email', 'gate_email', 'check_deliverability', 'share_preview', 'list_domains', 'capture_screenshots']) {
      const args: Record<string, Record<string, unknown>> = {
        preview_email: { html: CLEAN_EMAIL },
        gate_email: { html: CLEAN_EMAIL },
        check_deliverability: { domain: 'example.org' },
        share_preview: { previewId: 'prv_x' },
        list_domains: {},
        capture_screenshots: { previewId: 'prv_x' },
      };
      const result = await client.callTool({ name, arguments: args[name] });
      expect(result.isError).toBe(true);
      const problem = textOf(result);
      expect(problem.code).toBe('server_not_configured');
      expect(problem.message).toContain('MAILPROOF_API_URL');
      expect(problem.message).toContain('MAILPROOF_API_KEY');
    }
    expect(stderr).not.toMatch(/\n\s+at /);
  });
});
