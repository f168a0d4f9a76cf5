/**
 * The part of a preview result a gate baseline keeps: per client the score and counts, and the distinct
 * blocking CSS findings. Small and JSON-serializable (one baseline row per ref stores it), in a stable
 * order, so that two snapshots of the same email are byte-identical.
 */
import type { CssFinding } from '../analysis/css-finding';
import type { PreviewAnalysis } from '../preview-analysis';
import type { CompatibilityScore } from '../scores/compatibility-score';
import type { GateMessageInput } from './message-check';

/** Severities that can block a send: only errors and warnings; info notes never do. */
export type BlockingSeverity = 'error' | 'warning';

/** One distinct blocking finding. Identity: clientId + property + severity (see `findingKey`). */
export interface GateFinding {
  clientId: string;
  /** The CSS property, value, at-rule, selector or element, as in `cssReport`. */
  property: string;
  /** The engine's stable rule id (the caniemail slug or `unknown-property`), when the finding has one. */
  rule?: string;
  severity: BlockingSeverity;
}

export interface GateSnapshot {
  /** Shape version of the stored snapshot. */
  version: 1;
  overallScore: number;
  /** Client id -> score and distinct counts, keys in alphabetical order. */
  clients: Record<string, CompatibilityScore>;
  /** Distinct error and warning findings, sorted by client id, property, severity, rule. */
  findings: GateFinding[];
}

/** What the gate reads from a preview result: the stored JSON or the engine's `PreviewAnalysis`. */
export type GateResult = Pick<PreviewAnalysis, 'compatibilityScores' | 'cssReport'> &
  Partial<Pick<PreviewAnalysis, 'overallScore' | 'sizeReport' | 'linkReport' | 'imageReport'>> & {
    /** A whole message's report (`format: "eml"`), of which the message check reads the bulk-sender checklist; null or absent otherwise. */
    messageReport?: GateMessageInput | null;
  };

export const GATE_SNAPSHOT_VERSION = 1;

const SEVERITY_RANK: Record<BlockingSeverity, number> = { error: 0, warning: 1 };

export function isBlockingSeverity(severity: string): severity is BlockingSeverity {
  return severity === 'error' || severity === 'warning';
}

/** Plain code-unit comparison: the same order on every machine and locale. */
export function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * The identity of a finding across two analyses. The rule is not part of it: scores count distinct
 * properties per severity, and a rule id renamed by a support-data update must not read as a regression.
 */
export function findingKey(finding: Pick<GateFinding, 'clientId' | 'property' | 'severity'>): string {
  return `${finding.clientId}\u0000${finding.property}\u0000${finding.severity}`;
}

export function compareFindings(a: GateFinding, b: GateFinding): number {
  return (
    compareStrings(a.clientId, b.clientId) ||
    compareStrings(a.property, b.property) ||
    SEVERITY_RANK[a.severity] - SEVERITY_RANK[b.severity] ||
    compareStrings(a.rule ?? '', b.rule ?? '')
  );
}

/** Rounded mean of the scores; 100 when there are none (as the engine's `overallScore`). */
export function meanScore(scores: readonly number[]): number {
  if (scores.length === 0) return 100;
  return Math.round(scores.reduce((sum, score) => sum + score, 0) / scores.length);
}

function blockingFindings(cssReport: readonly Pick<CssFinding, 'client' | 'property' | 'rule' | 'severity'>[]): GateFinding[] {
  const byKey = new Map<string, GateFinding>();
  for (const finding of cssReport) {
    if (!isBlockingSeverity(finding.severity)) continue;
    const entry: GateFinding = { clientId: finding.client, property: finding.property, severity: finding.severity };
    if (typeof finding.rule === 'string' && finding.rule !== '') entry.rule = finding.rule;
    const key = findingKey(entry);
    const seen = byKey.get(key);
    // Several rules on one property and severity: keep the first rule id in code-unit order.
    if (!seen || (entry.rule !== undefined && (seen.rule === undefined || compareStrings(entry.rule, seen.rule) < 0))) byKey.set(key, entry);
  }
  return [...byKey.values()].sort(compareFindings);
}

/** The gate's view of a preview result (see the module comment). */
export function gateSnapshot(result: GateResult): GateSnapshot {
  const clients: Record<string, CompatibilityScore> = {};
  for (const clientId of Object.keys(result.compatibilityScores).sort(compareStrings)) {
    const { score, errors, warnings, info } = result.compatibilityScores[clientId];
    clients[clientId] = { score, errors, warnings, info };
  }
  const overallScore = typeof result.overallScore === 'number' ? result.overallScore : meanScore(Object.values(clients).map((client) => client.score));
  return { version: GATE_SNAPSHOT_VERSION, overallScore, clients, findings: blockingFindings(result.cssReport) };
}
