/**
 * The input schema of every MCP tool, as JSON Schema. Each matches the HTTP request it wraps field by
 * field (same limits, client ids, formats and defaults); a parity test in the API compares them with
 * the OpenAPI schemas of the request DTOs, so a field added to one and not the other fails there.
 * Fields shared by several tools are written once below: a new email field (say, a `files` map of
 * local imports) goes into EMAIL_FIELDS and every email tool has it.
 */
import {
  CLIENT_IDS,
  EMAIL_FORMATS,
  ENGINE_LIMITS,
  FIX_TIERS,
  GATE_CHECK_FAMILIES,
  GATE_DEFAULT_THRESHOLD,
  GATE_VISUAL_DEFAULT_THRESHOLD,
} from '@mailproof/engine';
import { GATE_REF_PATTERN, RENDER_MODES, SOURCE_FILES_LIMITS, UPDATE_BASELINE_MODES } from '@mailproof/contracts';

/** A JSON Schema object (the subset the catalog uses); `maxUtf8Bytes` is ours, checked after the schema. */
export interface JsonSchema {
  type?: string | string[];
  description?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema;
  enum?: readonly (string | number)[];
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  minItems?: number;
  maxItems?: number;
  uniqueItems?: boolean;
  pattern?: string;
  default?: unknown;
  maxUtf8Bytes?: number;
  [keyword: string]: unknown;
}

/** Markup is at most 500 KB counted as UTF-8 bytes: the HTTP limit on `html`. */
export const MAX_MARKUP_BYTES = ENGINE_LIMITS.maxInputBytes;

function markup(description: string): JsonSchema {
  return { type: 'string', minLength: 1, maxUtf8Bytes: MAX_MARKUP_BYTES, description };
}

const CLIENTS: JsonSchema = {
  type: 'array',
  items: { type: 'string', enum: CLIENT_IDS },
  minItems: 1,
  maxItems: CLIENT_IDS.length,
  uniqueItems: true,
  description: `Client ids to analyze; all ${CLIENT_IDS.length} when omitted (list_clients lists them).`,
};

const FORMAT: JsonSchema = {
  type: 'string',
  enum: EMAIL_FORMATS,
  default: 'html',
  description:
    'Input format: html, jsx (React Email), mjml, maizzle, or eml (a raw RFC 5322 message: its HTML part is analyzed and the result gains messageReport). Selects framework-native fix snippets.',
};

/** `files`: the email's local imports (HTTP: OptionalSourceFiles); paths and sizes are checked by the service as HTTP checks them. */
const FILES: JsonSchema = {
  type: 'object',
  additionalProperties: { type: 'string' },
  maxProperties: SOURCE_FILES_LIMITS.maxFiles,
  description:
    'Local files the email imports, keyed by their path relative to the email: JSX components and Tailwind config, MJML mj-include, Maizzle layouts and components. ' +
    `Imports resolve only inside this map. At most ${SOURCE_FILES_LIMITS.maxFiles} files; html and files together at most ${SOURCE_FILES_LIMITS.maxTotalBytes} bytes (UTF-8).`,
};

const MJML_VALIDATION: JsonSchema = {
  type: 'string',
  enum: ['soft', 'strict'],
  default: 'soft',
  description: 'MJML validation: soft reports problems as warning findings with their line; strict refuses the email at the first.',
};

const RETAIN: JsonSchema = {
  type: 'boolean',
  default: true,
  description: "false: the email is not kept once this call's checks are done (scores and findings stay; the account's retention applies otherwise).",
};

/** The email and how to read it: the fields POST /api/preview and POST /api/gate share. */
export const EMAIL_FIELDS = {
  html: markup('Email markup: HTML, React Email JSX, MJML, Maizzle, or a whole message (.eml) with format eml; at most 500 KB (UTF-8 bytes).'),
  format: FORMAT,
  clients: CLIENTS,
  files: FILES,
  mjmlValidation: MJML_VALIDATION,
  retain: RETAIN,
} satisfies Record<string, JsonSchema>;

const TITLE: JsonSchema = { type: 'string', maxLength: 200, description: 'Title of the preview saved to your account.' };

function object(properties: Record<string, JsonSchema>, required: string[] = []): JsonSchema {
  return { type: 'object', properties, ...(required.length > 0 ? { required } : {}), additionalProperties: false };
}

/** How much of the grouped findings analyze_email returns. */
export const ANALYSIS_DETAILS = ['summary', 'full'] as const;
export type AnalysisDetail = (typeof ANALYSIS_DETAILS)[number];

export const TOOL_INPUTS = {
  /** POST /api/preview, exactly. */
  preview_email: object(
    {
      ...EMAIL_FIELDS,
      title: TITLE,
      screenshots: {
        type: 'boolean',
        default: false,
        description:
          'Also render screenshots of every client, light and dark (waits a few seconds; absent when not done by then; capture_screenshots asks again).',
      },
    },
    ['html'],
  ),
  /** POST /api/preview, answered as findings grouped across clients. */
  analyze_email: object(
    {
      ...EMAIL_FIELDS,
      title: TITLE,
      detail: {
        type: 'string',
        enum: ANALYSIS_DETAILS,
        default: 'summary',
        description: 'summary: errors and warnings, one line per problem across clients; full: every severity with messages and fix snippets.',
      },
    },
    ['html'],
  ),
  /** POST /api/preview, answered as the quality reports. */
  audit_email: object({ ...EMAIL_FIELDS, title: TITLE }, ['html']),
  /** POST /api/gate, exactly; the service checks that exactly one of html and url is given. */
  gate_email: object({
    html: markup('The email (HTML, JSX, MJML, Maizzle, or a whole message with format eml), at most 500 KB. Exactly one of html and url.'),
    url: {
      type: 'string',
      minLength: 1,
      maxLength: 2048,
      description: 'A "view in browser" link to import the email from (http/https, public addresses, at most 500 KB). Exactly one of html and url.',
    },
    format: FORMAT,
    files: { ...FILES, description: `${FILES.description} Not with url.` },
    mjmlValidation: MJML_VALIDATION,
    ref: {
      type: 'string',
      maxLength: 200,
      pattern: GATE_REF_PATTERN.source,
      description: 'Stable name of the email (1-200 letters, digits and ._/-:@); omit to skip regression checking.',
    },
    threshold: {
      type: 'number',
      minimum: 0,
      maximum: 100,
      default: GATE_DEFAULT_THRESHOLD,
      description: 'A client scoring below it fails the threshold check.',
    },
    checks: {
      type: 'array',
      items: { type: 'string', enum: GATE_CHECK_FAMILIES },
      minItems: 1,
      uniqueItems: true,
      description:
        'Check families to run; compatibility, content, regression and message when omitted. visual is opt-in and needs ref: the email is painted and each client compared with the last passing version.',
    },
    visualThreshold: {
      type: 'number',
      minimum: 0,
      maximum: 100,
      default: GATE_VISUAL_DEFAULT_THRESHOLD,
      description: "With visual: points a client's divergence from the reference rendering may grow over the baseline's before it fails.",
    },
    clients: CLIENTS,
    failOnError: { type: 'boolean', default: true, description: 'Whether a client with errors fails the gate.' },
    updateBaseline: { type: 'string', enum: UPDATE_BASELINE_MODES, default: 'on-pass', description: 'When the stored baseline of ref moves to this version.' },
    resolveLinks: { type: 'boolean', default: false, description: 'Fetch each link (at most 25, within 10 s) to check that it resolves.' },
    bulk: {
      type: 'boolean',
      default: false,
      description:
        'The mail is bulk: the message check holds a message (format eml) to the Gmail/Yahoo bulk-sender requirements even without a List-Unsubscribe header.',
    },
    retain: RETAIN,
  }),
  /** POST /api/deliverability, exactly. */
  check_deliverability: object(
    {
      domain: { type: 'string', maxLength: 1000, description: 'Domain to audit; a pasted URL or address is reduced to its domain.' },
      dkimSelectors: {
        type: 'array',
        items: { type: 'string', maxLength: 127 },
        maxItems: 20,
        description: 'DKIM selectors to probe before the common ones (at most 20).',
      },
    },
    ['domain'],
  ),
  /** GET /api/clients. */
  list_clients: object({}),
  /** Two previews (POST /api/preview each) compared with the gate's regression diff. */
  diff_emails: object(
    {
      before: markup('The earlier version of the email; at most 500 KB.'),
      after: markup('The new version of the email; at most 500 KB.'),
      format: FORMAT,
      clients: CLIENTS,
    },
    ['before', 'after'],
  ),
  /** POST /api/share, exactly. */
  share_preview: object(
    { previewId: { type: 'string', maxLength: 100, description: 'The previewId of a preview_email, analyze_email, audit_email or gate_email result.' } },
    ['previewId'],
  ),
  /** GET /api/domains. */
  list_domains: object({}),
  /** POST /api/preview/:id/screenshots: the path's id as `previewId`, then the body. */
  capture_screenshots: object(
    {
      previewId: { type: 'string', maxLength: 100, description: 'The previewId of a preview_email, analyze_email, audit_email or gate_email result.' },
      clients: { ...CLIENTS, description: 'Clients to render; every client of the preview when omitted. Each must be one the preview analyzed.' },
      modes: {
        type: 'array',
        items: { type: 'string', enum: RENDER_MODES },
        minItems: 1,
        maxItems: RENDER_MODES.length,
        uniqueItems: true,
        default: [...RENDER_MODES],
        description: 'light, dark or both.',
      },
    },
    ['previewId'],
  ),
  /** POST /api/fix, exactly. */
  fix_email: object(
    {
      ...EMAIL_FIELDS,
      clients: { ...CLIENTS, description: `Clients whose findings the fixes resolve and must not add to; all ${CLIENT_IDS.length} when omitted.` },
      tiers: {
        type: 'array',
        items: { type: 'string', enum: FIX_TIERS },
        minItems: 1,
        maxItems: FIX_TIERS.length,
        uniqueItems: true,
        default: ['safe'],
        description:
          'safe: invisible fixes (default). ["safe", "layout"] opts in to visible ones (CSS inlining, bulletproof buttons, VML backgrounds, unused CSS).',
      },
    },
    ['html'],
  ),
} satisfies Record<string, JsonSchema>;

export type ToolName = keyof typeof TOOL_INPUTS;
