import type { ImageReport, ReportIssue } from '@mailproof/engine/reports';
import { sortIssues } from '@mailproof/engine/reports';
import { headUrls, type SsrfGuard } from '@mailproof/net-guard';
import type { MeasuredImageReport } from '@mailproof/contracts';

/** Issue 6 (docs/reports.md): at most 25 distinct image URLs per preview, 3 s for all of them together. */
export const IMAGE_WEIGHT_LIMITS = { maxImages: 25, budgetMs: 3000, concurrency: 6 } as const;
/** One image over this weighs down the email on mobile connections. */
export const HEAVY_IMAGE_BYTES = 1024 * 1024;

const humanBytes = (bytes: number): string => (bytes < 1024 * 1024 ? `${(bytes / 1024).toFixed(1)} KB` : `${(bytes / (1024 * 1024)).toFixed(2)} MB`);

/**
 * Fills `bytes` of the report's http(s) images from Content-Length, with bounded HEAD requests through
 * the SSRF guard. Tracking pixels are never requested: a request would record a fake open. Never throws:
 * whatever could not be measured stays null and is explained in `notes`.
 */
export async function measureImageWeights(
  report: ImageReport,
  guard: SsrfGuard,
  limits: { maxImages: number; budgetMs: number; concurrency: number } = IMAGE_WEIGHT_LIMITS,
): Promise<MeasuredImageReport> {
  const notes: string[] = [];
  const urls = report.images.filter((image) => !image.isTrackingPixel && /^https?:\/\//i.test(image.src.trim())).map((image) => image.src.trim());
  if (urls.length === 0) return { ...report, totalBytes: null, notes };
  const { checks, skipped } = await headUrls(guard, urls, limits);
  const issues: ReportIssue[] = [...report.issues];
  const images = report.images.map((image) => {
    const check = checks.get(image.src.trim());
    const bytes = check && check.status !== null && check.status < 400 ? check.contentLength : null;
    if (bytes !== null && bytes > HEAVY_IMAGE_BYTES) {
      issues.push({
        rule: 'image-too-heavy',
        severity: 'warning',
        message: `This image weighs ${humanBytes(bytes)}; over 1 MB loads slowly on mobile connections. Compress or resize it.`,
        line: image.line,
        column: image.column,
        url: image.src,
      });
      return { ...image, bytes, rules: [...image.rules, 'image-too-heavy'] };
    }
    return bytes === null ? image : { ...image, bytes };
  });
  const outcomes = [...checks.values()];
  const count = (failure: string): number => outcomes.filter((check) => check.failure === failure).length;
  if (skipped.length > 0) notes.push(`${skipped.length} image URL(s) not measured: at most ${limits.maxImages} are checked per preview.`);
  if (count('timeout') > 0) notes.push(`${count('timeout')} image(s) not measured: the ${limits.budgetMs} ms budget was spent.`);
  if (count('refused') > 0) notes.push(`${count('refused')} image URL(s) not requested: they do not point to a public address.`);
  if (count('error') > 0) notes.push(`${count('error')} image(s) could not be reached.`);
  const unsized = outcomes.filter((check) => check.failure === null && (check.contentLength === null || (check.status ?? 500) >= 400)).length;
  if (unsized > 0) notes.push(`${unsized} image(s) answered without a size (no Content-Length, or an error status).`);
  const measured = [...new Map(images.filter((image) => image.bytes !== null).map((image) => [image.src.trim(), image.bytes as number])).values()];
  return { ...report, images, issues: sortIssues(issues), totalBytes: measured.length > 0 ? measured.reduce((sum, bytes) => sum + bytes, 0) : null, notes };
}
