import type { GateRunListItem, PreviewListItem } from '@mailproof/persistence';
import type { MonitoredDomainResponse } from '../../domains/dto/monitored-domain.response';
import { html } from './html';
import { page, scoreBadge, statusBadge, verdictBadge, when, type PageContext } from './layout';
import { previewTable } from './previews.view';

export interface OverviewView {
  previews: PreviewListItem[];
  previewTotal: number;
  runs: GateRunListItem[];
  attention: Array<MonitoredDomainResponse & { reason: string }>;
  domainCount: number;
}

export function gateRunRows(runs: GateRunListItem[], showRef: boolean) {
  return runs.map(
    (r) =>
      html`<tr><th scope="row"><a href="/app/gate/runs/${r.id}">${when(r.createdAt)}</a></th>${showRef ? html`<td>${r.ref ?? '—'}</td>` : ''}<td>${verdictBadge(r)}</td><td class="num">${scoreBadge(r.overallScore)}</td><td class="num">${r.failures ?? '—'}</td></tr>`,
  );
}

export function gateRunTable(runs: GateRunListItem[], showRef: boolean, caption: string) {
  return html`<div class="card table-scroll"><table><caption class="sr-only">${caption}</caption>
<thead><tr><th scope="col">Run</th>${showRef ? html`<th scope="col">Ref</th>` : ''}<th scope="col">Verdict</th><th scope="col" class="num">Score</th><th scope="col" class="num">Failures</th></tr></thead>
<tbody>${gateRunRows(runs, showRef)}</tbody></table></div>`;
}

export function overviewPage(context: PageContext, view: OverviewView): string {
  return page(
    'Overview',
    context,
    html`<h1>Overview</h1>
<section aria-labelledby="attention-title">
<h2 id="attention-title">Domains that need attention</h2>
${
  view.attention.length === 0
    ? html`<p>${view.domainCount === 0 ? html`No monitored domains. <a href="/app/domains">Add one</a>.` : html`All ${view.domainCount} monitored domains are healthy, with no drift this week.`}</p>`
    : html`<ul>${view.attention.map((d) => html`<li><a href="/app/domains/${d.id}">${d.domain}</a> ${statusBadge(d.status)} ${scoreBadge(d.score)}: ${d.reason}</li>`)}</ul>`
}
</section>
<section aria-labelledby="runs-title">
<h2 id="runs-title">Latest gate runs</h2>
${view.runs.length === 0 ? html`<p>No gate runs yet: run <code>mailproof gate</code> or POST /api/gate.</p>` : gateRunTable(view.runs, true, 'Latest gate runs')}
<p><a href="/app/gate">All gate runs</a></p>
</section>
<section aria-labelledby="previews-title">
<h2 id="previews-title">Recent previews</h2>
${view.previews.length === 0 ? html`<p>No saved previews yet. <a href="/app/previews/new">Create one</a>.</p>` : previewTable(view.previews, 'Recent previews')}
<p><a href="/app/previews">All ${view.previewTotal} previews</a></p>
</section>`,
  );
}
