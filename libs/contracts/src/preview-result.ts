import type { MessageReport, PreviewAnalysis } from '@mailproof/engine';
import type { MobileContrastReport, OverflowReport, VisualReport } from './rendered-reports';

/** One SpamAssassin rule that fired. */
export interface SpamAssassinRule {
  name: string;
  score: number;
  description: string | null;
}

/** spamd's verdict on the email, as the preview worker asks for it (SPAMASSASSIN_HOST). */
export interface SpamAssassinResult {
  score: number;
  /** spamd's required score; at or above it the message is spam. */
  threshold: number;
  isSpam: boolean;
  /** Rules that fired, in spamd's order (highest impact is not implied). */
  rules: SpamAssassinRule[];
}

type SpamReport = NonNullable<PreviewAnalysis['spamReport']>;
type ImageReport = NonNullable<PreviewAnalysis['imageReport']>;

/**
 * The spam report with the worker's SpamAssassin verdict (null when the check failed; see notes). When spamd
 * answered, `level` follows SpamAssassin's score (high at its threshold, its spam verdict; medium from half of
 * it), `engineLevel` keeps the engine's own level beside it, `levelSource` says which one `level` is and
 * `levelNote` says it in words (the engine's note, "Engine estimate, …", is replaced by "SpamAssassin's verdict: …").
 */
export type CheckedSpamReport = SpamReport & {
  spamassassin?: SpamAssassinResult | null;
  notes?: string[];
  engineLevel?: SpamReport['level'];
  levelSource?: 'engine' | 'spamassassin';
};

/** Image report with the worker's measurements: `bytes` per image where measured, the total, and notes. */
export type MeasuredImageReport = ImageReport & { totalBytes: number | null; notes: string[] };

/** The reports the preview worker completes with its network checks. */
export interface CheckedReports {
  spamReport: CheckedSpamReport | null;
  imageReport: MeasuredImageReport | ImageReport | null;
  /** format eml: the message report with its DNS-backed authentication (docs/messages.md); null for every other format. */
  messageReport: MessageReport | null;
}

/**
 * What the analysis stores for a preview, without the id: the engine's analysis with the worker's checked
 * reports in place of the engine's, and the compiled HTML for compiled formats (jsx, mjml, maizzle).
 */
export type PreviewResultBody = Omit<PreviewAnalysis, 'spamReport' | 'imageReport' | 'overflowReport' | 'visualReport' | 'mobileContrast'> &
  CheckedReports & {
    compiledHtml?: string;
    /** Measured by worker-render in the rendered pages; null until the preview is rendered. */
    overflowReport: OverflowReport | null;
    visualReport: VisualReport | null;
    mobileContrast: MobileContrastReport | null;
  };

/**
 * The preview result of the API (POST /api/preview and GET /api/preview/:id, docs/previews.md): the id, the
 * stored analysis and, once rendering finished, the screenshots ("<clientId>-light|dark" to PNG URL).
 * The API DTO (OpenAPI), the analysis thread that stores it, the share page and the CLI read this type.
 */
export type PreviewResult = { id: string; screenshots?: Record<string, string>; screenshotNotes?: string[] } & PreviewResultBody;
