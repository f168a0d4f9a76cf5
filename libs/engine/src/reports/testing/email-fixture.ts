/** Builds small, complete emails for the report specs. */
import { buildReports, type BuildReportsOptions, type QualityReports } from '../build-reports';
import type { ReportIssue } from '../context/report-issue';

export interface FixtureParts {
  head?: string;
  title?: string | null;
  lang?: string | null;
  htmlAttributes?: string;
  footer?: string;
}

/** A clean email frame: lang, title, an unsubscribe link and a postal address, so only the body varies. */
export function email(body: string, parts: FixtureParts = {}): string {
  const lang = parts.lang === undefined ? ' lang="en"' : parts.lang === null ? '' : ` lang="${parts.lang}"`;
  const title = parts.title === undefined ? '<title>Your March update</title>' : parts.title === null ? '' : `<title>${parts.title}</title>`;
  const footer =
    parts.footer ??
    '<p style="color:#333333">Acme Inc, 1600 Market Street, Suite 200, San Francisco, CA 94103. <a href="https://acme.test/unsubscribe">Unsubscribe</a></p>';
  return `<!DOCTYPE html><html${lang}${parts.htmlAttributes ?? ''}><head><meta charset="utf-8">${title}${parts.head ?? ''}</head><body style="background:#ffffff;color:#222222">${body}${footer}</body></html>`;
}

export function reports(html: string, options: Partial<BuildReportsOptions> = {}): QualityReports {
  return buildReports(html, { format: 'html', clients: ['gmail-web', 'outlook-windows-legacy', 'apple-mail-ios'], ...options });
}

export function rules(issues: readonly ReportIssue[]): string[] {
  return issues.map((issue) => issue.rule);
}
