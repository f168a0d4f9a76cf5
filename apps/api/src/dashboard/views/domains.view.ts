import type { DriftEventResponse, MonitoredDomainResponse } from '../../domains/dto/monitored-domain.response';
import { html, type SafeHtml } from './html';
import { csrfField, page, scoreBadge, statusBadge, when, type PageContext } from './layout';
import { scoreLineChart } from './svg-charts';

export function domainsPage(
  context: PageContext,
  domains: MonitoredDomainResponse[],
  limit: number,
  form: { domain: string; selectors: string },
  error?: SafeHtml | string,
): string {
  return page(
    'Domains',
    context,
    html`<h1>Domains</h1>
<p>Monitored sending domains are audited every few hours; a change in SPF, DKIM, DMARC, MX or BIMI is recorded as drift. ${domains.length} of ${limit} on your plan.</p>
${error}
${
  domains.length === 0
    ? html`<p>No monitored domains yet.</p>`
    : html`<div class="card table-scroll"><table><caption class="sr-only">Monitored domains</caption>
<thead><tr><th scope="col">Domain</th><th scope="col">Status</th><th scope="col" class="num">Score</th><th scope="col" class="hide-narrow">Last checked</th><th scope="col"><span class="sr-only">Actions</span></th></tr></thead>
<tbody>${domains.map(
        (
          d,
        ) => html`<tr><th scope="row"><a href="/app/domains/${d.id}">${d.domain}</a></th><td>${statusBadge(d.status)}</td><td class="num">${scoreBadge(d.score)}</td><td class="hide-narrow">${when(d.lastCheckedAt)}</td>
<td><form method="post" action="/app/domains/${d.id}/delete" class="inline" data-confirm="Stop monitoring ${d.domain}? Its history is deleted.">${csrfField(context.csrfToken)}<button type="submit" class="danger" aria-label="Remove ${d.domain}">Remove</button></form></td></tr>`,
      )}</tbody></table></div>`
}
<section aria-labelledby="add-title" class="card">
<h2 id="add-title">Add a domain</h2>
<form method="post" action="/app/domains">
${csrfField(context.csrfToken)}
<label for="domain">Domain</label>
<input type="text" id="domain" name="domain" required value="${form.domain}" placeholder="mail.example.com" autocomplete="off" spellcheck="false">
<label for="selectors">DKIM selectors (optional, comma-separated)</label>
<input type="text" id="selectors" name="dkimSelectors" value="${form.selectors}" placeholder="s1, google" autocomplete="off" spellcheck="false">
<div class="actions"><button type="submit" class="primary">Add domain</button></div>
</form>
</section>`,
  );
}

function value(v: unknown): string {
  if (v === null || v === undefined) return 'nothing';
  return typeof v === 'string' ? v : JSON.stringify(v);
}

function driftItem(event: DriftEventResponse) {
  return html`<li><p><strong>${when(event.detectedAt)}</strong> · ${event.check.toUpperCase()} · ${event.kind}</p>
<p>${event.message}</p>
<p class="meta">Before: <code>${value(event.previous)}</code><br>After: <code>${value(event.current)}</code></p></li>`;
}

export function domainPage(
  context: PageContext,
  view: { domain: MonitoredDomainResponse; dailyScores: Array<{ day: Date; score: number }>; driftEvents: DriftEventResponse[]; days: number },
): string {
  const { domain } = view;
  return page(
    domain.domain,
    context,
    html`<h1>${domain.domain}</h1>
<p>${statusBadge(domain.status)} Score ${scoreBadge(domain.score)} · last checked ${when(domain.lastCheckedAt)}${domain.dkimSelectors.length > 0 ? html` · DKIM selectors ${domain.dkimSelectors.join(', ')}` : ''}</p>
<section aria-labelledby="history-title"><h2 id="history-title">Score history</h2>
<p class="meta">Lowest conclusive score of each day, last ${view.days} days.</p>
${scoreLineChart(
  'domain-scores',
  `DNS score of ${domain.domain} per day`,
  view.dailyScores.map((p) => ({ at: new Date(p.day), value: p.score })),
)}
</section>
<section aria-labelledby="drift-title"><h2 id="drift-title">Drift events</h2>
${view.driftEvents.length === 0 ? html`<p>No drift recorded: every audit found the same records as the one before.</p>` : html`<ol class="timeline">${view.driftEvents.map(driftItem)}</ol>`}
</section>
<form method="post" action="/app/domains/${domain.id}/delete" data-confirm="Stop monitoring ${domain.domain}? Its history is deleted.">${csrfField(context.csrfToken)}<button type="submit" class="danger">Remove this domain</button></form>`,
  );
}
