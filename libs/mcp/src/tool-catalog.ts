/**
 * Every MCP tool: its name, title, description, annotations and schemas. One list for both transports
 * (POST /api/mcp and `mailproof mcp`). Adding a tool is an entry here (with its input in tool-inputs.ts
 * and its output in tool-outputs.ts) and a handler in each transport that offers it.
 */
import { TOOL_INPUTS, type JsonSchema, type ToolName } from './tool-inputs';
import { TOOL_OUTPUTS } from './tool-outputs';

export interface ToolAnnotations {
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

export interface ToolDefinition {
  name: ToolName;
  title: string;
  description: string;
  inputSchema: JsonSchema;
  outputSchema: JsonSchema;
  annotations: ToolAnnotations;
}

type ToolText = Pick<ToolDefinition, 'title' | 'description' | 'annotations'>;

/** Saves a preview to the account, reads nothing outside the email: not read-only, not destructive. */
const STORES_A_PREVIEW: ToolAnnotations = { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false };
const READS_ONLY: ToolAnnotations = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };

const TEXTS: Record<ToolName, ToolText> = {
  preview_email: {
    title: 'Preview an email in 21 clients',
    description:
      'The complete preview result of POST /api/preview: per client the rewritten markup, warnings, score and dark-mode variant, every CSS finding and every quality report (with format eml, a whole .eml message, also messageReport: headers, parts, authentication and the Gmail/Yahoo bulk-sender checklist). Large (hundreds of KB); prefer analyze_email or audit_email unless you need the rewritten markup. Saved to your account; its id works with share_preview.',
    annotations: STORES_A_PREVIEW,
  },
  analyze_email: {
    title: 'Analyze email compatibility',
    description:
      'Scores an email (HTML, React Email JSX, MJML, Maizzle, or the HTML part of a whole .eml message with format eml) in each email client and lists its problems once each, across the clients they affect, with a suggestion per problem. detail "summary" (default) lists errors and warnings; "full" adds info notes, messages and fix snippets in the format of the input.',
    annotations: STORES_A_PREVIEW,
  },
  audit_email: {
    title: 'Audit email quality',
    description:
      'Every quality report of an email: spam, size and clipping, links, accessibility, images, inbox preview (subject, preheader), template checks, dark-mode and mobile contrast, design, VML and the plain-text alternative, with the per-client scores; for a whole message (format eml) messageReport: headers, MIME parts, authentication (SPF, DKIM, DMARC alignment) and the Gmail/Yahoo bulk-sender checklist, each item met or not with its fix.',
    annotations: STORES_A_PREVIEW,
  },
  gate_email: {
    title: 'Is this email safe to send?',
    description:
      'The pre-send gate (POST /api/gate): passed true or false with the failures that block the send (threshold, client errors, broken or placeholder links, size, alt text, regressions against the last passing version stored under ref, and for a whole message (format eml) that is bulk mail, bulk: true or a List-Unsubscribe header, each unmet Gmail/Yahoo bulk-sender requirement; with checks including visual and a ref, each client whose rendering departs further from the design than the last passing version did while the design itself changed little, with the regions and elements). Give exactly one of html and url. Needs a key on the Pro plan.',
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  },
  check_deliverability: {
    title: 'Audit a sending domain',
    description: "Audits a domain's SPF, DKIM, DMARC, MX and BIMI records now (POST /api/deliverability): a score, each record's status and the issues found.",
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  },
  list_clients: {
    title: 'List the email clients',
    description: 'The 21 email clients Mailproof analyzes: id (for the clients argument), name, category, rendering engine and dark-mode behavior.',
    annotations: READS_ONLY,
  },
  diff_emails: {
    title: 'Compare two versions of an email',
    description:
      "Analyzes two versions of an email and compares them per client: the errors and warnings fixed, introduced and unchanged, and each client's score before, after and the difference. The gate's regression check, on demand.",
    annotations: STORES_A_PREVIEW,
  },
  share_preview: {
    title: 'Share a preview',
    description: "Creates a public link to a saved preview (the previewId of another tool's result). Free plan links expire after 7 days; Pro links do not.",
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  },
  capture_screenshots: {
    title: 'Screenshots of a preview',
    description:
      "Renders a saved preview (the previewId of another tool's result) in headless Chromium as each client shows it, light and dark, and returns the PNG URLs. Waits a few seconds; screenshotStatus pending means they are still rendering (call again). Also returns visualReport: with a reference rendering, visualReport.divergence says per client and scheme how far its screenshot departs from the email as written (score 0-100) and where (regions with their elements, source lines and causes); a text block summarises it, clients most different first. Afterwards the preview also has overflowReport, mobileContrast and visualReport.",
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  },
  fix_email: {
    title: 'Fix an email',
    description:
      'Applies deterministic fixes to an email (POST /api/fix) and returns the patched email with a unified diff, the fixes applied (rule, clients helped, line) and skipped (with the reason), and the errors, warnings and score before and after. Each fix is proven by analyzing the result again; one that would introduce a finding is not applied. Everything outside the fixes stays byte-identical (merge tags, conditional comments). tiers ["safe"] by default; ["safe", "layout"] adds visible changes. For JSX and Maizzle the patched email is the compiled HTML, for a whole message (format eml) its decoded HTML part (patched "compiled-html", with a note).',
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  },
  list_domains: {
    title: 'List monitored sending domains',
    description: "The account's monitored sending domains with their DNS health (score, status, last check) and the plan's domain limit.",
    annotations: READS_ONLY,
  },
};

export const TOOL_NAMES = Object.keys(TOOL_INPUTS) as ToolName[];

export const TOOLS: readonly ToolDefinition[] = TOOL_NAMES.map((name) => ({
  name,
  ...TEXTS[name],
  inputSchema: TOOL_INPUTS[name],
  outputSchema: TOOL_OUTPUTS[name],
}));

export function isToolName(name: string): name is ToolName {
  return Object.prototype.hasOwnProperty.call(TOOL_INPUTS, name);
}
