/**
 * What a failing gate verdict suggests (docs/gate.md, "Suggested fix"): how many of the email's findings
 * the safe fixes resolve, and the POST /api/fix request that applies them. Pure: the caller hands over the
 * compiled HTML the gate analyzed.
 */
import { resolveClients, type AnalysisParts } from '../analyze-email';
import type { ClientId } from '../clients/email-client';
import type { CompileWarning } from '../compile/compile-format';
import type { SourcePosition } from '../compile/source-positions';
import type { EmailFormat } from '../fixes/code-fix';
import { resolvedByFixes } from '../autofix/fix-email';
import { FIX_RULES } from '../autofix/fix-rules';
import type { PreviewAnalysis } from '../preview-analysis';
import type { GateResult } from './gate-snapshot';
import { gateVerdict, type GateCheckFamily, type GateOptions } from './gate-verdict';

/** The request that fixes what `fixable` counts; its body lacks `html` (and `files`): the email the gate judged. */
export interface GateSuggestedFixRequest {
  method: 'POST';
  path: '/api/fix';
  body: { format: EmailFormat; clients: ClientId[]; tiers: ['safe'] };
}

export interface GateSuggestedFix {
  /** Findings the safe fixes resolve, proven by re-analysis (the sum of the fix result's `resolved`). */
  fixable: number;
  request: GateSuggestedFixRequest;
}

export interface GateSuggestedFixOptions {
  format: EmailFormat;
  /** The clients the gate checked; all 21 when none. */
  clients?: readonly string[] | null;
  compileWarnings?: readonly CompileWarning[];
  sourcePositions?: readonly SourcePosition[];
  /**
   * The gate's own analysis of this HTML (analyzeEmailKeepingParts), when the caller still holds it: the
   * fixer's first ledger is made from it instead of analyzing the email again. The count is the same.
   */
  analyzed?: AnalysisParts;
}

/**
 * Runs the safe fixes over the analyzed HTML and counts the findings they resolve; null when they resolve
 * none (a verdict then suggests nothing). A fix that helps without resolving a finding (the Apple meta)
 * is not counted: the count is of findings, as the verdict's failures are.
 */
export function gateSuggestedFix(html: string, options: GateSuggestedFixOptions): GateSuggestedFix | null {
  const clients = resolveClients(options.clients ?? undefined);
  // The fix answer's `resolved` alone: the same verified passes as fixEmail, without describing the fixes.
  const resolved = resolvedByFixes(
    html,
    {
      format: options.format,
      clients,
      tiers: ['safe'],
      compileWarnings: options.compileWarnings,
      sourcePositions: options.sourcePositions,
    },
    options.analyzed,
  );
  const fixable = Object.values(resolved).reduce((sum, count) => sum + count, 0);
  if (fixable === 0) return null;
  return { fixable, request: { method: 'POST', path: '/api/fix', body: { format: options.format, clients, tiers: ['safe'] } } };
}

/** The findings the safe rules resolve, by report and rule (what `fixable` can count at all). */
const SAFE_FIX_TARGETS: ReadonlySet<string> = new Set(
  FIX_RULES.filter((rule) => rule.tier === 'safe').flatMap((rule) => rule.resolves.map((target) => `${target.report}\u0000${target.rule}`)),
);

/**
 * How many findings of an analysis the safe rules target, or null when its reports are off (unknown).
 * `fixable` counts how many of these go away, so 0 means a suggested fix is known to be absent without running
 * the fixer (which costs about an analysis): the gate settles such a run at once (docs/gate.md). The analysis is
 * of the HTML the fixer would start from, for the same clients, so its findings are the fixer's first ledger's.
 */
export function safeFixTargetCount(analysis: Pick<PreviewAnalysis, 'cssReport' | 'accessibilityReport' | 'vmlReport' | 'designReport'>): number | null {
  if (!analysis.accessibilityReport || !analysis.designReport) return null;
  const targeted = (report: string, rule: string) => SAFE_FIX_TARGETS.has(`${report}\u0000${rule}`);
  let count = analysis.cssReport.filter((finding) => targeted('css', finding.rule)).length;
  for (const [report, issues] of [
    ['accessibility', analysis.accessibilityReport.issues],
    ['vml', analysis.vmlReport?.issues ?? []],
    ['design', analysis.designReport.issues],
  ] as const) {
    count += issues.filter((issue) => targeted(report, issue.rule)).length;
  }
  return count;
}

/** The families an analysis alone decides: the regression check needs the ref's baseline, link-unreachable the resolved links, visual the paint. */
const ANALYSIS_FAMILIES: ReadonlySet<GateCheckFamily> = new Set(['compatibility', 'content', 'message']);

/**
 * Whether the gate's verdict will fail whatever the steps after the analysis find: the verdict's failures are the
 * union of its families', and these families read nothing but the analysis. Lets the analysis go on to the
 * suggested fix with its own parse and findings before the verdict step runs (docs/gate.md, "Suggested fix").
 * False says nothing: the verdict may still fail on a regression, an unreachable link or the visual check.
 */
export function analysisFailsGate(result: GateResult, options: Omit<GateOptions, 'visualThreshold'>): boolean {
  const checks = (options.checks ?? []).filter((family) => ANALYSIS_FAMILIES.has(family));
  if (checks.length === 0) return false;
  return !gateVerdict({ result, options: { ...options, checks } }).passed;
}
