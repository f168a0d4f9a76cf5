/** Shared shapes of every quality report's findings. */
export type ReportSeverity = 'error' | 'warning' | 'info';

/** Where a finding sits in the submitted markup (1-based, as editors count). */
export interface SourcePosition {
  line?: number;
  column?: number;
}

/** One finding of a report. `element` is a short opening-tag excerpt; `url` the link or image concerned. */
export interface ReportIssue extends SourcePosition {
  rule: string;
  severity: ReportSeverity;
  message: string;
  element?: string;
  url?: string;
}

const SEVERITY_ORDER: Record<ReportSeverity, number> = { error: 0, warning: 1, info: 2 };

/** Stable order for findings: by position in the source, then severity, then rule name. */
export function compareIssues(a: ReportIssue, b: ReportIssue): number {
  const lineA = a.line ?? Number.MAX_SAFE_INTEGER;
  const lineB = b.line ?? Number.MAX_SAFE_INTEGER;
  if (lineA !== lineB) return lineA - lineB;
  const columnA = a.column ?? 0;
  const columnB = b.column ?? 0;
  if (columnA !== columnB) return columnA - columnB;
  const severity = SEVERITY_ORDER[a.severity] - SEVERITY_ORDER[b.severity];
  if (severity !== 0) return severity;
  return a.rule < b.rule ? -1 : a.rule > b.rule ? 1 : 0;
}

export function sortIssues<T extends ReportIssue>(issues: T[]): T[] {
  return issues.sort(compareIssues);
}

/**
 * 100 minus a weight per finding, where each rule counts at most `perRuleCap` times so that one
 * repeated problem (forty images without alt) cannot hide every other problem.
 */
export function penaltyScore(issues: readonly ReportIssue[], weights: Record<ReportSeverity, number>, perRuleCap: number): number {
  const counted = new Map<string, number>();
  let penalty = 0;
  for (const issue of issues) {
    const seen = counted.get(issue.rule) ?? 0;
    if (seen >= perRuleCap) continue;
    counted.set(issue.rule, seen + 1);
    penalty += weights[issue.severity];
  }
  return Math.max(0, Math.min(100, 100 - penalty));
}
