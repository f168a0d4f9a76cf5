import type { PreviewEntity } from '@mailproof/persistence';
import type { StoredAnalysis } from '../../shares/preview-analysis.cache';
import { previewReport } from '../../shares/share-page.view';
import { fixForm } from './fix.view';
import { html, raw } from './html';
import { csrfField, page, when, type PageContext } from './layout';

export interface PreviewDetailView {
  preview: PreviewEntity;
  /** Its analysis (PreviewAnalysisCache), null while it is queued or when it failed. */
  analysis: StoredAnalysis | null;
  /** A share link just created for it (shown with a copy button). */
  shareUrl?: string;
  /** Why the analysis failed, when it did. */
  failure?: string;
  /** Link to its trace (TRACING=on with the embedded store). */
  traceLink?: boolean;
}

export function previewDetailPage(context: PageContext, view: PreviewDetailView): string {
  const { preview } = view;
  const title = preview.title ?? 'Untitled preview';
  // Past the account's retention the row stays without its email or result (docs/privacy.md): nothing to show, share, render or fix.
  const contentRemoved = preview.status === 'completed' && preview.result === null;
  const report = view.analysis ? previewReport(preview, view.analysis, `/app/previews/${encodeURIComponent(preview.id)}/clients`) : null;
  const actions = html`<div class="actions">
${contentRemoved ? '' : html`<form method="post" action="/app/previews/${preview.id}/share" class="inline">${csrfField(context.csrfToken)}<button type="submit">Share</button></form>`}
${preview.status === 'completed' && !contentRemoved ? html`<form method="post" action="/app/previews/${preview.id}/screenshots" class="inline">${csrfField(context.csrfToken)}<button type="submit">${preview.screenshots && Object.keys(preview.screenshots).length > 0 ? 'Render missing screenshots' : 'Render screenshots'}</button></form>` : ''}
<form method="post" action="/app/previews/${preview.id}/delete" class="inline" data-confirm="Delete this preview and its share links?">${csrfField(context.csrfToken)}<button type="submit" class="danger">Delete</button></form>
</div>`;
  const share = view.shareUrl
    ? html`<div class="card"><label for="share-url">Share link</label><div class="keybox"><input type="text" id="share-url" readonly value="${view.shareUrl}"><button type="button" data-copy-target="share-url" data-copy-status="share-status">Copy</button></div><p id="share-status" class="meta" role="status"></p><p><a href="${view.shareUrl}">Open the share page</a></p></div>`
    : '';
  const status =
    preview.status === 'queued'
      ? html`<p role="status">This email is still being analyzed. <a href="/app/previews/${preview.id}">Reload</a> in a few seconds.</p>`
      : preview.status === 'failed'
        ? html`<p class="error" role="alert">The email could not be analyzed: ${view.failure ?? 'unknown error'}</p>`
        : contentRemoved
          ? html`<p role="status">This email's content was removed after the account's retention (<a href="/app/account">Account</a>); its score was ${preview.overallScore ?? 'not recorded'}.</p>`
          : '';
  const body = html`<div class="report-head"><div><h1>${title}</h1>
<p class="meta">${preview.format} · ${preview.clients.length} clients · created ${when(preview.createdAt)}${view.traceLink ? html` · <a href="/app/traces/previews/${encodeURIComponent(preview.id)}">Trace</a>` : ''}</p></div>
${report ? raw(report.score) : ''}</div>
${actions}
${share}
${status}
${preview.status === 'completed' && !contentRemoved ? fixForm(preview.id, context.csrfToken) : ''}
${report ? html`<div ${raw(report.rootAttributes)}>${raw(report.sections)}</div>` : ''}
${report && html`<script src="/share/assets/share.js" defer></script>`}`;
  return page(title, context, body);
}
