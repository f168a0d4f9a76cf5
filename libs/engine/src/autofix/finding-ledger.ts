import { analysisFormat, analyzeCompatibility, type AnalysisParts } from '../analyze-email';
import type { CssFinding } from '../analysis/css-finding';
import type { ClientId } from '../clients/email-client';
import type { CompileWarning } from '../compile/compile-format';
import type { EmailFormat } from '../fixes/code-fix';
import type { ParsedEmail } from '../parse/parse-email';
import { buildAccessibilityReport } from '../reports/accessibility-report';
import type { ReportContext } from '../reports/context/report-context';
import { createReportContext } from '../reports/context/report-context';
import type { ReportIssue } from '../reports/context/report-issue';
import { transformDropMasks } from '../reports/dark-contrast';
import { buildDesignReport } from '../reports/design-report';
import { buildSizeReport } from '../reports/size-report';
import { buildTemplateReport } from '../reports/template-report';
import { buildVmlReport } from '../reports/vml-report';
import { overallScore, scoreClients } from '../scores/compatibility-score';

/** A finding a fix is meant to make go away: a cssReport rule, or a quality report's issue rule. */
export interface FindingTarget {
  report: 'css' | 'accessibility' | 'vml' | 'design' | 'template' | 'size';
  rule: string;
}

export interface FixTally {
  /** The overall compatibility score over the requested clients. */
  score: number;
  /** Error and warning findings: cssReport's for the requested clients plus the accessibility, VML, design, template and size reports'. */
  errors: number;
  warnings: number;
}

/** A finding the patched email has and the submitted one did not (always empty in an answer: such fixes are rolled back). */
export interface IntroducedFinding {
  report: FindingTarget['report'];
  rule: string;
  client?: ClientId;
  severity: 'error' | 'warning';
  message: string;
}

/** One finding of an email, from cssReport (per client) or from a quality report. */
export interface LedgerFinding {
  report: FindingTarget['report'];
  rule: string;
  severity: 'error' | 'warning' | 'info';
  message: string;
  client?: ClientId;
  property?: string;
  line?: number;
}

/**
 * The findings a fix is judged by: the compatibility findings and score of the requested clients, and
 * the issues of the reports a fix can change (accessibility, VML, design, template, size). The spam, link,
 * image, size and plain-text reports read the content, which no fix changes, so they are not computed.
 */
export class FindingLedger {
  /** Per report, rule, client and property: how many errors, and how many errors and warnings. */
  private readonly severities = new Map<string, { errors: number; problems: number }>();

  constructor(
    /** The parse the findings are of; the rules read it, never another parse of the same text. */
    readonly parsed: ParsedEmail,
    readonly findings: readonly LedgerFinding[],
    readonly score: number,
    /** The report context of the analysed parse, which the rules read (styles, images, data tables). */
    readonly report: ReportContext,
  ) {
    for (const finding of findings) {
      if (finding.severity === 'info') continue;
      const tally = this.severities.get(ledgerKey(finding)) ?? { errors: 0, problems: 0 };
      tally.problems++;
      if (finding.severity === 'error') tally.errors++;
      this.severities.set(ledgerKey(finding), tally);
    }
  }

  tally(): FixTally {
    let errors = 0;
    let warnings = 0;
    for (const finding of this.findings) {
      if (finding.severity === 'error') errors++;
      else if (finding.severity === 'warning') warnings++;
    }
    return { score: this.score, errors, warnings };
  }

  /**
   * Findings per report and rule, and per report, rule and client: built on the first count. The fixer
   * counts once per applied fix, target and client (thousands of times over thousands of findings), which
   * a scan per count made the costliest step of a fix (issue 40's profile of the gate's suggested fix).
   */
  private counts: Map<string, number> | undefined;

  /** How many findings (any severity) match a target. */
  count(target: FindingTarget, client?: ClientId): number {
    if (!this.counts) {
      const counts = new Map<string, number>();
      for (const finding of this.findings) {
        const ruleKey = countKey(finding.report, finding.rule);
        counts.set(ruleKey, (counts.get(ruleKey) ?? 0) + 1);
        if (finding.client !== undefined)
          counts.set(countKey(finding.report, finding.rule, finding.client), (counts.get(countKey(finding.report, finding.rule, finding.client)) ?? 0) + 1);
      }
      this.counts = counts;
    }
    return this.counts.get(countKey(target.report, target.rule, client)) ?? 0;
  }

  /**
   * Error and warning findings this ledger has more of than `earlier`: for the same report, rule, client
   * and property, more errors, or more errors and warnings together. An error that became a warning is
   * not introduced; a warning that became an error is. Info findings (support unknown, advice) never count.
   */
  introducedSince(earlier: FindingLedger): IntroducedFinding[] {
    const seen = new Map<string, { errors: number; problems: number }>();
    const introduced: IntroducedFinding[] = [];
    for (const finding of this.findings) {
      if (finding.severity === 'info') continue;
      const key = ledgerKey(finding);
      const tally = seen.get(key) ?? { errors: 0, problems: 0 };
      seen.set(key, tally);
      tally.problems++;
      if (finding.severity === 'error') tally.errors++;
      const before = earlier.severities.get(key) ?? { errors: 0, problems: 0 };
      const worse = finding.severity === 'error' ? tally.errors > before.errors : tally.problems > before.problems;
      if (worse) introduced.push({ report: finding.report, rule: finding.rule, client: finding.client, severity: finding.severity, message: finding.message });
    }
    return introduced;
  }
}

function ledgerKey(finding: LedgerFinding): string {
  return `${finding.report}\u0000${finding.rule}\u0000${finding.client ?? ''}\u0000${finding.property ?? ''}`;
}

function fromIssues(report: LedgerFinding['report'], issues: readonly ReportIssue[]): LedgerFinding[] {
  return issues.map((issue) => ({ report, rule: issue.rule, severity: issue.severity, message: issue.message, line: issue.line }));
}

/**
 * The findings analysis of one parse: what analyzeParsedEmail computes for cssReport and the scores,
 * plus the five reports above, without rendering any client's markup.
 */
export function buildFindingLedger(
  parsed: ParsedEmail,
  format: EmailFormat,
  clients: readonly ClientId[],
  compileWarnings: readonly CompileWarning[] = [],
): FindingLedger {
  const analyzed = analysisFormat(format);
  const { selectors, cascade, transformContext, cssReport } = analyzeCompatibility(parsed, analyzed, clients);
  const report = createReportContext({ parsed, cascade, selectors, format: analyzed, clients, dropMasks: transformDropMasks(transformContext) });
  return ledgerOf(parsed, clients, cssReport, report, {
    accessibility: buildAccessibilityReport(report).issues,
    vml: buildVmlReport(report)?.issues ?? [],
    design: buildDesignReport(report).issues,
    template: buildTemplateReport(report, compileWarnings).issues,
    size: buildSizeReport(report).issues,
  });
}

/**
 * The ledger buildFindingLedger gives for the parse an analysis made (analyzeEmailKeepingParts), from what
 * the analysis computed: its compatibility findings, report context and reports (the same functions of
 * the same context). Only the template report is built again when the fixer's compile warnings are not
 * the analysis's (they are findings of it). Tested equal to buildFindingLedger over the corpus.
 */
export function findingLedgerOfAnalysis(parts: AnalysisParts, compileWarnings: readonly CompileWarning[] = []): FindingLedger {
  const reports = parts.qualityReports;
  const template = sameWarnings(parts.compileWarnings, compileWarnings) ? reports.templateReport : buildTemplateReport(parts.reportContext, compileWarnings);
  return ledgerOf(parts.parsed, parts.clients, parts.cssReport, parts.reportContext, {
    accessibility: reports.accessibilityReport.issues,
    vml: reports.vmlReport?.issues ?? [],
    design: reports.designReport.issues,
    template: template.issues,
    size: reports.sizeReport.issues,
  });
}

function sameWarnings(a: readonly CompileWarning[], b: readonly CompileWarning[]): boolean {
  return (
    a.length === b.length &&
    a.every((warning, index) => warning.message === b[index].message && warning.line === b[index].line && warning.column === b[index].column)
  );
}

/** The ledger's findings in a fixed order: cssReport, then the accessibility, VML, design, template and size issues. */
function ledgerOf(
  parsed: ParsedEmail,
  clients: readonly ClientId[],
  cssReport: readonly CssFinding[],
  report: ReportContext,
  issues: Record<'accessibility' | 'vml' | 'design' | 'template' | 'size', readonly ReportIssue[]>,
): FindingLedger {
  const findings: LedgerFinding[] = cssReport.map((finding) => ({
    report: 'css',
    rule: finding.rule,
    severity: finding.severity,
    message: finding.message,
    client: finding.client,
    property: finding.property,
    line: finding.line,
  }));
  findings.push(
    ...fromIssues('accessibility', issues.accessibility),
    ...fromIssues('vml', issues.vml),
    ...fromIssues('design', issues.design),
    ...fromIssues('template', issues.template),
    ...fromIssues('size', issues.size),
  );
  return new FindingLedger(parsed, findings, overallScore(scoreClients(cssReport, clients)), report);
}

function countKey(report: string, rule: string, client?: string): string {
  return client === undefined ? `${report}\u0000${rule}` : `${report}\u0000${rule}\u0000${client}`;
}
