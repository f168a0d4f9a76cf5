import { parsePreviewResult, type PreviewResult } from '@mailproof/contracts';
import { EMAIL_CLIENTS, type CssFinding } from '@mailproof/engine';
import type { PreviewEntity, ShareEntity } from '@mailproof/persistence';
import { escapeHtml as e } from './html-escape';

/** What the page reads of the stored preview result. */
type StoredAnalysis = Pick<PreviewResult, 'overallScore' | 'compatibilityScores' | 'cssReport' | 'transforms' | 'darkMode'>;

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
<link rel="stylesheet" href="/share/assets/share.css">
${extraHead}
</head>
<body>
<a class="skip" href="#main">Skip to content</a>
${body}
</body>
</html>`;
}

/** One finding per (severity, property, message) with the clients it applies to, so 21 clients do not mean 21 copies. */
function groupFindings(findings: CssFinding[]) {
  const groups = new Map<string, CssFinding & { clients: string[] }>();
  for (const finding of findings) {
    const key = `${finding.severity}\u0000${finding.property}\u0000${finding.message}`;
    const group = groups.get(key);
    if (group) group.clients.push(finding.client);
    else groups.set(key, { ...finding, clients: [finding.client] });
  }
  return [...groups.values()];
}

function findingsSection(findings: CssFinding[]): string {
  const grouped = groupFindings(findings);
  const sections = (['error', 'warning', 'info'] as const).map((severity) => {
    const items = grouped.filter((f) => f.severity === severity);
    if (items.length === 0) return `<h3 class="sev-${severity}">${SEVERITY_TITLES[severity]} (0)</h3><p>None.</p>`;
    const list = items
      .map(
        (f) => `<li><strong>${e(f.property)}</strong>: ${e(f.message)}
<div>${f.clients.map((c) => `<span class="badge">${e(CLIENT_NAMES.get(c) ?? c)}</span>`).join('')}</div>
${f.suggestion ? `<div>Suggestion: ${e(f.suggestion)}</div>` : ''}
${
  f.fix
    ? `<details><summary>Fix: ${e(f.fix.description)}</summary><p>Before (${e(f.fix.language)}):</p><pre><code>${e(f.fix.before)}</code></pre><p>After:</p><pre><code>${e(f.fix.after)}</code></pre></details>`
    : ''
}</li>`,
      )
      .join('\n');
    return `<h3 class="sev-${severity}">${SEVERITY_TITLES[severity]} (${items.length})</h3><ul>${list}</ul>`;
  });
  return `<section aria-labelledby="findings-title" class="findings"><h2 id="findings-title">Findings</h2><div class="card">${sections.join('\n')}</div></section>`;
}

export function renderSharePage(share: ShareEntity, preview: PreviewEntity): string {
  const title = preview.title ? `${preview.title}: Mailproof preview` : 'Shared Mailproof preview';
  if (preview.status !== 'completed' || !preview.result) {
    const message = preview.status === 'queued' ? 'This email is still being analyzed. The page refreshes by itself.' : 'This email could not be analyzed.';
    return layout(title, `<main id="main"><h1>${e(title)}</h1><p role="status">${e(message)}</p></main>`, preview.status === 'queued' ? '<meta http-equiv="refresh" content="5">' : '');
  }
  const report = previewReport(preview, preview.result, `/share/${encodeURIComponent(share.id)}/clients`);
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
 * What the share page shows of an analyzed preview, for the share page and the dashboard's preview
 * page: the overall score, the client viewer (its script fetches `${clientsUrl}/<clientId>`), scores
 * per client, findings and screenshots. `rootAttributes` go on the element that holds `sections`.
 */
export function previewReport(preview: Pick<PreviewEntity, 'screenshots'>, result: Buffer, clientsUrl: string) {
  const analysis: StoredAnalysis = parsePreviewResult(result);
  const clients = analysis.transforms.map((t) => t.clientId);
  const first = clients[0];
  const rows = clients
    .map((id) => {
      const s = analysis.compatibilityScores[id];
      return `<tr><th scope="row">${e(CLIENT_NAMES.get(id) ?? id)}</th><td class="num ${scoreClass(s.score)}">${s.score}</td><td class="num">${s.errors}</td><td class="num">${s.warnings}</td><td class="num">${s.info}</td></tr>`;
    })
    .join('\n');
  const options = clients.map((id) => `<option value="${e(id)}"${id === first ? ' selected' : ''}>${e(CLIENT_NAMES.get(id) ?? id)}</option>`).join('');
  const firstLight = analysis.transforms[0]?.html ?? '';
  const firstDark = analysis.darkMode[first]?.html ?? '';
  const sections = `<section aria-labelledby="viewer-title">
<h2 id="viewer-title">How each client shows it</h2>
<div class="controls">
<label for="client-picker">Client</label>
<select id="client-picker" name="client">${options}</select>
<div role="group" aria-label="Color mode">
<button type="button" data-mode="both" aria-pressed="true">Side by side</button>
<button type="button" data-mode="light" aria-pressed="false">Light</button>
<button type="button" data-mode="dark" aria-pressed="false">Dark</button>
</div>
<span id="viewer-status" role="status" aria-live="polite">Showing ${e(CLIENT_NAMES.get(first) ?? first)}</span>
</div>
<p class="meta">Email markup runs in sandboxed frames: no scripts, no forms, and remote images are not loaded.</p>
<div class="frames">
<figure class="frame-light"><figcaption>Light mode</figcaption><iframe id="frame-light" sandbox="" referrerpolicy="no-referrer" loading="lazy" title="${e(CLIENT_NAMES.get(first) ?? first)} in light mode" srcdoc="${e(firstLight)}"></iframe></figure>
<figure class="frame-dark"><figcaption>Dark mode</figcaption><iframe id="frame-dark" sandbox="" referrerpolicy="no-referrer" loading="lazy" title="${e(CLIENT_NAMES.get(first) ?? first)} in dark mode" srcdoc="${e(firstDark)}"></iframe></figure>
</div>
</section>
<section aria-labelledby="scores-title">
<h2 id="scores-title">Scores per client</h2>
<div class="card table-scroll"><table><caption class="meta">Score 0-100: minus 10 per distinct error property, minus 3 per distinct warning property.</caption>
<thead><tr><th scope="col">Client</th><th scope="col" class="num">Score</th><th scope="col" class="num">Errors</th><th scope="col" class="num">Warnings</th><th scope="col" class="num">Notes</th></tr></thead>
<tbody>${rows}</tbody></table></div>
</section>
${findingsSection(analysis.cssReport)}
${screenshotsSection(preview.screenshots)}`;
  return {
    clientCount: clients.length,
    score: `<div class="score ${scoreClass(analysis.overallScore)}" aria-label="Overall score ${analysis.overallScore} out of 100">${analysis.overallScore}<span class="meta">/100</span></div>`,
    rootAttributes: `data-clients-url="${e(clientsUrl)}" data-client="${e(first)}" data-mode="both"`,
    sections,
  };
}

/** The stored screenshots, one image per client and color mode (`{ "<client>-light": url, "<client>-dark": url }`). */
function screenshotsSection(screenshots: Record<string, string> | null): string {
  if (!screenshots || Object.keys(screenshots).length === 0) return '';
  const figures = Object.entries(screenshots)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([key, url]) => `<figure><img src="${e(url)}" alt="Screenshot: ${e(screenshotLabel(key))}" loading="lazy"><figcaption>${e(screenshotLabel(key))}</figcaption></figure>`)
    .join('');
  return `<section aria-labelledby="shots-title"><h2 id="shots-title">Screenshots</h2><div class="shots">${figures}</div></section>`;
}

/** "gmail-web-dark" as "Gmail (web), dark mode". */
function screenshotLabel(key: string): string {
  const mode = /-(light|dark)$/.exec(key)?.[1];
  const client = mode ? key.slice(0, -mode.length - 1) : key;
  const name = CLIENT_NAMES.get(client) ?? client;
  return mode ? `${name}, ${mode} mode` : name;
}

export function renderNotFoundPage(): string {
  return layout(
    'Share not found: Mailproof',
    `<main id="main"><h1>This share link does not exist or has expired</h1><p>Ask the person who sent it for a new link.</p></main>`,
  );
}

/** One client's markup and dark variant, for the picker. */
export function clientView(preview: PreviewEntity, clientId: string) {
  if (preview.status !== 'completed' || !preview.result) return null;
  const analysis: StoredAnalysis = parsePreviewResult(preview.result);
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
