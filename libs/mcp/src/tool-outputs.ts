/**
 * The output schema of every MCP tool (JSON Schema of its `structuredContent`). They describe what the
 * assistant can rely on and are checked by MCP clients (the SDK's client validates every result
 * against them), so they name the required fields and their types and leave reports open
 * (`additionalProperties` allowed) where the HTTP API documents them as objects.
 */
import { CLIENT_IDS, EMAIL_FORMATS, FIX_TIERS } from '@mailproof/engine';
import { ANALYSIS_DETAILS, type JsonSchema, type ToolName } from './tool-inputs';

const string: JsonSchema = { type: 'string' };
const number: JsonSchema = { type: 'number' };
const integer: JsonSchema = { type: 'integer' };
const boolean: JsonSchema = { type: 'boolean' };
const nullableString: JsonSchema = { type: ['string', 'null'] };
const nullableNumber: JsonSchema = { type: ['number', 'null'] };
const openObject: JsonSchema = { type: 'object' };
const nullableObject: JsonSchema = { type: ['object', 'null'] };
const clientId: JsonSchema = { type: 'string', enum: CLIENT_IDS };
const severity: JsonSchema = { type: 'string', enum: ['error', 'warning', 'info'] };

function object(properties: Record<string, JsonSchema>, required = Object.keys(properties)): JsonSchema {
  return { type: 'object', properties, required };
}
function array(items: JsonSchema): JsonSchema {
  return { type: 'array', items };
}

const clientScore = object({ score: number, errors: integer, warnings: integer, info: integer });

/** The quality reports of a preview result (2.1 of the interface): objects, or null when the check does not apply. */
export const REPORT_FIELDS = [
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
] as const;

const pageBox = object({ x: number, y: number, width: number, height: number });
/** One client and scheme against the reference rendering. */
const visualDivergence = object({
  score: number,
  regions: array(
    object(
      {
        box: pageBox,
        kind: { type: 'string', enum: ['layout', 'color'] },
        elements: array(object({ selector: string, line: { type: ['integer', 'null'] } })),
        cause: object({ message: string, property: string, behaviour: string }, ['message']),
      },
      ['box', 'kind', 'elements'],
    ),
  ),
});
/**
 * `visualReport`: open like the other reports, but its `divergence` (with screenshots and a reference
 * rendering) is typed: per client, per scheme painted, a score and the regions that differ.
 */
const visualReport: JsonSchema = {
  type: ['object', 'null'],
  properties: {
    divergence: {
      type: 'object',
      description: 'Per client and scheme: how far its screenshot departs from the email as written (score 0-100) and where (regions, CSS px).',
      additionalProperties: { type: 'object', properties: { light: visualDivergence, dark: visualDivergence }, additionalProperties: false },
    },
  },
};
const reports = Object.fromEntries(REPORT_FIELDS.map((field) => [field, field === 'visualReport' ? visualReport : nullableObject]));

const checkStatus: JsonSchema = { type: 'string', enum: ['pass', 'warn', 'fail', 'info', 'inconclusive'] };
/**
 * A whole message's report (`format: "eml"`, docs/messages.md); null for every other format. Its sections stay
 * open objects but for the bulk-sender checklist, which the gate's message check reads.
 */
const messageReport: JsonSchema = {
  type: ['object', 'null'],
  properties: {
    headers: openObject,
    parts: openObject,
    authentication: openObject,
    bulkSender: object({
      bulk: boolean,
      requirements: array(
        object({ id: string, providers: array(string), status: checkStatus, reason: string, fix: nullableString }, ['id', 'status', 'reason']),
      ),
      met: { type: ['boolean', 'null'] },
    }),
  },
  required: ['headers', 'parts', 'authentication', 'bulkSender'],
};

const previewResult = object(
  {
    id: string,
    overallScore: number,
    transforms: array(object({ clientId, html: string, warnings: array(openObject) })),
    compatibilityScores: { type: 'object', additionalProperties: clientScore },
    cssReport: array(
      object({ severity, client: clientId, property: string, message: string, suggestion: string }, [
        'severity',
        'client',
        'property',
        'message',
        'suggestion',
      ]),
    ),
    darkMode: openObject,
    ...reports,
    messageReport,
  },
  ['id', 'overallScore', 'transforms', 'compatibilityScores', 'cssReport', 'darkMode', ...REPORT_FIELDS],
);

const codeFix = object({ before: string, after: string, language: string, description: string });
const findingGroup = object(
  {
    severity,
    property: string,
    rule: string,
    line: integer,
    column: integer,
    clients: array(clientId),
    suggestion: string,
    message: string,
    fix: codeFix,
  },
  ['severity', 'property', 'rule', 'clients', 'suggestion'],
);
const clientSummary = object({ clientId, name: string, score: number, errors: integer, warnings: integer, info: integer });
const severityCounts = object({ error: integer, warning: integer, info: integer });

const gateFinding = object({ clientId: string, property: string, rule: string, severity: { type: 'string', enum: ['error', 'warning'] } }, [
  'clientId',
  'property',
  'severity',
]);
const clientDiff = object({
  clientId: string,
  presence: { type: 'string', enum: ['both', 'before-only', 'after-only'] },
  scoreBefore: nullableNumber,
  scoreAfter: nullableNumber,
  scoreDelta: nullableNumber,
  fixed: array(gateFinding),
  introduced: array(gateFinding),
  unchanged: array(gateFinding),
});
const diffSide = object({ previewId: nullableString, overallScore: number });

const fixTally = object({ score: number, errors: integer, warnings: integer });
/** POST /api/fix's answer; `id` only where a run was stored (the API), not in `mailproof mcp`'s local answer. */
const fixResult = object(
  {
    id: string,
    format: { type: 'string', enum: EMAIL_FORMATS },
    patched: { type: 'string', enum: ['source', 'compiled-html'] },
    note: string,
    html: string,
    diff: string,
    applied: array(
      object(
        { id: string, rule: string, tier: { type: 'string', enum: FIX_TIERS }, clients: array(clientId), line: integer, description: string, snippet: codeFix },
        ['id', 'rule', 'tier', 'clients', 'line', 'description'],
      ),
    ),
    skipped: array(object({ rule: string, line: integer, reason: string })),
    before: fixTally,
    after: fixTally,
    introduced: array(openObject),
    resolved: { type: 'object', additionalProperties: integer },
  },
  ['format', 'patched', 'html', 'diff', 'applied', 'skipped', 'before', 'after', 'introduced'],
);

const dnsCheck = object({ status: { type: 'string', enum: ['pass', 'warn', 'fail', 'skip'] }, message: string });

export const TOOL_OUTPUTS: Record<ToolName, JsonSchema> = {
  preview_email: previewResult,
  analyze_email: object({
    previewId: nullableString,
    detail: { type: 'string', enum: ANALYSIS_DETAILS },
    overallScore: number,
    worstClient: nullableString,
    clients: array(clientSummary),
    counts: severityCounts,
    findings: array(findingGroup),
  }),
  audit_email: object(
    { previewId: nullableString, overallScore: number, compatibilityScores: { type: 'object', additionalProperties: clientScore }, ...reports, messageReport },
    ['previewId', 'overallScore', 'compatibilityScores', ...REPORT_FIELDS, 'messageReport'],
  ),
  gate_email: object(
    {
      passed: boolean,
      overallScore: number,
      worstClient: nullableString,
      baseline: object({ ref: nullableString, comparedTo: nullableString }),
      failures: array(object({ family: string, check: string }, ['family', 'check'])),
      notes: array(object({ family: string, check: string, requirement: string, reason: string }, ['family', 'check', 'reason'])),
      checks: array(string),
      links: openObject,
      runId: string,
      previewId: string,
    },
    ['passed', 'overallScore', 'worstClient', 'baseline', 'failures', 'runId', 'previewId'],
  ),
  check_deliverability: object(
    {
      domain: string,
      score: nullableNumber,
      inconclusive: boolean,
      spf: openObject,
      dkim: openObject,
      dmarc: openObject,
      mx: openObject,
      bimi: openObject,
      checks: object({ mx: dnsCheck, spf: dnsCheck, dkim: dnsCheck, dmarc: dnsCheck, bimi: dnsCheck }),
      issues: array(openObject),
      checkedAt: string,
    },
    ['domain', 'score', 'inconclusive', 'spf', 'dkim', 'dmarc', 'mx', 'bimi', 'checks'],
  ),
  list_clients: object({
    clients: array(
      object({
        id: clientId,
        name: string,
        category: { type: 'string', enum: ['webmail', 'desktop', 'mobile'] },
        engine: { type: 'string', enum: ['WebKit', 'Blink', 'Word', 'Gecko'] },
        renderer: string,
        darkMode: string,
        darkModel: string,
        modelCheckedAt: string,
        behaviors: integer,
        inventory: object({
          modeled: integer,
          notModeled: integer,
          notApplicable: integer,
          sourcesReadAt: object({ caniemail: string, emailBugs: string, vendor: string }),
        }),
      }),
    ),
  }),
  diff_emails: object({
    before: diffSide,
    after: diffSide,
    clients: array(clientDiff),
    summary: object({
      improved: array(string),
      regressed: array(string),
      unchanged: array(string),
      added: array(string),
      removed: array(string),
      meanDelta: number,
    }),
  }),
  share_preview: object({ id: string, url: string, expiresAt: nullableString }),
  capture_screenshots: object(
    {
      screenshots: { type: 'object', additionalProperties: string, description: '"<clientId>-light|dark" to PNG URL: every screenshot of the preview.' },
      screenshotStatus: { type: 'string', enum: ['complete', 'partial', 'pending'] },
      captured: array(string),
      failed: array(object({ id: string, reason: string })),
      visualReport,
    },
    ['screenshots', 'screenshotStatus', 'captured', 'failed'],
  ),
  fix_email: fixResult,
  list_domains: object({
    domains: array(
      object(
        {
          id: string,
          domain: string,
          dkimSelectors: array(string),
          score: nullableNumber,
          status: { type: 'string', enum: ['pending', 'healthy', 'degraded', 'failing'] },
          lastCheckedAt: nullableString,
          createdAt: string,
        },
        ['id', 'domain', 'score', 'status'],
      ),
    ),
    limit: integer,
  }),
};
