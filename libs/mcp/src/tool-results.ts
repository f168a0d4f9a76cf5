/**
 * The structured results of the tools that reshape a preview result for an assistant. Pure: the API
 * feeds them the stored result of a preview, the CLI its in-process analysis, so both transports
 * answer alike.
 */
import {
  countBySeverity,
  diffAnalyses,
  gateSnapshot,
  getClient,
  groupFindings,
  type AnalysisDiff,
  type ClientId,
  type CodeFix,
  type CompatibilityScore,
  type CssFinding,
  type FindingGroup,
  type Severity,
} from '@mailproof/engine';
import type { AnalysisDetail } from './tool-inputs';
import { REPORT_FIELDS } from './tool-outputs';

/** What the shaping reads from a preview result (the API's stored JSON or the engine's analysis). */
export interface AnalysisLike {
  overallScore: number;
  compatibilityScores: Record<string, CompatibilityScore>;
  cssReport: CssFinding[];
  [field: string]: unknown;
}

export interface GroupedFinding extends Omit<FindingGroup, 'line' | 'column'> {
  line?: number;
  column?: number;
  /** detail full: the message of the group's first finding and its fix snippet where one exists. */
  message?: string;
  fix?: CodeFix;
}

export interface AnalyzeEmailResult {
  previewId: string | null;
  detail: AnalysisDetail;
  overallScore: number;
  worstClient: string | null;
  clients: Array<{ clientId: string; name: string } & CompatibilityScore>;
  counts: Record<Severity, number>;
  findings: GroupedFinding[];
}

const groupKey = (finding: Pick<CssFinding, 'severity' | 'rule' | 'property'>) => `${finding.severity}\u0000${finding.rule}\u0000${finding.property}`;

/** Drops undefined positions: JSON has no undefined, and the output schema types them as integers. */
function withoutUndefined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}

/**
 * Findings grouped by problem across clients (one `<svg>` line for 15 clients), with every client's
 * score. `summary` keeps errors and warnings without messages; `full` keeps info notes too, with the
 * message and fix snippet of each problem (the format's own syntax for jsx, mjml and maizzle).
 */
export function analyzeEmailResult(result: AnalysisLike, previewId: string | null, detail: AnalysisDetail): AnalyzeEmailResult {
  const groups = groupFindings(result.cssReport);
  const counts = countBySeverity(groups);
  // The message of a group's first finding, and the first fix any of its clients has.
  const messages = new Map<string, string>();
  const fixes = new Map<string, CodeFix>();
  for (const finding of result.cssReport) {
    const key = groupKey(finding);
    if (!messages.has(key)) messages.set(key, finding.message);
    if (finding.fix && !fixes.has(key)) fixes.set(key, finding.fix);
  }
  const findings = groups
    .filter((group) => detail === 'full' || group.severity !== 'info')
    .map((group): GroupedFinding => {
      if (detail === 'summary') return withoutUndefined({ ...group });
      const key = groupKey(group);
      return withoutUndefined({ ...group, message: messages.get(key), fix: fixes.get(key) });
    });
  const clients = Object.entries(result.compatibilityScores).map(([clientId, score]) => ({
    clientId,
    name: getClient(clientId as ClientId).name,
    score: score.score,
    errors: score.errors,
    warnings: score.warnings,
    info: score.info,
  }));
  const worst = clients.reduce<(typeof clients)[number] | null>((lowest, client) => (lowest === null || client.score < lowest.score ? client : lowest), null);
  return { previewId, detail, overallScore: result.overallScore, worstClient: worst?.clientId ?? null, clients, counts, findings };
}

/** The quality reports of a result (spam, size, links, accessibility, images, ...) and the message report, each an object or null. */
export function auditEmailResult(result: AnalysisLike, previewId: string | null): Record<string, unknown> {
  const audit: Record<string, unknown> = { previewId, overallScore: result.overallScore, compatibilityScores: result.compatibilityScores };
  for (const field of REPORT_FIELDS) audit[field] = result[field] ?? null;
  // A whole message's report (format eml); null for the other formats and for results stored before it existed.
  audit.messageReport = result.messageReport ?? null;
  return audit;
}

export interface DiffEmailsResult extends AnalysisDiff {
  before: { previewId: string | null; overallScore: number };
  after: { previewId: string | null; overallScore: number };
}

/** Per client: the blocking findings fixed, introduced and unchanged, and the score delta (the gate's regression diff). */
export function diffEmailsResult(
  before: { result: AnalysisLike; previewId: string | null },
  after: { result: AnalysisLike; previewId: string | null },
): DiffEmailsResult {
  const diff = diffAnalyses(gateSnapshot(before.result), gateSnapshot(after.result));
  return {
    before: { previewId: before.previewId, overallScore: before.result.overallScore },
    after: { previewId: after.previewId, overallScore: after.result.overallScore },
    ...diff,
  };
}

/** What the summary reads of `visualReport.divergence`; anything else is ignored. */
interface DivergenceLike {
  score: number;
  regions: Array<{
    box: { x: number; y: number; width: number; height: number };
    kind: string;
    elements: Array<{ selector: string; line: number | null }>;
    cause?: { message: string; property?: string; behaviour?: string };
  }>;
}

function isDivergence(value: unknown): value is DivergenceLike {
  return typeof value === 'object' && value !== null && typeof (value as DivergenceLike).score === 'number' && Array.isArray((value as DivergenceLike).regions);
}

/** How many clients and regions the text summary names: enough to say where to look, short enough to read. */
export const DIVERGENCE_SUMMARY_LIMITS = { clients: 5, regionsPerClient: 2 } as const;

/**
 * A few lines for the assistant on `visualReport.divergence`: clients ordered by divergence (their worse
 * scheme), each with its top regions (kind, box, first element and line, cause). Null when the result has
 * no divergence (no screenshots, or no reference painted). The structured result keeps everything.
 */
export function divergenceSummary(visualReport: unknown): string | null {
  const divergence = typeof visualReport === 'object' && visualReport !== null ? (visualReport as { divergence?: unknown }).divergence : undefined;
  if (typeof divergence !== 'object' || divergence === null) return null;
  const clients = Object.entries(divergence as Record<string, Record<string, unknown>>)
    .map(([clientId, schemes]) => {
      const painted = Object.entries(schemes ?? {}).filter((entry): entry is [string, DivergenceLike] => isDivergence(entry[1]));
      const worst = painted.reduce<[string, DivergenceLike] | null>((max, entry) => (max === null || entry[1].score > max[1].score ? entry : max), null);
      return { clientId, painted, worst };
    })
    .filter((client) => client.worst !== null)
    .sort((a, b) => b.worst![1].score - a.worst![1].score || (a.clientId < b.clientId ? -1 : 1));
  if (clients.length === 0) return null;
  const lines = [`Visual divergence from the email as written (0 = identical, 100 = nothing in common), ${clients.length} clients, most different first:`];
  for (const client of clients.slice(0, DIVERGENCE_SUMMARY_LIMITS.clients)) {
    const scores = client.painted.map(([scheme, d]) => `${scheme} ${Math.round(d.score * 10) / 10}`).join(', ');
    lines.push(`- ${client.clientId}: ${scores}`);
    const [scheme, worst] = client.worst!;
    for (const region of worst.regions.slice(0, DIVERGENCE_SUMMARY_LIMITS.regionsPerClient)) {
      const { x, y, width, height } = region.box;
      const element = region.elements[0];
      const where = element ? ` at ${element.selector}${element.line !== null ? ` (line ${element.line})` : ''}` : '';
      const cause = region.cause ? `: ${region.cause.message}` : '';
      lines.push(`  - ${scheme} ${region.kind} region ${Math.round(width)}x${Math.round(height)} at (${Math.round(x)}, ${Math.round(y)})${where}${cause}`);
    }
    if (worst.regions.length > DIVERGENCE_SUMMARY_LIMITS.regionsPerClient)
      lines.push(`  - and ${worst.regions.length - DIVERGENCE_SUMMARY_LIMITS.regionsPerClient} more region(s) in visualReport.divergence`);
  }
  if (clients.length > DIVERGENCE_SUMMARY_LIMITS.clients)
    lines.push(`- and ${clients.length - DIVERGENCE_SUMMARY_LIMITS.clients} more client(s), all in visualReport.divergence`);
  return lines.join('\n');
}
