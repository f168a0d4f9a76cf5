import { CssFinding } from '../analysis/css-finding';
import { ClientId } from '../clients/email-client';

export interface CompatibilityScore {
  score: number;
  /** Distinct properties with an error / warning / info finding. */
  errors: number;
  warnings: number;
  info: number;
}

/**
 * Count distinct properties per severity;
 * score = clamp(0, 100, 100 - 10 * errors - 3 * warnings); info weighs nothing.
 */
export function scoreClients(findings: readonly CssFinding[], clients: readonly ClientId[]): Record<string, CompatibilityScore> {
  const sets = new Map<ClientId, { error: Set<string>; warning: Set<string>; info: Set<string> }>();
  for (const client of clients) sets.set(client, { error: new Set(), warning: new Set(), info: new Set() });
  for (const finding of findings) sets.get(finding.client)?.[finding.severity].add(finding.property);
  const scores: Record<string, CompatibilityScore> = {};
  for (const client of clients) {
    const s = sets.get(client) as { error: Set<string>; warning: Set<string>; info: Set<string> };
    const errors = s.error.size;
    const warnings = s.warning.size;
    scores[client] = { score: Math.min(100, Math.max(0, 100 - 10 * errors - 3 * warnings)), errors, warnings, info: s.info.size };
  }
  return scores;
}

/** Rounded mean of the analyzed clients' scores; 100 when no client was analyzed. */
export function overallScore(scores: Record<string, CompatibilityScore>): number {
  const values = Object.values(scores).map((s) => s.score);
  if (values.length === 0) return 100;
  return Math.round(values.reduce((sum, v) => sum + v, 0) / values.length);
}
