/**
 * Entry point of the static quality reports: parses the email once and hands the same tree (and its
 * cascade) to every report. Pure: no I/O, deterministic output.
 */
import type { DefaultTreeAdapterTypes } from 'parse5';
import { buildAccessibilityReport, type AccessibilityReport } from './accessibility-report';
import { buildDesignReport, type DesignReport } from './design-report';
import { buildImageReport, type ImageReport } from './image-report';
import { buildInboxPreview, type InboxPreview } from './inbox-preview';
import { buildLinkReport, type LinkReport } from './link-report';
import { parseEmail } from './parsed-email';
import { buildPlainText, type PlainTextReport } from './plain-text';
import { createReportContext, type EmailFormat } from './report-context';
import { buildSizeReport, type SizeReport } from './size-report';
import { buildSpamReport, type SpamReport } from './spam-report';
import { buildTemplateReport, type CompileWarning, type TemplateReport } from './template-report';
import { buildVmlReport, type VmlReport } from './vml-report';

export interface BuildReportsOptions {
  format: EmailFormat;
  /** Client ids the request analyses; per-client parts of the reports cover these. */
  clients: readonly string[];
  /** Warnings of the framework compiler (MJML validation), shown in the template report. */
  compileWarnings?: readonly CompileWarning[];
  /**
   * The parse5 document of this same `html`, parsed with `sourceCodeLocationInfo: true` (for example the
   * engine's `ParsedEmail.document`), so the reports reuse the analysis parse instead of parsing again.
   */
  parsedDocument?: DefaultTreeAdapterTypes.Document;
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

export function buildReports(html: string, options: BuildReportsOptions): QualityReports {
  const parsed = parseEmail(html, options.parsedDocument);
  const context = createReportContext(parsed, options.format, options.clients);
  return {
    spamReport: buildSpamReport(context),
    sizeReport: buildSizeReport(context),
    linkReport: buildLinkReport(context),
    accessibilityReport: buildAccessibilityReport(context),
    imageReport: buildImageReport(context),
    inboxPreview: buildInboxPreview(context),
    templateReport: buildTemplateReport(context, options.compileWarnings ?? []),
    designReport: buildDesignReport(context),
    vmlReport: buildVmlReport(context),
    plainText: buildPlainText(context),
  };
}
