import { WEBHOOK_EVENT_TYPES, type WebhookEventType } from '@mailproof/contracts';
import type { CreatedWebhookResponse, WebhookDeliveryResponse, WebhookEndpointResponse } from '../../webhooks/dto/webhook.response';
import { html, raw, type SafeHtml } from './html';
import { csrfField, page, when, type PageContext } from './layout';

/** What each event means, for the form's checkboxes (docs/webhooks.md, Events). */
const EVENT_DESCRIPTIONS: Record<WebhookEventType, string> = {
  'domain.drift': 'a monitored domain’s DNS records changed',
  'domain.status_changed': 'a monitored domain became healthy, degraded or failing',
  'gate.failed': 'a gate run failed',
  'gate.passed': 'a gate run passed',
};

/** Checked on a fresh form: everything but gate.passed, which the issue sends "on request". */
export const DEFAULT_WEBHOOK_EVENTS = ['domain.drift', 'domain.status_changed', 'gate.failed'];

export interface WebhookForm {
  url: string;
  events: string[];
}

function endpointStatus(endpoint: WebhookEndpointResponse): SafeHtml {
  return endpoint.status === 'enabled' ? html`<span class="pill pill-good">enabled</span>` : html`<span class="pill pill-bad">disabled</span>`;
}

function deliveryStatus(status: string): SafeHtml {
  const tone = status === 'delivered' ? 'pill-good' : status === 'pending' ? 'pill-muted' : status === 'failed' ? 'pill-bad' : 'pill-warn';
  return html`<span class="pill ${tone}">${status}</span>`;
}

function disabledNote(endpoint: WebhookEndpointResponse): SafeHtml | '' {
  if (endpoint.status !== 'disabled') return '';
  return html`<p class="error">Disabled ${when(endpoint.disabledAt)}: ${endpoint.disabledReason ?? 'no reason recorded'}</p>`;
}

export function webhooksPage(
  context: PageContext,
  endpoints: WebhookEndpointResponse[],
  limit: number,
  form: WebhookForm,
  created?: CreatedWebhookResponse,
  error?: SafeHtml | string,
): string {
  return page(
    'Webhooks',
    context,
    html`<h1>Webhooks</h1>
<p>Mailproof POSTs each event you pick to your URL, signed as the Standard Webhooks specification says, and retries for about a day. An endpoint that keeps failing is disabled. ${endpoints.length} of ${limit} on your plan.</p>
${
  created &&
  html`<div class="card" role="status"><h2>Signing secret of the new endpoint</h2><p class="title">${created.url}</p><p><strong>Copy it now: it is shown only once.</strong> Your receiver verifies each delivery’s <code>webhook-signature</code> with it.</p>
<div class="keybox"><label class="sr-only" for="new-secret">Signing secret</label><input type="text" id="new-secret" readonly value="${created.secret}"><button type="button" data-copy-target="new-secret" data-copy-status="copy-status">Copy</button></div><p id="copy-status" class="meta" role="status"></p>
<p><a href="/app/webhooks/${created.id}">Open the endpoint to send a test event</a></p></div>`
}
${error}
${
  endpoints.length === 0
    ? html`<p>No webhook endpoints yet.</p>`
    : html`<div class="card table-scroll" tabindex="0" role="region" aria-label="Webhook endpoints (scrolls sideways on small screens)"><table><caption class="sr-only">Webhook endpoints</caption>
<thead><tr><th scope="col">URL</th><th scope="col" class="hide-narrow">Events</th><th scope="col">Status</th></tr></thead>
<tbody>${endpoints.map(
        (e) => html`<tr><th scope="row" class="title"><a href="/app/webhooks/${e.id}">${e.url}</a></th><td class="hide-narrow">${e.events.join(', ')}</td>
<td>${endpointStatus(e)}${e.status === 'disabled' ? html`<br><span class="meta">${e.disabledReason ?? ''}</span>` : ''}</td></tr>`,
      )}</tbody></table></div>`
}
<section aria-labelledby="add-title" class="card">
<h2 id="add-title">Add an endpoint</h2>
<form method="post" action="/app/webhooks">
${csrfField(context.csrfToken)}
<label for="webhook-url">URL</label>
<input type="text" id="webhook-url" name="url" required maxlength="2000" inputmode="url" value="${form.url}" placeholder="https://hooks.example.com/mailproof" autocomplete="off" spellcheck="false">
<fieldset class="checks"><legend>Events</legend>${WEBHOOK_EVENT_TYPES.map(
      (type) =>
        html`<label><input type="checkbox" name="events" value="${type}"${form.events.includes(type) ? raw(' checked') : ''}><span><code>${type}</code>: ${EVENT_DESCRIPTIONS[type]}</span></label>`,
    )}</fieldset>
<div class="actions"><button type="submit" class="primary">Add endpoint</button></div>
</form>
</section>`,
  );
}

function deliveryRow(delivery: WebhookDeliveryResponse): SafeHtml {
  const answer = delivery.lastStatus !== null ? `HTTP ${delivery.lastStatus}` : '';
  // The time sits under the event and the attempts under the status, so the table fits 390 px.
  return html`<tr><td>${delivery.eventType}<br><span class="meta">${when(delivery.lastAttemptAt ?? delivery.createdAt)}</span></td><td>${deliveryStatus(delivery.status)}<br><span class="meta">${delivery.attempts === 1 ? '1 attempt' : `${delivery.attempts} attempts`}</span></td>
<td class="title">${answer}${answer && delivery.lastError ? ' · ' : ''}${delivery.lastError ?? ''}${!answer && !delivery.lastError ? '—' : ''}</td></tr>`;
}

export function webhookPage(context: PageContext, endpoint: WebhookEndpointResponse, deliveries: WebhookDeliveryResponse[], error?: SafeHtml | string): string {
  return page(
    'Webhook endpoint',
    context,
    html`<h1>Webhook endpoint</h1>
<p class="title"><code>${endpoint.url}</code></p>
<p>${endpointStatus(endpoint)} · ${endpoint.events.join(', ')} · created ${when(endpoint.createdAt)}${endpoint.consecutiveFailures > 0 ? ` · ${endpoint.consecutiveFailures} failed deliveries in a row` : ''}</p>
${disabledNote(endpoint)}
${error}
<div class="actions">
${
  endpoint.status === 'enabled'
    ? html`<form method="post" action="/app/webhooks/${endpoint.id}/test" class="inline">${csrfField(context.csrfToken)}<button type="submit" class="primary">Send test event</button></form>`
    : html`<form method="post" action="/app/webhooks/${endpoint.id}/enable" class="inline">${csrfField(context.csrfToken)}<button type="submit" class="primary">Enable</button></form>`
}
<form method="post" action="/app/webhooks/${endpoint.id}/delete" class="inline" data-confirm="Delete the endpoint ${endpoint.url}? Its delivery log goes with it.">${csrfField(context.csrfToken)}<button type="submit" class="danger">Delete</button></form>
</div>
<section aria-labelledby="deliveries-title"><h2 id="deliveries-title">Recent deliveries</h2>
${
  deliveries.length === 0
    ? html`<p>No deliveries yet.</p>`
    : html`<div class="card table-scroll" tabindex="0" role="region" aria-label="Recent deliveries (scrolls sideways on small screens)"><table><caption class="sr-only">Recent deliveries, newest first</caption>
<thead><tr><th scope="col">Event and time</th><th scope="col">Status</th><th scope="col">Last answer</th></tr></thead>
<tbody>${deliveries.map(deliveryRow)}</tbody></table></div>`
}
</section>
<p><a href="/app/webhooks">All webhook endpoints</a></p>`,
  );
}
