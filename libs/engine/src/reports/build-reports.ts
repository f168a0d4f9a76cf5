/**
 * Entry point of the static quality reports. Inside the engine `analyzeEmail` builds them on its own
 * parse and cascade (`buildQualityReports`); `buildReports` does the same for callers holding only HTML.
 * Pure: no I/O, deterministic output.
 */
import { SelectorCache, computeStyleCascade } from '../analysis/style-cascade';
import { CLIENT_IDS, type ClientId } from '../clients/email-client';
import type { CompileWarning } from '../compile/compile-format';
import { parseEmail } from '../parse/parse-email';
import { buildAccessibilityReport, type AccessibilityReport } from './accessibility-report';
import { buildDesignReport, type DesignReport } from './design-report';
import { buildImageReport, type ImageReport } from './image-report';
import { buildInboxPreview, type InboxPreview } from './inbox-preview';
import { buildLinkReport, type LinkReport } from './link-report';
import { buildPlainText, type PlainTextReport } from './plain-text';
import { createReportContext, type EmailFormat, type ReportContext } from './context/report-context';
import { buildSizeReport, type SizeReport } from './size-report';
import { buildSpamReport, type SpamReport } from './spam-report';
import { buildTemplateReport, type TemplateReport } from './template-report';
import { buildVmlReport, type VmlReport } from './vml-report';

export interface BuildReportsOptions {
  format: EmailFormat;
  /** Client ids the request analyzes; per-client parts of the reports cover these (unknown ids are ignored). */
  clients: readonly string[];
  /** Warnings of the framework compiler (MJML validation), shown in the template report. */
  compileWarnings?: readonly CompileWarning[];
}

export interface QualityReports {
  spamReport: SpamReport;
  sizeReport: SizeReport;
  linkReport: LinkReport;
  accessibilityReport: AccessibilityReport;
  imageReport: ImageReport;
  inboxPreview: InboxPreview;
  templateReport: TemplateReport;
  designReport: DesignReport;
  /** Null when the email has no Outlook conditional comments and no VML. */
  vmlReport: VmlReport | null;
  plainText: PlainTextReport;
}

/** Every static report from one shared context (one parse, one cascade). */
export function buildQualityReports(context: ReportContext, compileWarnings: readonly CompileWarning[] = []): QualityReports {
  return {
    spamReport: buildSpamReport(context),
    sizeReport: buildSizeReport(context),
    linkReport: buildLinkReport(context),
    accessibilityReport: buildAccessibilityReport(context),
    imageReport: buildImageReport(context),
    inboxPreview: buildInboxPreview(context),
    templateReport: buildTemplateReport(context, compileWarnings),
    designReport: buildDesignReport(context),
    vmlReport: buildVmlReport(context),
    plainText: buildPlainText(context),
  };
}

/**
 * The static reports of an HTML string, on the engine's parse (its limits apply: EngineLimitError past
 * them). `analyzeEmail` returns the same reports together with the rest of the analysis.
 */
export function buildReports(html: string, options: BuildReportsOptions): QualityReports {
  const parsed = parseEmail(html);
  const selectors = new SelectorCache();
  const cascade = computeStyleCascade(parsed, selectors);
  const wanted = new Set(options.clients);
  const clients: ClientId[] = CLIENT_IDS.filter((id) => wanted.has(id));
  return buildQualityReports(createReportContext({ parsed, cascade, selectors, format: options.format, clients }), options.compileWarnings);
}
