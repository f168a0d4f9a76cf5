import { CssFinding } from './analysis/css-finding';
import { ClientId } from './clients/email-client';
import type { CompileWarning } from './compile/compile-format';
import type { SourcePosition } from './compile/source-positions';
import { EmailFormat } from './fixes/code-fix';
import type { AccessibilityReport } from './reports/accessibility-report';
import type { DarkContrastReport } from './reports/dark-contrast';
import type { DesignReport } from './reports/design-report';
import type { ImageReport } from './reports/image-report';
import type { InboxPreview } from './reports/inbox-preview';
import type { LinkReport } from './reports/link-report';
import type { PlainTextReport } from './reports/plain-text';
import type { SizeReport } from './reports/size-report';
import type { SpamReport } from './reports/spam-report';
import type { TemplateReport } from './reports/template-report';
import type { VmlReport } from './reports/vml-report';
import { CompatibilityScore } from './scores/compatibility-score';
import { TransformWarning } from './transforms/client-transform';

export interface AnalyzeEmailOptions {
  /** Selects framework-native fix snippets; never changes which findings fire. Default `html`. */
  format?: EmailFormat;
  /** Clients to analyze; all 21 when omitted. Output follows the canonical client order. */
  clients?: readonly ClientId[];
  /** Warnings of the framework compiler (MJML validation), listed in the template report. */
  compileWarnings?: readonly CompileWarning[];
  /** Where the compiled elements came from in the template's source: cssReport positions are placed there. */
  sourcePositions?: readonly SourcePosition[];
  /**
   * Build the quality reports (default true). False leaves them null: for callers that need only the
   * compatibility analysis, and for the benchmark, which measures the reports' cost as the difference.
   */
  reports?: boolean;
}

export interface ClientTransform {
  clientId: ClientId;
  html: string;
  warnings: TransformWarning[];
}

export interface DarkModeResult {
  html: string;
  warnings: TransformWarning[];
}

/**
 * The preview result without `id` and `screenshots`. The static quality reports are filled (docs/reports.md);
 * `overflowReport`, `visualReport` and `mobileContrast` need a rendered page and stay null here.
 */
export interface PreviewAnalysis {
  overallScore: number;
  transforms: ClientTransform[];
  compatibilityScores: Record<string, CompatibilityScore>;
  cssReport: CssFinding[];
  darkMode: Record<string, DarkModeResult>;
  spamReport: SpamReport | null;
  sizeReport: SizeReport | null;
  linkReport: LinkReport | null;
  accessibilityReport: AccessibilityReport | null;
  imageReport: ImageReport | null;
  inboxPreview: InboxPreview | null;
  templateReport: TemplateReport | null;
  overflowReport: null;
  visualReport: null;
  darkContrast: DarkContrastReport | null;
  mobileContrast: null;
  designReport: DesignReport | null;
  /** Null also when the email has no Outlook conditional comments and no VML. */
  vmlReport: VmlReport | null;
  plainText: PlainTextReport | null;
}
