import { NOT_A_MESSAGE_REASON } from '@mailproof/engine';
import type { GateRefSummary, GateRunListItem, GateScorePoint } from '@mailproof/persistence';
import { html } from './html';
import { csrfField, page, pager, scoreBadge, verdictBadge, when, type PageContext } from './layout';
import { gateRunTable } from './overview.view';
import { scoreLineChart } from './svg-charts';

export function gateOverviewPage(
  context: PageContext,
  refs: GateRefSummary[],
  runs: { runs: GateRunListItem[]; page: number; pageSize: number; total: number },
): string {
  return page(
    'Gate runs',
    context,
    html`<h1>Gate runs</h1>
<section aria-labelledby="refs-title"><h2 id="refs-title">Refs</h2>
${
  refs.length === 0
    ? html`<p>No run has a ref yet. Give runs a <code>ref</code> (a template name or branch) to follow its verdicts and scores over time.</p>`
    : html`<div class="card table-scroll"><table><caption class="sr-only">Refs and their latest verdicts</caption>
<thead><tr><th scope="col">Ref</th><th scope="col">Latest verdict</th><th scope="col" class="num">Score</th><th scope="col">Last run</th></tr></thead>
<tbody>${refs.map(
        (r) =>
          html`<tr><th scope="row"><a href="/app/gate/ref?ref=${encodeURIComponent(r.ref)}">${r.ref}</a></th><td>${verdictBadge(r)}</td><td class="num">${scoreBadge(r.overallScore)}</td><td>${when(r.createdAt)}</td></tr>`,
      )}</tbody></table></div>`
}
</section>
<section aria-labelledby="all-title"><h2 id="all-title">All runs</h2>
${runs.runs.length === 0 ? html`<p>No gate runs yet.</p>` : gateRunTable(runs.runs, true, 'All gate runs, newest first')}
${pager('/app/gate', {}, runs.page, runs.pageSize, runs.total)}
</section>`,
  );
}

export function gateRefPage(
  context: PageContext,
  ref: string,
  history: GateScorePoint[],
  runs: { runs: GateRunListItem[]; page: number; pageSize: number; total: number },
): string {
  const points = history
    .filter((h) => h.overallScore !== null)
    .map((h) => ({ at: h.createdAt, value: h.overallScore as number, tone: h.passed ? ('good' as const) : ('bad' as const) }));
  const passed = history.filter((h) => h.passed === true).length;
  return page(
    `Gate runs of ${ref}`,
    context,
    html`<h1>Gate runs of <code>${ref}</code></h1>
<p>${passed} of the last ${history.length} runs passed. Green dots passed, red dots failed.</p>
${scoreLineChart('ref-scores', `Overall score of ${ref} per run`, points)}
<section aria-labelledby="runs-title"><h2 id="runs-title">Runs</h2>
${gateRunTable(runs.runs, false, `Runs of ${ref}, newest first`)}
${pager('/app/gate/ref', { ref }, runs.page, runs.pageSize, runs.total)}
</section>`,
  );
}

function failureLine(failure: Record<string, unknown>) {
  const { family, check, message, ...rest } = failure;
  const details = Object.entries(rest)
    .map(([key, value]) => `${key}: ${typeof value === 'object' ? JSON.stringify(value) : String(value)}`)
    .join(', ');
  return html`<li><strong>${String(family ?? '')}${check ? ` / ${String(check)}` : ''}</strong>${message ? html`: ${String(message)}` : ''}${details ? html` <span class="meta">(${details})</span>` : ''}</li>`;
}

/** A failed verdict's suggested fix: how many findings the safe fixes resolve, and the Fix action on the analyzed preview. */
function suggestedFixLine(verdict: Record<string, unknown> | null, previewId: unknown, csrfToken: string | undefined) {
  const suggestion = verdict?.suggestedFix as { fixable?: unknown; pending?: unknown } | undefined;
  // Computed after the verdict (docs/gate.md): known a moment later.
  if (suggestion?.pending === true) return html`<p class="meta">The safe fixes are being checked against this email; reload to see what they resolve.</p>`;
  const fixable = suggestion?.fixable;
  if (typeof fixable !== 'number') return '';
  const what = `The safe fixes resolve ${fixable} ${fixable === 1 ? 'finding' : 'findings'} of this email.`;
  if (typeof previewId !== 'string') return html`<p>${what}</p>`;
  return html`<form method="post" action="/app/previews/${previewId}/fix" class="actions">${csrfField(csrfToken)}<input type="hidden" name="tier" value="safe"><span>${what}</span><button type="submit">Fix the analyzed preview</button></form>`;
}

export function gateRunPage(context: PageContext, run: Record<string, unknown>, traceLink = false): string {
  const verdict = (run.verdict ?? null) as Record<string, unknown> | null;
  const failures = Array.isArray(verdict?.failures) ? (verdict.failures as Record<string, unknown>[]) : [];
  // What a check that ran did not judge (the message check's: not bulk, undecided requirements); an HTML
  // email's "not a message" would sit on every run's page and is left out.
  const notes = (Array.isArray(verdict?.notes) ? (verdict.notes as Record<string, unknown>[]) : []).filter((note) => note.reason !== NOT_A_MESSAGE_REASON);
  const ref = typeof run.ref === 'string' ? run.ref : null;
  const status = String(run.status);
  const passed = typeof verdict?.passed === 'boolean' ? verdict.passed : null;
  const failure = run.failure as { message?: string } | null | undefined;
  return page(
    'Gate run',
    context,
    html`<h1>Gate run ${verdictBadge({ status, passed })}</h1>
<p class="meta">${ref ? html`Ref <a href="/app/gate/ref?ref=${encodeURIComponent(ref)}">${ref}</a> · ` : ''}started ${when(run.createdAt as string)} · finished ${when(run.completedAt as string | null)}${traceLink && typeof run.id === 'string' ? html` · <a href="/app/traces/gate-runs/${encodeURIComponent(run.id)}">Trace</a>` : ''}</p>
${typeof verdict?.overallScore === 'number' ? html`<p>Overall score ${scoreBadge(verdict.overallScore)}${typeof verdict.threshold === 'number' ? html` (threshold ${verdict.threshold})` : ''}</p>` : ''}
${typeof run.previewId === 'string' ? html`<p><a href="/app/previews/${run.previewId}">The analyzed preview</a></p>` : ''}
${failure?.message ? html`<p class="error" role="alert">${failure.message}</p>` : ''}
${suggestedFixLine(verdict, run.previewId, context.csrfToken)}
<section aria-labelledby="failures-title"><h2 id="failures-title">Failures (${failures.length})</h2>
${failures.length === 0 ? html`<p>None.</p>` : html`<ul class="failures">${failures.map(failureLine)}</ul>`}
</section>
${notes.length === 0 ? '' : html`<section aria-labelledby="notes-title"><h2 id="notes-title">Notes (${notes.length})</h2><p class="meta">What the checks did not judge; notes never fail a run.</p><ul class="notes">${notes.map(failureLine)}</ul></section>`}`,
  );
}
