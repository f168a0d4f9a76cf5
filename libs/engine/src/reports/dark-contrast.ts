/**
 * Contrast in each client's dark-mode variant: text whose contrast against its background falls below
 * WCAG AA once the client has inverted or restyled the email. Clients that honour the email's own
 * `prefers-color-scheme: dark` rules (Apple Mail) get them applied; for the others the variant's markup
 * already carries the client's changes. Identical variants are analysed once.
 */
import { checkContrast, visibleTextRuns, type ContrastIssue } from './contrast-check';
import { parseEmail } from './parsed-email';
import { CLIENTS_HONOURING_DARK_MEDIA } from './report-clients';
import { sortIssues } from './report-issue';
import { createStyleResolver } from './style-resolver';

export interface DarkContrastClientReport {
  /** Text elements whose contrast was measured (images and gradients behind text cannot be). */
  checked: number;
  issues: ContrastIssue[];
  /** Issues beyond the per-client listing limit. */
  omitted: number;
}

export interface DarkContrastReport {
  clients: Record<string, DarkContrastClientReport>;
  /** Issues over all clients. */
  total: number;
  /** Client with the most low-contrast texts, or null when none has any. */
  worstClient: string | null;
}

export const DARK_CONTRAST_LISTING_LIMIT = 100;

export function buildDarkContrast(darkHtmlByClient: Record<string, string>): DarkContrastReport {
  const clients: Record<string, DarkContrastClientReport> = {};
  const byVariant = new Map<string, { checked: number; issues: ContrastIssue[] }>();
  let total = 0;
  let worstClient: string | null = null;
  let worstCount = 0;
  for (const clientId of Object.keys(darkHtmlByClient).sort()) {
    const html = darkHtmlByClient[clientId] ?? '';
    const darkMedia = CLIENTS_HONOURING_DARK_MEDIA.has(clientId);
    const key = `${darkMedia ? 1 : 0}\u0000${html}`;
    let result = byVariant.get(key);
    if (!result) {
      const parsed = parseEmail(html);
      const style = createStyleResolver(parsed, { darkMedia });
      const runs = visibleTextRuns(parsed, style);
      const issues = sortIssues(checkContrast(parsed, style, runs, 'dark-low-contrast')).map((issue) => ({
        ...issue,
        message: `In dark mode: ${issue.message}`,
      }));
      result = { checked: runs.length, issues };
      byVariant.set(key, result);
    }
    clients[clientId] = {
      checked: result.checked,
      issues: result.issues.slice(0, DARK_CONTRAST_LISTING_LIMIT),
      omitted: Math.max(0, result.issues.length - DARK_CONTRAST_LISTING_LIMIT),
    };
    total += result.issues.length;
    if (result.issues.length > worstCount) {
      worstCount = result.issues.length;
      worstClient = clientId;
    }
  }
  return { clients, total, worstClient };
}
