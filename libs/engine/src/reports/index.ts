export { buildReports, buildQualityReports, type BuildReportsOptions, type QualityReports } from './build-reports';
export { buildDarkContrast, transformDropMasks, DARK_CONTRAST_LISTING_LIMIT, type DarkContrastReport, type DarkContrastClientReport } from './dark-contrast';
export { createReportContext, type ReportContext, type ReportInput } from './context/report-context';
export type { ReportIssue, ReportSeverity, SourcePosition } from './context/report-issue';
export { sortIssues } from './context/report-issue';
export type { SpamReport, SpamTrigger } from './spam-report';
export { SPAM_COUNTERPARTS } from './spam-report';
export { COUNTERPART_POINTS, MAX_SIGNAL_POINTS, OWN_POINTS, PHRASE_POINTS_CAP, SHORT_TEXT_IMAGE_SHARE } from './spam-weights';
export {
  SPAMASSASSIN_SCORES,
  SPAMASSASSIN_VERSION,
  SPAMASSASSIN_REQUIRED_SCORE,
  SPAMASSASSIN_SCORE_SET,
  PHRASE_COUNTERPARTS,
  spamRiskLevel,
} from './spamassassin-scores';
export type { SizeReport } from './size-report';
export { GMAIL_CLIP_LIMIT_BYTES, GMAIL_CLIP_WARNING_BYTES } from './size-report';
export type { LinkReport, LinkEntry } from './link-report';
export type { AccessibilityReport } from './accessibility-report';
export type { ImageReport, ImageEntry } from './image-report';
export type { InboxPreview, InboxClientPreview } from './inbox-preview';
export type { TemplateReport, TemplateTag, TemplateLanguage } from './template-report';
export type { CompileWarning } from '../compile/compile-format';
export type { DesignReport, DesignValue, NearDuplicateColor } from './design-report';
export type { VmlReport } from './vml-report';
export type { PlainTextReport } from './plain-text';
export type { ContrastIssue } from './context/contrast-check';
export type { EmailFormat } from './context/report-context';
export { INBOX_LIMITS } from '../clients/inbox-limits';
