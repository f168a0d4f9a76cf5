import { CssFinding } from './analysis/css-finding';
import { ClientId } from './clients/email-client';
import { EmailFormat } from './fixes/code-fix';
import { CompatibilityScore } from './scores/compatibility-score';
import { TransformWarning } from './transforms/client-transform';

export interface AnalyzeEmailOptions {
  /** Selects framework-native fix snippets; never changes which findings fire. Default `html`. */
  format?: EmailFormat;
  /** Clients to analyse; all 21 when omitted. Output follows the canonical client order. */
  clients?: readonly ClientId[];
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
 * interface.md 2.1 without `id` and `screenshots`. The quality reports are null here; the reports
 * module fills them when it is wired in.
 */
export interface PreviewAnalysis {
  overallScore: number;
  transforms: ClientTransform[];
  compatibilityScores: Record<string, CompatibilityScore>;
  cssReport: CssFinding[];
  darkMode: Record<string, DarkModeResult>;
  spamReport: unknown | null;
  sizeReport: unknown | null;
  linkReport: unknown | null;
  accessibilityReport: unknown | null;
  imageReport: unknown | null;
  inboxPreview: unknown | null;
  templateReport: unknown | null;
  overflowReport: unknown | null;
  visualReport: unknown | null;
  darkContrast: unknown | null;
  mobileContrast: unknown | null;
  designReport: unknown | null;
  vmlReport: unknown | null;
  plainText: string | null;
}
