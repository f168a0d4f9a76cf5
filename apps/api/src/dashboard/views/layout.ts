import { html, type SafeHtml } from './html';

export interface NavItem {
  href: string;
  label: string;
}

/** The dashboard's navigation, in order. A new page adds its entry here: one line. */
export const NAV_ITEMS: NavItem[] = [
  { href: '/app', label: 'Overview' },
  { href: '/app/previews', label: 'Previews' },
  { href: '/app/previews/new', label: 'New preview' },
  { href: '/app/gate', label: 'Gate runs' },
  { href: '/app/domains', label: 'Domains' },
  { href: '/app/clients', label: 'Clients' },
  { href: '/app/keys', label: 'Keys' },
  { href: '/app/webhooks', label: 'Webhooks' },
  { href: '/app/account', label: 'Account' },
];

export interface PageContext {
  /** The current path, to mark the nav entry. */
  path: string;
  /** The session's CSRF token; absent on the sign-in page. */
  csrfToken?: string;
  /** One line shown above the content after a redirect (e.g. "Domain added"). */
  notice?: string;
}

function isCurrent(item: NavItem, path: string): boolean {
  if (item.href === '/app') return path === '/app' || path === '/app/';
  if (item.href === '/app/previews') return path.startsWith('/app/previews') && !path.startsWith('/app/previews/new');
  return path.startsWith(item.href);
}

/** The hidden field every dashboard form carries; the server refuses a state change without it. */
export function csrfField(token: string | undefined): SafeHtml {
  return html`<input type="hidden" name="_csrf" value="${token ?? ''}">`;
}

export function page(title: string, context: PageContext, content: SafeHtml): string {
  const signedIn = context.csrfToken !== undefined;
  const nav = signedIn
    ? html`<nav aria-label="Dashboard"><ul>${NAV_ITEMS.map(
        (item) => html`<li><a href="${item.href}"${isCurrent(item, context.path) ? html` aria-current="page"` : ''}>${item.label}</a></li>`,
      )}</ul>
<form method="post" action="/app/sign-out" class="sign-out">${csrfField(context.csrfToken)}<button type="submit">Sign out</button></form></nav>`
    : '';
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="same-origin">
<meta name="htmx-config" content='{"includeIndicatorCSS":false}'>
<title>${title}: Mailproof</title>
<link rel="stylesheet" href="/share/assets/share.css">
<link rel="stylesheet" href="/app/assets/dashboard.css">
<script src="/app/assets/htmx.min.js" defer></script>
<script src="/app/assets/dashboard.js" defer></script>
</head>
<body>
<a class="skip" href="#main">Skip to content</a>
<header class="topbar"><a class="brand" href="/app">Mailproof</a>${nav}</header>
<main id="main">
${context.notice ? html`<p class="notice" role="status">${context.notice}</p>` : ''}
${content}
</main>
</body>
</html>`.value;
}

/** 2026-11-25 14:03 UTC */
export function when(date: Date | string | null | undefined): string {
  if (!date) return '—';
  const d = typeof date === 'string' ? new Date(date) : date;
  return `${d.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

export function scoreBadge(score: number | null | undefined): SafeHtml {
  if (score === null || score === undefined) return html`<span class="meta">—</span>`;
  const tone = score >= 85 ? 'score-good' : score >= 60 ? 'score-fair' : 'score-poor';
  return html`<span class="${tone}"><strong>${score}</strong></span>`;
}

export function verdictBadge(run: { status: string; passed: boolean | null }): SafeHtml {
  if (run.status === 'running') return html`<span class="pill pill-muted">running</span>`;
  if (run.status === 'failed') return html`<span class="pill pill-bad">error</span>`;
  return run.passed ? html`<span class="pill pill-good">passed</span>` : html`<span class="pill pill-bad">failed</span>`;
}

export function statusBadge(status: string): SafeHtml {
  const tone = status === 'healthy' ? 'pill-good' : status === 'pending' ? 'pill-muted' : status === 'degraded' ? 'pill-warn' : 'pill-bad';
  return html`<span class="pill ${tone}">${status}</span>`;
}

/** Previous/next links that keep the other query parameters. */
export function pager(basePath: string, params: Record<string, string | undefined>, pageNumber: number, pageSize: number, total: number): SafeHtml {
  const pages = Math.max(1, Math.ceil(total / pageSize));
  const link = (n: number) => {
    const query = new URLSearchParams();
    for (const [key, value] of Object.entries(params)) if (value !== undefined && value !== '') query.set(key, value);
    query.set('page', String(n));
    return `${basePath}?${query.toString()}`;
  };
  return html`<nav class="pager" aria-label="Pages">
${pageNumber > 1 ? html`<a href="${link(pageNumber - 1)}" rel="prev">Previous</a>` : ''}
<span>Page ${pageNumber} of ${pages} (${total} in all)</span>
${pageNumber < pages ? html`<a href="${link(pageNumber + 1)}" rel="next">Next</a>` : ''}
</nav>`;
}
