import { CLIENT_IDS, EMAIL_CLIENTS, EMAIL_FORMATS } from '@mailproof/engine';
import type { PreviewListItem, PreviewSort } from '@mailproof/persistence';
import { csrfField, page, pager, scoreBadge, when, type PageContext } from './layout';
import { html, raw, type SafeHtml } from './html';

const SORT_LABELS: Record<PreviewSort, string> = {
  'date-desc': 'Newest first',
  'date-asc': 'Oldest first',
  'score-desc': 'Highest score first',
  'score-asc': 'Lowest score first',
};

export interface PreviewListView {
  previews: PreviewListItem[];
  page: number;
  pageSize: number;
  total: number;
  q: string;
  sort: PreviewSort;
}

export function previewRows(previews: PreviewListItem[]): SafeHtml {
  return html`${previews.map(
    (p) =>
      html`<tr><th scope="row" class="title"><a href="/app/previews/${p.id}">${p.title ?? 'Untitled preview'}</a></th><td class="num">${scoreBadge(p.overallScore)}</td><td class="hide-narrow">${p.status}</td><td>${when(p.createdAt)}</td></tr>`,
  )}`;
}

export function previewTable(previews: PreviewListItem[], caption: string): SafeHtml {
  return html`<div class="card table-scroll"><table><caption class="sr-only">${caption}</caption>
<thead><tr><th scope="col">Title</th><th scope="col" class="num">Score</th><th scope="col" class="hide-narrow">Status</th><th scope="col">Created</th></tr></thead>
<tbody>${previewRows(previews)}</tbody></table></div>`;
}

export function previewListPage(context: PageContext, view: PreviewListView): string {
  const results = html`<div id="preview-results">
${view.previews.length === 0 ? html`<p>${view.q ? html`No preview has a title containing “${view.q}”.` : html`No saved previews yet. <a href="/app/previews/new">Create one</a>.`}</p>` : previewTable(view.previews, 'Saved previews')}
${pager('/app/previews', { q: view.q || undefined, sort: view.sort === 'date-desc' ? undefined : view.sort }, view.page, view.pageSize, view.total)}
</div>`;
  return page(
    'Previews',
    context,
    html`<h1>Previews</h1>
<div class="actions"><a href="/app/previews/new">New preview</a></div>
<form method="get" action="/app/previews" class="searchbar" role="search" hx-get="/app/previews" hx-trigger="input changed delay:300ms from:#q, change from:#sort, submit" hx-target="#preview-results" hx-select="#preview-results" hx-swap="outerHTML" hx-push-url="true">
<div><label for="q">Title contains</label><input type="search" id="q" name="q" value="${view.q}" maxlength="200"></div>
<div><label for="sort">Sort</label><select id="sort" name="sort">${(Object.keys(SORT_LABELS) as PreviewSort[]).map(
      (s) => html`<option value="${s}"${s === view.sort ? raw(' selected') : ''}>${SORT_LABELS[s]}</option>`,
    )}</select></div>
<div><button type="submit">Search</button></div>
</form>
${results}`,
  );
}

export interface NewPreviewForm {
  title: string;
  html: string;
  format: string;
  clients: string[];
}

export function newPreviewPage(context: PageContext, form: NewPreviewForm, error?: SafeHtml | string): string {
  const clientNames = new Map(EMAIL_CLIENTS.map((c) => [c.id as string, c.name]));
  return page(
    'New preview',
    context,
    html`<h1>New preview</h1>
${error}
<form method="post" action="/app/previews/new" class="card">
${csrfField(context.csrfToken)}
<label for="title">Title</label>
<input type="text" id="title" name="title" maxlength="200" value="${form.title}" placeholder="November newsletter">
<label for="markup">Markup</label>
<textarea id="markup" name="html" required spellcheck="false">${form.html}</textarea>
<label for="upload">Or upload a file</label>
<input type="file" id="upload" accept=".html,.htm,.mjml,.jsx,.tsx,.eml,.txt,text/html,message/rfc822" data-fill="markup">
<fieldset><legend>Format</legend>${EMAIL_FORMATS.map(
      (f) => html`<label><input type="radio" name="format" value="${f}"${f === form.format ? raw(' checked') : ''}> ${f}</label>`,
    )}</fieldset>
<fieldset><legend>Clients (none checked: all ${CLIENT_IDS.length})</legend>${CLIENT_IDS.map(
      (id) =>
        html`<label><input type="checkbox" name="clients" value="${id}"${form.clients.includes(id) ? raw(' checked') : ''}> ${clientNames.get(id) ?? id}</label>`,
    )}</fieldset>
<div class="actions"><button type="submit" class="primary">Analyze</button></div>
</form>`,
  );
}
