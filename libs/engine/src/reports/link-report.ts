/**
 * Every link checked without touching the network: where it goes, whether it can go anywhere, whether
 * it is secure, whether it is tracked like its siblings, and whether its text says where it goes.
 */
import type { EmailLink, ReportContext } from './context/report-context';
import { sortIssues, type ReportIssue, type ReportSeverity } from './context/report-issue';
import { collapseWhitespace, foldForMatching, shorten } from './context/text-utils';
import { isTrackedUrl, type HrefScheme } from './context/url-utils';

export interface LinkEntry {
  href: string;
  text: string;
  scheme: HrefScheme;
  host: string | null;
  tracked: boolean;
  line?: number;
  column?: number;
  /** Rules this link triggered (details in `issues`). */
  rules: string[];
}

export interface LinkReport {
  total: number;
  /** Links that go nowhere: empty, javascript:, placeholder, malformed, missing anchor target, empty mailto:/tel:. */
  broken: number;
  insecure: number;
  /** http(s) links without tracking when other links in the email are tracked; 0 when none are tracked. */
  untracked: number;
  tracked: number;
  breakdown: Record<HrefScheme, number>;
  links: LinkEntry[];
  issues: ReportIssue[];
}

/** Link texts that say nothing about the destination, in the languages most email is written in. */
export const GENERIC_LINK_TEXTS: ReadonlySet<string> = new Set([
  'click here',
  'click',
  'here',
  'click this',
  'this link',
  'link',
  'read more',
  'learn more',
  'more',
  'see more',
  'more info',
  'more information',
  'details',
  'go',
  'this',
  'continue',
  'tap here',
  'view',
  'download',
  'info',
  'hier klicken',
  'hier',
  'klicken sie hier',
  'mehr',
  'weiterlesen',
  'mehr erfahren',
  'cliquez ici',
  'ici',
  'en savoir plus',
  'lire la suite',
  'plus',
  'haga clic aqui',
  'haz clic aqui',
  'clic aqui',
  'aqui',
  'leer mas',
  'mas',
  'mas informacion',
  'clique aqui',
  'saiba mais',
  'leia mais',
  'clicca qui',
  'qui',
  'leggi di piu',
  'scopri di piu',
  'klik hier',
  'lees meer',
  'meer',
  'klicka har',
  'las mer',
  'kliknij tutaj',
  'tutaj',
]);

const PLACEHOLDER_HOSTS = new Set([
  'example.com',
  'example.org',
  'example.net',
  'yourdomain.com',
  'yoursite.com',
  'yourwebsite.com',
  'domain.com',
  'website.com',
  'mysite.com',
  'yourcompany.com',
  'company.com',
  'test.com',
  'localhost',
]);
const PLACEHOLDER_HREFS = new Set([
  '#',
  '#!',
  'url',
  'link',
  'href',
  'todo',
  'tbd',
  'about:blank',
  'http://',
  'https://',
  'http://#',
  'https://#',
  '[url]',
  '(url)',
  'insert link',
  'your link',
  'link here',
]);

const LONG_URL = 2000;

export function isGenericLinkText(text: string): boolean {
  const folded = collapseWhitespace(foldForMatching(text).replace(/[^\p{L}\p{N} ]/gu, ' '));
  return GENERIC_LINK_TEXTS.has(folded);
}

export function isPlaceholderHref(link: EmailLink): boolean {
  const trimmed = link.href.trim().toLowerCase();
  if (PLACEHOLDER_HREFS.has(trimmed)) return true;
  const host = link.classified.host;
  if (host && PLACEHOLDER_HOSTS.has(host.replace(/^www\./, ''))) return true;
  return false;
}

/** Whether the link goes nowhere (the gate's "links" check counts these). */
export interface LinkFinding {
  rule: string;
  severity: ReportSeverity;
  message: string;
  broken: boolean;
}

function findingsFor(link: EmailLink, context: ReportContext): LinkFinding[] {
  const findings: LinkFinding[] = [];
  const add = (rule: string, severity: ReportSeverity, message: string, broken = false): void => {
    findings.push({ rule, severity, message, broken });
  };
  const { classified } = link;
  const href = link.href.trim();
  if (classified.scheme === 'empty') add('empty-href', 'error', 'The link has an empty href, so it goes nowhere.', true);
  else if (classified.scheme === 'javascript') add('javascript-href', 'error', 'javascript: links are removed or disabled by every email client.', true);
  else if (isPlaceholderHref(link)) add('placeholder-href', 'error', `The href "${shorten(href, 60)}" is a placeholder, not a destination.`, true);
  else if (classified.scheme === 'anchor') {
    const target = decodeFragment(href.slice(1));
    if (!context.doc.hasId(target) && !context.doc.hasAnchorName(target)) {
      add('broken-anchor', 'error', `No element has id or name "${shorten(target, 60)}", so this in-page link goes nowhere.`, true);
    }
  } else if (classified.scheme === 'relative') {
    add('relative-href', 'error', `The relative href "${shorten(href, 60)}" has no site to resolve against in an inbox; use an absolute https:// URL.`, true);
  } else if (classified.malformed) {
    add('malformed-href', 'error', `The href "${shorten(href, 60)}" is not a well-formed URL.`, true);
  } else if (classified.scheme === 'mailto') {
    const address = decodeSafely(href.slice(href.indexOf(':') + 1).split('?')[0]).trim();
    if (!address) add('empty-mailto', 'error', 'The mailto: link has no address.', true);
    else if (!address.split(',').every((part) => looksLikeEmailAddress(part.trim()))) {
      add('invalid-mailto', 'warning', `"${shorten(address, 60)}" does not look like an email address.`);
    }
  } else if (classified.scheme === 'tel' || classified.scheme === 'sms') {
    const number = decodeSafely(href.slice(href.indexOf(':') + 1).split('?')[0]);
    const digits = number.replace(/\D/g, '');
    if (digits.length === 0) add(`empty-${classified.scheme}`, 'error', `The ${classified.scheme}: link has no number.`, true);
    else if (digits.length < 3 || /[^\d\s()+.\-/]/.test(number))
      add(`invalid-${classified.scheme}`, 'warning', `"${shorten(number, 40)}" is not a dialable number.`);
  } else if (classified.scheme === 'data' || classified.scheme === 'file') {
    add('unsafe-scheme', 'error', `${classified.scheme}: links are blocked by email clients.`, true);
  }

  if (classified.scheme === 'http') add('insecure-link', 'warning', 'The link uses http:, which clients flag and browsers warn about; use https:.');
  if (classified.scheme === 'protocol-relative') {
    add('protocol-relative', 'warning', 'Protocol-relative links (//host) resolve to file: or fail in desktop clients; write https:// explicitly.');
  }
  if (href !== link.href && link.href.length > 0 && classified.scheme !== 'empty') {
    add('href-whitespace', 'info', 'The href has leading or trailing white space, which some clients keep and break on.');
  }
  if (href.length > LONG_URL) add('long-url', 'info', `The URL is ${href.length} characters long; some clients truncate URLs past 2,000 characters.`);

  if (!link.hidden) {
    if (link.accessibleName === '') {
      add('link-no-accessible-name', 'error', 'The link has no text, no aria-label and no image alt, so screen readers announce only "link".');
    } else if (isGenericLinkText(link.accessibleName)) {
      add('generic-link-text', 'warning', `The link text "${shorten(link.accessibleName, 40)}" does not say where it goes; describe the destination.`);
    }
  }
  return findings;
}

/** local@domain.tld without white space; written out instead of a regex that could backtrack. */
export function looksLikeEmailAddress(address: string): boolean {
  if (address.length > 320 || /\s/.test(address)) return false;
  const at = address.indexOf('@');
  if (at <= 0 || at !== address.lastIndexOf('@')) return false;
  const domain = address.slice(at + 1);
  const dot = domain.lastIndexOf('.');
  return dot > 0 && dot < domain.length - 1;
}

function decodeSafely(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

function decodeFragment(fragment: string): string {
  return decodeSafely(fragment);
}

function emptyBreakdown(): Record<HrefScheme, number> {
  return {
    https: 0,
    http: 0,
    mailto: 0,
    tel: 0,
    sms: 0,
    anchor: 0,
    javascript: 0,
    'protocol-relative': 0,
    relative: 0,
    template: 0,
    data: 0,
    file: 0,
    other: 0,
    empty: 0,
  };
}

const UNSUBSCRIBE_HINT = /unsubscribe|opt-?out|abmelden|desabonner|desinscri|baja|descadastr|disiscri|afmelden|uitschrijven|preferences/i;

export function buildLinkReport(context: ReportContext): LinkReport {
  const links = context.links;
  const breakdown = emptyBreakdown();
  const issues: ReportIssue[] = [];
  const entries: LinkEntry[] = [];
  let broken = 0;
  let insecure = 0;

  const trackedFlags = links.map((link) => link.classified.url !== null && isTrackedUrl(link.classified.url));
  const tracked = trackedFlags.filter(Boolean).length;

  links.forEach((link, index) => {
    breakdown[link.classified.scheme]++;
    const findings = findingsFor(link, context);
    const isWeb = link.classified.scheme === 'http' || link.classified.scheme === 'https';
    // Unsubscribe and preference links are usually left untracked on purpose.
    const isUnsubscribe = UNSUBSCRIBE_HINT.test(link.href) || UNSUBSCRIBE_HINT.test(foldForMatching(link.text));
    if (tracked > 0 && isWeb && !trackedFlags[index] && !link.classified.malformed && !isUnsubscribe && !isPlaceholderHref(link)) {
      findings.push({
        rule: 'untracked-link',
        severity: 'info',
        message: 'Other links in this email carry tracking (campaign parameters or a click-tracking host) but this one does not.',
        broken: false,
      });
    }
    if (findings.some((finding) => finding.broken)) broken++;
    if (link.classified.scheme === 'http') insecure++;
    for (const finding of findings) {
      issues.push({
        rule: finding.rule,
        severity: finding.severity,
        message: finding.message,
        ...link.position,
        element: link.excerpt,
        url: link.href,
      });
    }
    entries.push({
      href: link.href,
      text: shorten(link.text || link.accessibleName, 200),
      scheme: link.classified.scheme,
      host: link.classified.host,
      tracked: trackedFlags[index],
      ...link.position,
      rules: findings.map((finding) => finding.rule),
    });
  });

  if (links.length === 0) {
    issues.push({ rule: 'no-links', severity: 'info', message: 'The email has no links.' });
  }
  const untracked = entries.filter((entry) => entry.rules.includes('untracked-link')).length;
  return { total: links.length, broken, insecure, untracked, tracked, breakdown, links: entries, issues: sortIssues(issues) };
}
