import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv-provider.js';
import type { VisualReport } from '@mailproof/contracts';
import { createMcpServer, type ToolHandlers } from './mcp-server';
import { TOOL_NAMES } from './tool-catalog';
import type { ToolName } from './tool-inputs';
import { TOOL_OUTPUTS } from './tool-outputs';
import { divergenceSummary, REPORT_FIELDS } from './index';

/** visualReport as worker-render stores it with a reference rendering. */
const VISUAL: VisualReport = {
  references: { wide: 'apple-mail-macos', mobile: 'apple-mail-ios' },
  clients: [],
  divergence: {
    'gmail-web': {
      light: {
        score: 18.25,
        regions: [
          {
            box: { x: 40, y: 120.4, width: 300, height: 80 },
            kind: 'layout',
            elements: [{ selector: 'table > tr > td.col', line: 14 }],
            cause: { message: 'the two columns stack: display:flex is removed', property: 'display' },
          },
          { box: { x: 0, y: 0, width: 800, height: 10 }, kind: 'color', elements: [] },
          { box: { x: 0, y: 900, width: 800, height: 10 }, kind: 'color', elements: [] },
        ],
      },
      dark: { score: 4, regions: [] },
    },
    'outlook-windows-legacy': {
      light: {
        score: 61,
        regions: [
          {
            box: { x: 200, y: 300, width: 120, height: 40 },
            kind: 'color',
            elements: [{ selector: 'a.button', line: null }],
            cause: { message: "the button's border-radius is dropped", property: 'border-radius', behaviour: 'outlook-word-no-border-radius' },
          },
        ],
      },
    },
    'apple-mail-ios': { light: { score: 0, regions: [] } },
  },
};

describe('visualReport.divergence in the MCP tools', () => {
  it('summarises clients most divergent first, with their top regions and causes', () => {
    const summary = divergenceSummary(VISUAL)!;
    const lines = summary.split('\n');
    expect(lines[0]).toContain('3 clients, most different first');
    expect(lines.slice(1)).toEqual([
      '- outlook-windows-legacy: light 61',
      "  - light color region 120x40 at (200, 300) at a.button: the button's border-radius is dropped",
      '- gmail-web: light 18.3, dark 4',
      '  - light layout region 300x80 at (40, 120) at table > tr > td.col (line 14): the two columns stack: display:flex is removed',
      '  - light color region 800x10 at (0, 0)',
      '  - and 1 more region(s) in visualReport.divergence',
      '- apple-mail-ios: light 0',
    ]);
    expect(divergenceSummary(null)).toBeNull();
    expect(divergenceSummary({ references: {}, clients: [] })).toBeNull();
    expect(divergenceSummary({ divergence: {} })).toBeNull();
  });

  it('types divergence in the output schemas of the tools that carry visualReport, and refuses a malformed one', () => {
    const validator = new AjvJsonSchemaValidator();
    const reports = Object.fromEntries(REPORT_FIELDS.map((field) => [field, null]));
    const audit = validator.getValidator(TOOL_OUTPUTS.audit_email as never);
    const good = { previewId: 'prv_1', overallScore: 90, compatibilityScores: {}, ...reports, visualReport: VISUAL, messageReport: null };
    expect(audit(good).errorMessage).toBeUndefined();
    const badKind = structuredClone(good);
    badKind.visualReport.divergence!['gmail-web']!.light!.regions[0].kind = 'moved' as 'layout';
    expect(audit(badKind).errorMessage).toBeDefined();
    const shots = validator.getValidator(TOOL_OUTPUTS.capture_screenshots as never);
    const answer = { screenshots: { 'gmail-web-light': '/screenshots/a.png' }, screenshotStatus: 'complete', captured: ['gmail-web-light'], failed: [] };
    expect(shots({ ...answer, visualReport: VISUAL }).errorMessage).toBeUndefined();
    expect(shots({ ...answer, visualReport: null }).errorMessage).toBeUndefined();
    expect(shots(answer).errorMessage).toBeUndefined();
  });

  it('adds the summary as a second text block after the JSON, only when the result has a divergence', async () => {
    const audit = {
      previewId: 'prv_1',
      overallScore: 90,
      compatibilityScores: {},
      ...Object.fromEntries(REPORT_FIELDS.map((f) => [f, null])),
      messageReport: null,
    };
    const answers: Partial<Record<ToolName, Record<string, unknown>>> = {
      audit_email: { ...audit, visualReport: VISUAL },
      capture_screenshots: { screenshots: {}, screenshotStatus: 'complete', captured: [], failed: [], visualReport: null },
    };
    const handlers = Object.fromEntries(TOOL_NAMES.map((name) => [name, () => Promise.resolve(answers[name] ?? {})])) as unknown as ToolHandlers;
    const server = createMcpServer({ version: 'test', handlers });
    const [serverSide, clientSide] = InMemoryTransport.createLinkedPair();
    const client = new Client({ name: 'test', version: '1' });
    await server.connect(serverSide);
    await client.connect(clientSide);
    try {
      const withDivergence = await client.callTool({ name: 'audit_email', arguments: { html: '<p>x</p>' } });
      const content = withDivergence.content as Array<{ type: string; text: string }>;
      expect(content).toHaveLength(2);
      expect(JSON.parse(content[0].text)).toEqual(withDivergence.structuredContent);
      expect(content[1].text).toBe(divergenceSummary(VISUAL));
      const without = await client.callTool({ name: 'capture_screenshots', arguments: { previewId: 'prv_1' } });
      expect(without.content).toHaveLength(1);
    } finally {
      await client.close();
      await server.close();
    }
  });
});
