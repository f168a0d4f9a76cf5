import type { CreatedKeyResponse, KeySummary } from '../../keys/dto/key.response';
import { html, type SafeHtml } from './html';
import { csrfField, page, when, type PageContext } from './layout';
import { barChart, dailyColumns } from './svg-charts';

function keyCard(context: PageContext, key: KeySummary, index: number, currentKeyId: string | undefined) {
  const usage = key.usage.last30Days;
  const other = usage.requests - usage.previews - usage.gates - usage.deliverability - usage.mcp - usage.fixes;
  const current = key.id === currentKeyId;
  return html`<section class="card" aria-labelledby="key-${index}-title">
<h2 id="key-${index}-title">${key.name} <code>${key.prefix}…</code></h2>
<p class="meta">Created ${when(key.createdAt)} · last used ${when(key.lastUsedAt)}${current ? ' · this session signed in with it' : ''}</p>
${barChart(`key-${index}-kinds`, `Requests of ${key.name} in the last 30 days, per kind`, [
  { label: 'Previews', value: usage.previews },
  { label: 'Gate', value: usage.gates },
  { label: 'Deliverability', value: usage.deliverability },
  { label: 'MCP', value: usage.mcp },
  { label: 'Fixes', value: usage.fixes },
  { label: 'Other', value: other },
])}
${dailyColumns(
  `key-${index}-days`,
  `Requests of ${key.name} per day`,
  key.usage.daily.map((d) => ({ date: d.date, count: d.requests })),
)}
<form method="post" action="/app/keys/${key.id}/revoke" data-confirm="${current ? 'Revoke the key this session signed in with? You will be signed out.' : `Revoke ${key.name}? Programs using it stop working.`}">
${csrfField(context.csrfToken)}<button type="submit" class="danger" aria-label="Revoke ${key.name}">Revoke</button></form>
</section>`;
}

export function keysPage(
  context: PageContext,
  keys: KeySummary[],
  currentKeyId: string | undefined,
  created?: CreatedKeyResponse,
  error?: SafeHtml | string,
): string {
  return page(
    'Keys',
    context,
    html`<h1>API keys</h1>
${
  created &&
  html`<div class="card" role="status"><h2>New key “${created.name}”</h2><p><strong>Copy it now: it is shown only once.</strong></p>
<div class="keybox"><label class="sr-only" for="new-key">New API key</label><input type="text" id="new-key" readonly value="${created.key}"><button type="button" data-copy-target="new-key" data-copy-status="copy-status">Copy</button></div><p id="copy-status" class="meta" role="status"></p></div>`
}
${error}
<section aria-labelledby="create-title" class="card"><h2 id="create-title">Create a key</h2>
<form method="post" action="/app/keys">${csrfField(context.csrfToken)}
<label for="key-name">Name</label><input type="text" id="key-name" name="name" required maxlength="100" placeholder="ci-pipeline">
<div class="actions"><button type="submit" class="primary">Create key</button></div></form></section>
${keys.map((key, i) => keyCard(context, key, i, currentKeyId))}`,
  );
}
