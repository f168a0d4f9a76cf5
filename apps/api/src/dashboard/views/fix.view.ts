import type { FixRunResult } from '@mailproof/contracts';
import type { PreviewEntity } from '@mailproof/persistence';
import { html, type SafeHtml } from './html';
import { csrfField, page, scoreBadge, type PageContext } from './layout';

/** Diff lines shown on the page; past them the page says where the whole diff is (GET /api/fix/:id). */
export const MAX_DIFF_LINES = 3000;

/** The Fix action on a preview page: which tiers, then POST /app/previews/:id/fix. */
export function fixForm(previewId: string, csrfToken: string | undefined): SafeHtml {
  return html`<form method="post" action="/app/previews/${previewId}/fix" class="card fix-form">${csrfField(csrfToken)}
<fieldset><legend>Fix this email</legend>
<label><input type="radio" name="tier" value="safe" checked> Safe fixes only (invisible outside the clients they help)</label>
<label><input type="radio" name="tier" value="layout"> Safe and layout fixes (CSS inlining, bulletproof buttons, VML backgrounds: visible changes)</label>
</fieldset>
<p class="meta">Every fix is proven by analyzing the result again; one that would add a finding is not applied. Your preview is not changed.</p>
<button type="submit" class="primary">Fix</button></form>`;
}

export interface FixPageView {
  preview: PreviewEntity;
  /** The fix run's id (absent when the run could not be started). */
  fixId?: string;
  /** The tiers asked for, when known. */
  tiers?: string[];
  /** done: the answer; pending: still being fixed (reload); failed: why. */
  state: 'done' | 'pending' | 'failed';
  result?: FixRunResult;
  failure?: string;
}

const TALLY_ROWS: Array<{ key: 'score' | 'errors' | 'warnings'; label: string }> = [
  { key: 'score', label: 'Score' },
  { key: 'errors', label: 'Errors' },
  { key: 'warnings', label: 'Warnings' },
];

function change(before: number, after: number): string {
  if (after === before) return 'no change';
  return after > before ? `+${after - before}` : `−${before - after}`;
}

function tallyTable(result: FixRunResult): SafeHtml {
  const cell = (key: 'score' | 'errors' | 'warnings', value: number) => (key === 'score' ? scoreBadge(value) : html`${value}`);
  return html`<table><caption class="sr-only">The email analyzed before and after the fixes</caption>
<thead><tr><th scope="col"><span class="sr-only">Measure</span></th><th scope="col" class="num">Before</th><th scope="col" class="num">After</th><th scope="col" class="num">Change</th></tr></thead>
<tbody>${TALLY_ROWS.map(
    ({ key, label }) =>
      html`<tr><th scope="row">${label}</th><td class="num">${cell(key, result.before[key])}</td><td class="num">${cell(key, result.after[key])}</td><td class="num">${change(result.before[key], result.after[key])}</td></tr>`,
  )}</tbody></table>`;
}

function resolvedLine(result: FixRunResult): SafeHtml {
  const entries = Object.entries(result.resolved);
  if (entries.length === 0) return html`<p>No finding was resolved outright; the fixes below help the clients they name.</p>`;
  const total = entries.reduce((sum, [, count]) => sum + count, 0);
  return html`<p>Resolved ${total} ${total === 1 ? 'finding' : 'findings'}: ${entries.map(([rule, count], i) => html`${i > 0 ? ', ' : ''}<code>${rule}</code> ${count}`)}.</p>`;
}

function clientsCell(clients: readonly string[], analyzed: number): string {
  if (clients.length === 0) return '—';
  if (clients.length === analyzed && analyzed > 3) return `all ${analyzed}`;
  return clients.join(', ');
}

function appliedSection(result: FixRunResult, analyzed: number): SafeHtml {
  if (result.applied.length === 0) return html`<p>Nothing to fix: the email already has every fix of these tiers, or none applies.</p>`;
  return html`<div class="card table-scroll" tabindex="0" role="region" aria-label="Applied fixes (scrolls sideways on small screens)"><table><caption class="sr-only">Applied fixes, by line</caption>
<thead><tr><th scope="col" class="num">Line</th><th scope="col">Rule</th><th scope="col">What it does</th><th scope="col">Clients</th></tr></thead>
<tbody>${result.applied.map(
    (fix) =>
      html`<tr><td class="num">${fix.line}</td><td><code>${fix.rule}</code>${fix.tier === 'layout' ? html` <span class="pill pill-warn">layout</span>` : ''}</td><td>${fix.description}</td><td class="title">${clientsCell(fix.clients, analyzed)}</td></tr>`,
  )}</tbody></table></div>`;
}

function skippedSection(result: FixRunResult): SafeHtml {
  if (result.skipped.length === 0) return html`<p>None.</p>`;
  return html`<div class="card table-scroll" tabindex="0" role="region" aria-label="Skipped fixes (scrolls sideways on small screens)"><table><caption class="sr-only">Fixes not applied, with the reason</caption>
<thead><tr><th scope="col" class="num">Line</th><th scope="col">Rule</th><th scope="col">Why not</th></tr></thead>
<tbody>${result.skipped.map((skip) => html`<tr><td class="num">${skip.line}</td><td><code>${skip.rule}</code></td><td class="title">${skip.reason}</td></tr>`)}</tbody></table></div>`;
}

/** One line of a unified diff with its kind as a class: the +/- stays in the text, so the marking is not color alone. */
function diffLine(line: string): SafeHtml {
  if (line.startsWith('+++ ') || line.startsWith('--- ') || line.startsWith('Index: ') || /^=+$/.test(line))
    return html`<span class="diff-file">${line}</span>`;
  if (line.startsWith('@@')) return html`<span class="diff-hunk">${line}</span>`;
  if (line.startsWith('+')) return html`<ins class="diff-add">${line}</ins>`;
  if (line.startsWith('-')) return html`<del class="diff-del">${line}</del>`;
  if (line.startsWith('\\')) return html`<span class="diff-note">${line}</span>`;
  return html`<span>${line}</span>`;
}

export function diffBlock(diff: string, fixId: string | undefined): SafeHtml {
  if (diff === '') return html`<p>No change.</p>`;
  const lines = diff.replace(/\n$/, '').split('\n');
  const shown = lines.slice(0, MAX_DIFF_LINES);
  const more =
    lines.length > shown.length
      ? html`<p class="meta">${lines.length - shown.length} more lines of the diff are not shown here; <code>GET /api/fix/${fixId ?? ''}</code> has it whole.</p>`
      : '';
  return html`<pre class="diff" tabindex="0" role="region" aria-label="Diff of the email (lines starting with + are added, with − removed)"><code>${shown.map((line) => html`${diffLine(line)}\n`)}</code></pre>${more}`;
}

function resultBody(view: FixPageView, result: FixRunResult): SafeHtml {
  const analyzed = view.preview.clients.length;
  return html`${result.note ? html`<p class="notice">${result.note}</p>` : ''}
<section aria-labelledby="reanalysis-title" class="card"><h2 id="reanalysis-title">Re-analysis</h2>
${tallyTable(result)}
${resolvedLine(result)}
</section>
<section aria-labelledby="applied-title"><h2 id="applied-title">Applied (${result.applied.length})</h2>
${appliedSection(result, analyzed)}
</section>
<section aria-labelledby="skipped-title"><h2 id="skipped-title">Skipped (${result.skipped.length})</h2>
${skippedSection(result)}
</section>
<section aria-labelledby="diff-title"><h2 id="diff-title">Diff</h2>
${diffBlock(result.diff, view.fixId)}
</section>
${
  result.applied.length > 0
    ? html`<section aria-labelledby="fixed-title"><h2 id="fixed-title">The fixed email</h2>
<label for="fixed-html">${result.patched === 'source' ? 'Your markup with the fixes' : 'The compiled HTML with the fixes'}</label>
<textarea id="fixed-html" readonly rows="12">${result.html}</textarea>
<div class="actions"><button type="button" data-copy-target="fixed-html" data-copy-status="fixed-status">Copy</button><span id="fixed-status" class="meta" role="status"></span></div>
</section>`
    : ''
}`;
}

/** The answer of a fix run for a saved preview: the re-analysis, what was applied and skipped, the diff and the fixed email. */
export function fixPage(context: PageContext, view: FixPageView): string {
  const title = view.preview.title ?? 'Untitled preview';
  const back = html`<p><a href="/app/previews/${view.preview.id}">Back to the preview</a></p>`;
  let body: SafeHtml;
  if (view.state === 'pending') {
    body = html`<p role="status">The fixes are still being made and verified. <a href="/app/previews/${view.preview.id}/fix/${view.fixId ?? ''}">Reload</a> in a few seconds.</p>`;
  } else if (view.state === 'failed' || !view.result) {
    body = html`<p class="error" role="alert">The email could not be fixed: ${view.failure ?? 'unknown error'}</p>`;
  } else {
    body = resultBody(view, view.result);
  }
  return page(
    `Fix: ${title}`,
    context,
    html`<h1>Fix: ${title}</h1>
<p class="meta">${view.preview.format} · ${view.preview.clients.length} clients${view.tiers ? ` · tiers: ${view.tiers.join(' + ')}` : ''}${view.fixId ? html` · fix run <code>${view.fixId}</code>` : ''}</p>
${back}
${body}`,
  );
}
