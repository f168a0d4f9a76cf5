import type { StoredRenderedReports } from '@mailproof/contracts';
import { EMAIL_CLIENTS, type CssFinding } from '@mailproof/engine';
import type { PreviewEntity, ShareEntity } from '@mailproof/persistence';
import { comparedShotFigure, divergenceReportItem, referenceShotUrl } from './divergence.view';
import { escapeHtml as e } from './html-escape';
import { messageReportSection } from './message-report.view';
import type { StoredAnalysis } from './preview-analysis.cache';

const CLIENT_NAMES = new Map(EMAIL_CLIENTS.map((c) => [c.id as string, c.name]));
const SEVERITY_TITLES = { error: 'Errors', warning: 'Warnings', info: 'Notes' } as const;

function scoreClass(score: number): string {
  return score >= 85 ? 'score-good' : score >= 60 ? 'score-fair' : 'score-poor';
}

function layout(title: string, body: string, extraHead = ''): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${e(title)}</title>
<link rel="icon" type="image/svg+xml" href="/share/assets/favicon.svg">
<link rel="stylesheet" href="/share/assets/share.css">
${extraHead}
</head>
<body>
<a class="skip" href="#main">Skip to content</a>
${body}
</body>
</html>`;
}

const SEVERITIES = ['error', 'warning', 'info'] as const;
type FindingSeverity = (typeof SEVERITIES)[number];

/** One entry per severity and property across clients: the message and fix once, the clients as chips. */
export interface FindingGroup {
  severity: FindingSeverity;
  property: string;
  /** The message with the client's name put in general terms, as most clients share it. */
  message: string;
  suggestion: string;
  fix: CssFinding['fix'];
  clients: string[];
  /** Clients whose own message says more than the shared one (caniemail's notes), with that message. */
  notes: Array<{ client: string; message: string }>;
  occurrences: number;
}

/** The message as it reads for every client: the client's own name becomes "these clients". */
function generalMessage(finding: CssFinding): string {
  const name = CLIENT_NAMES.get(finding.client);
  return name ? finding.message.split(name).join('these clients') : finding.message;
}

export function groupFindings(findings: readonly CssFinding[]): FindingGroup[] {
  const groups = new Map<string, FindingGroup>();
  for (const finding of findings) {
    const key = `${finding.severity}\u0000${finding.property}`;
    const message = generalMessage(finding);
    const group = groups.get(key);
    if (!group) {
      groups.set(key, {
        severity: finding.severity,
        property: finding.property,
        message,
        suggestion: finding.suggestion,
        fix: finding.fix,
        clients: [finding.client],
        notes: [],
        occurrences: finding.occurrences,
      });
      continue;
    }
    if (!group.clients.includes(finding.client)) group.clients.push(finding.client);
    if (message !== group.message) group.notes.push({ client: finding.client, message: finding.message });
    group.fix ??= finding.fix;
    group.occurrences = Math.max(group.occurrences, finding.occurrences);
  }
  // Most clients first within a severity: what affects the most readers leads.
  return [...groups.values()].sort(
    (a, b) => SEVERITIES.indexOf(a.severity) - SEVERITIES.indexOf(b.severity) || b.clients.length - a.clients.length || (a.property < b.property ? -1 : 1),
  );
}

function clientChips(clients: readonly string[]): string {
  return `<ul class="chips" aria-label="Clients">${clients.map((c) => `<li>${e(CLIENT_NAMES.get(c) ?? c)}</li>`).join('')}</ul>`;
}

function findingItem(group: FindingGroup, clientCount: number): string {
  const uses = group.occurrences > 1 ? `, used ${group.occurrences} times` : '';
  const fix = group.fix
    ? `<details><summary>Fix: ${e(group.fix.description)}</summary><p>Before (${e(group.fix.language)}):</p><pre tabindex="0"><code>${e(group.fix.before)}</code></pre><p>After:</p><pre tabindex="0"><code>${e(group.fix.after)}</code></pre></details>`
    : '';
  const notes =
    group.notes.length > 0
      ? `<details><summary>Notes for ${group.notes.length} client${group.notes.length === 1 ? '' : 's'}</summary><ul>${group.notes.map((n) => `<li>${e(n.message)}</li>`).join('')}</ul></details>`
      : '';
  return `<li class="finding"><p class="finding-head"><strong>${e(group.property)}</strong> <span class="count">${group.clients.length} of ${clientCount} clients${uses}</span></p>
<p>${e(group.message)}</p>
${clientChips(group.clients)}
${group.suggestion ? `<p class="meta">Suggestion: ${e(group.suggestion)}</p>` : ''}${fix}${notes}</li>`;
}

function findingsSection(findings: readonly CssFinding[], clientCount: number): string {
  const grouped = groupFindings(findings);
  const sections = SEVERITIES.map((severity) => {
    const items = grouped.filter((g) => g.severity === severity);
    // Errors and warnings open; notes start folded (they change nothing a reader sees).
    const open = severity !== 'info' && items.length > 0 ? ' open' : '';
    const body = items.length === 0 ? '<p>None.</p>' : `<ul class="finding-list">${items.map((g) => findingItem(g, clientCount)).join('\n')}</ul>`;
    return `<details class="severity"${open}><summary><h3 class="sev-${severity}">${SEVERITY_TITLES[severity]} <span class="count">(${items.length})</span></h3></summary>${body}</details>`;
  });
  return `<section aria-labelledby="findings-title" class="findings"><h2 id="findings-title">Findings</h2><p class="meta">${grouped.length} finding${grouped.length === 1 ? '' : 's'} across ${clientCount} clients, each listed once with the clients it concerns.</p><div class="card">${sections.join('\n')}</div></section>`;
}

/**
 * Rendered screenshots, light and dark side by side per client, when the preview has them
 * (`screenshots`: { "<client>-light": url, "<client>-dark": url }). With a reference rendering and
 * `visualReport.divergence`, each carries its divergence: score, region boxes, and a slider to the
 * reference (divergence.view.ts).
 */
function screenshotsSection(
  screenshots: Record<string, string> | null | undefined,
  clients: readonly string[],
  divergence: NonNullable<StoredRenderedReports['visualReport']>['divergence'],
): string {
  if (!screenshots || Object.keys(screenshots).length === 0) return '';
  const figures = clients
    .filter((id) => screenshots[`${id}-light`] || screenshots[`${id}-dark`])
    .map((id) => {
      const name = CLIENT_NAMES.get(id) ?? id;
      const scores = divergence?.[id as keyof typeof divergence];
      const shot = (scheme: 'light' | 'dark') => {
        const url = screenshots[`${id}-${scheme}`];
        return url
          ? comparedShotFigure({
              clientId: id,
              clientName: name,
              scheme,
              url,
              referenceUrl: referenceShotUrl(screenshots, id, scheme),
              divergence: scores?.[scheme],
            })
          : '';
      };
      const worst = scores ? Math.max(scores.light?.score ?? 0, scores.dark?.score ?? 0) : null;
      const badge = worst !== null ? ` <span class="count">divergence ${Math.round(worst * 10) / 10}/100</span>` : '';
      return `<div class="shot-pair"><h3>${e(name)}${badge}</h3><div class="shots">${shot('light')}${shot('dark')}</div></div>`;
    })
    .join('\n');
  const intro = divergence
    ? '<p class="meta">Each screenshot is compared with the reference: the email as written, painted by the same browser at the same width without any client\'s changes. Boxes mark the regions that differ (layout: something moved or changed size; colour: painted differently); the slider moves between the reference and the client.</p>'
    : '';
  return figures ? `<section aria-labelledby="shots-title"><h2 id="shots-title">Screenshots</h2>${intro}${figures}</section>` : '';
}

/** The reports measured in the rendered pages (docs/rendering.md), when the preview was rendered. */
function renderedReportsSection(reports: StoredRenderedReports | null): string {
  if (!reports) return '';
  const name = (id: string) => e(CLIENT_NAMES.get(id) ?? id);
  const items: string[] = [];
  const overflow = reports.overflowReport;
  if (overflow) {
    const wide = overflow.clients.filter((c) => c.overflowPx > 0);
    items.push(
      wide.length === 0
        ? `<li>No client scrolls sideways (${overflow.clients.length} checked).</li>`
        : `<li>Scrolls sideways in ${wide.length} of ${overflow.clients.length} clients:<ul>${wide
            .map(
              (c) =>
                `<li>${name(c.clientId)}: ${c.overflowPx} px wider than its ${c.viewportWidth} px screen${c.elements[0] ? `; widest: &lt;${e(c.elements[0].tag)}&gt;${c.elements[0].line ? ` at line ${c.elements[0].line}` : ''}` : ''}</li>`,
            )
            .join('')}</ul></li>`,
    );
  }
  const contrast = reports.mobileContrast;
  if (contrast) {
    const failing = contrast.clients.filter((c) => c.failures.length > 0);
    items.push(
      failing.length === 0
        ? `<li>All measured text passes WCAG AA contrast on mobile clients, light and dark.</li>`
        : `<li>Low contrast on mobile:<ul>${failing
            .map(
              (c) =>
                `<li>${name(c.clientId)} (${c.mode}): ${c.failures.length} text${c.failures.length === 1 ? '' : 's'}, e.g. “${e(c.failures[0].sample)}” ${c.failures[0].ratio}:1${c.failures[0].line ? ` at line ${c.failures[0].line}` : ''}</li>`,
            )
            .join('')}</ul></li>`,
    );
  }
  const visual = reports.visualReport;
  if (visual) {
    const different = visual.clients.filter((c) => c.changedPercent >= 1).sort((a, b) => b.changedPercent - a.changedPercent);
    items.push(
      different.length === 0
        ? `<li>Every client looks like the reference client of its width (under 1% of pixels differ).</li>`
        : `<li>Looks different from the reference client of its width:<ul>${different.map((c) => `<li>${name(c.clientId)}: ${c.changedPercent}% of pixels differ from ${name(c.reference)}</li>`).join('')}</ul></li>`,
    );
    const divergence = divergenceReportItem(visual.divergence, name);
    if (divergence) items.push(divergence);
  }
  for (const note of reports.screenshotNotes ?? []) items.push(`<li>${e(note)}</li>`);
  return items.length === 0
    ? ''
    : `<section aria-labelledby="rendered-title"><h2 id="rendered-title">Measured in the rendered pages</h2><ul class="card">${items.join('')}</ul></section>`;
}

export type ViewMode = 'both' | 'light' | 'dark';
const MODES: readonly ViewMode[] = ['both', 'light', 'dark'];
const MODE_LABELS: Record<ViewMode, string> = { both: 'Side by side', light: 'Light', dark: 'Dark' };

/** What `?client=&mode=` asks for; unknown values fall back to the defaults. */
export interface ViewRequest {
  client?: string;
  mode?: string;
}

/** The first client whose dark view differs from its light one (else the first client): the picker opens on it. */
function defaultClient(analysis: StoredAnalysis, clients: readonly string[]): string {
  const differs = analysis.transforms.find((t) => {
    const dark = analysis.darkMode[t.clientId]?.html;
    return dark !== undefined && dark !== '' && dark !== t.html;
  });
  return differs?.clientId ?? clients[0];
}

/** `analysis`: the preview's analysis (PreviewAnalysisCache), null while it is queued or when it failed. */
export function renderSharePage(share: ShareEntity, preview: PreviewEntity, analysis: StoredAnalysis | null, request: ViewRequest = {}): string {
  const title = preview.title ? `${preview.title}: Mailproof preview` : 'Shared Mailproof preview';
  if (!analysis) {
    const message = preview.status === 'queued' ? 'This email is still being analyzed. The page refreshes by itself.' : 'This email could not be analyzed.';
    return layout(
      title,
      `<main id="main"><h1>${e(title)}</h1><p role="status">${e(message)}</p></main>`,
      preview.status === 'queued' ? '<meta http-equiv="refresh" content="5">' : '',
    );
  }
  const report = previewReport(preview, analysis, `/share/${encodeURIComponent(share.id)}/clients`, request);
  const expiry = share.expiresAt ? `This link expires on ${e(share.expiresAt.toISOString().slice(0, 10))}.` : 'This link does not expire.';
  const body = `<header>
<div><h1>${e(preview.title ?? 'Shared email preview')}</h1><p class="meta">Analyzed ${e(preview.createdAt.toISOString().slice(0, 16).replace('T', ' '))} UTC for ${report.clientCount} email clients. ${expiry}</p></div>
${report.score}
</header>
<main id="main" data-share-id="${e(share.id)}" ${report.rootAttributes}>
${report.sections}
</main>
<footer class="meta">Checked by Mailproof.</footer>
<script src="/share/assets/share.js" defer></script>`;
  return layout(title, body);
}

/**
 * What the share page shows of an analyzed preview, for the share page and the dashboard's preview page:
 * the overall score, the client viewer (its script fetches `${clientsUrl}/<clientId>`), screenshots and
 * what was measured in the rendered pages, findings and scores per client. `rootAttributes` go on the
 * element that holds `sections`; `request` (`?client=&mode=`) selects the view the page opens on.
 */
export function previewReport(
  preview: Pick<PreviewEntity, 'screenshots' | 'renderedReports'>,
  analysis: StoredAnalysis,
  clientsUrl: string,
  request: ViewRequest = {},
) {
  const clients: string[] = analysis.transforms.map((t) => t.clientId);
  const selected = request.client && clients.includes(request.client) ? request.client : defaultClient(analysis, clients);
  const mode: ViewMode = MODES.includes(request.mode as ViewMode) ? (request.mode as ViewMode) : 'both';
  const selectedName = CLIENT_NAMES.get(selected) ?? selected;
  const rows = clients
    .map((id) => {
      const s = analysis.compatibilityScores[id];
      return `<tr><th scope="row">${e(CLIENT_NAMES.get(id) ?? id)}</th><td class="num ${scoreClass(s.score)}">${s.score}</td><td class="num">${s.errors}</td><td class="num">${s.warnings}</td><td class="num">${s.info}</td></tr>`;
    })
    .join('\n');
  const lowest = clients.reduce((worst, id) => (analysis.compatibilityScores[id].score < analysis.compatibilityScores[worst].score ? id : worst), clients[0]);
  const options = clients.map((id) => `<option value="${e(id)}"${id === selected ? ' selected' : ''}>${e(CLIENT_NAMES.get(id) ?? id)}</option>`).join('');
  const light = analysis.transforms.find((t) => t.clientId === selected)?.html ?? '';
  const dark = analysis.darkMode[selected]?.html ?? '';
  const modeButtons = MODES.map((m) => `<button type="button" data-mode="${m}" aria-pressed="${m === mode}">${MODE_LABELS[m]}</button>`).join('\n');
  const sections = `<section aria-labelledby="viewer-title">
<h2 id="viewer-title">How each client shows it</h2>
<div class="controls">
<label for="client-picker">Client</label>
<select id="client-picker" name="client">${options}</select>
<div role="group" aria-label="Color mode">
${modeButtons}
</div>
<span id="viewer-status" role="status" aria-live="polite">Showing ${e(selectedName)}</span>
</div>
<p class="meta">Email markup runs in sandboxed frames: no scripts, no forms, and remote images are not loaded. The address of this page keeps the client and mode, so a link can point at one view.</p>
<div class="frames">
<figure class="frame-light"><figcaption>Light mode</figcaption><iframe id="frame-light" sandbox="" referrerpolicy="no-referrer" loading="lazy" title="${e(selectedName)} in light mode" srcdoc="${e(light)}"></iframe></figure>
<figure class="frame-dark"><figcaption>Dark mode</figcaption><iframe id="frame-dark" sandbox="" referrerpolicy="no-referrer" loading="lazy" title="${e(selectedName)} in dark mode" srcdoc="${e(dark)}"></iframe></figure>
</div>
</section>
${screenshotsSection(preview.screenshots, clients, preview.renderedReports?.visualReport?.divergence)}
${renderedReportsSection(preview.renderedReports)}
${messageReportSection(analysis.messageReport)}
${findingsSection(analysis.cssReport, clients.length)}
<section aria-labelledby="scores-title">
<h2 id="scores-title">Scores per client</h2>
<details class="card"><summary>${clients.length} clients; lowest: ${e(CLIENT_NAMES.get(lowest) ?? lowest)} with ${analysis.compatibilityScores[lowest].score}</summary>
<div class="table-scroll" tabindex="0" role="region" aria-label="Score table (scrolls sideways on small screens)">
<table><caption class="meta">Score 0-100: minus 10 per distinct error property, minus 3 per distinct warning property.</caption>
<thead><tr><th scope="col">Client</th><th scope="col" class="num">Score</th><th scope="col" class="num">Errors</th><th scope="col" class="num">Warnings</th><th scope="col" class="num">Notes</th></tr></thead>
<tbody>${rows}</tbody></table></div></details>
</section>`;
  return {
    clientCount: clients.length,
    score: `<p class="score ${scoreClass(analysis.overallScore)}"><span class="visually-hidden">Overall score </span>${analysis.overallScore}<span class="meta">/100</span></p>`,
    rootAttributes: `data-clients-url="${e(clientsUrl)}" data-client="${e(selected)}" data-mode="${mode}"`,
    sections,
  };
}

export function renderNotFoundPage(): string {
  return layout(
    'Share not found: Mailproof',
    `<main id="main"><h1>This share link does not exist or has expired</h1><p>Ask the person who sent it for a new link.</p></main>`,
  );
}

/** One client's markup and dark variant, for the picker; null for a client the analysis does not have. */
export function clientView(analysis: StoredAnalysis, clientId: string) {
  const transform = analysis.transforms.find((t) => t.clientId === clientId);
  if (!transform) return null;
  return {
    clientId,
    name: CLIENT_NAMES.get(clientId) ?? clientId,
    score: analysis.compatibilityScores[clientId]?.score ?? null,
    html: transform.html,
    darkHtml: analysis.darkMode[clientId]?.html ?? '',
  };
}
