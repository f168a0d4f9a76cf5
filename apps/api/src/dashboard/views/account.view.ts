import type { AccountResponse } from '../../account/dto/account.response';
import { html, type SafeHtml } from './html';
import { csrfField, page, when, type PageContext } from './layout';

/** What is stored for the account and for how long (docs/privacy.md, "What is stored, and where"). */
function storedTable(retentionDays: number): SafeHtml {
  const content = retentionDays === 0 ? 'until its checks are done' : `${retentionDays} days`;
  return html`<table><caption>What Mailproof keeps for this account</caption>
<thead><tr><th scope="col">What</th><th scope="col">Kept</th></tr></thead><tbody>
<tr><td>Email sources, rendered markup, screenshots and share links of previews and gate runs</td><td>${content}</td></tr>
<tr><td>Fix runs (the email and the fixed email)</td><td>${retentionDays === 0 ? 'until the fix is answered' : '24 hours'}</td></tr>
<tr><td>Webhook events and their delivery logs</td><td>${content}</td></tr>
<tr><td>Scores, findings, gate verdicts and baselines (a verdict's link and image URLs go with the email)</td><td>until deleted</td></tr>
<tr><td>Monitored domains, DNS audits and drift events</td><td>until deleted</td></tr>
<tr><td>API keys (a hash only) and usage counts</td><td>until revoked or the account is erased</td></tr>
</tbody></table>`;
}

/** How the stored emails are protected (docs/privacy.md, "Encryption at rest"), in the words an account needs. */
function encryptionSection(): SafeHtml {
  return html`<section class="card" aria-labelledby="encryption-title"><h2 id="encryption-title">Encryption at rest</h2>
<p>Every email stored for this account is encrypted before it reaches the database (AES-256-GCM): the sources and their files, the rendered markup and reports of previews and gate runs, the screenshots, the link and image addresses that gate verdicts, link checks and webhook events name, and the emails of fix runs. A database copy or backup holds only ciphertext.</p>
<p>This account has a data key of its own; it is stored wrapped by the service's master key and used only for this account's rows. Scores, statuses, titles and dates stay readable, so lists can be sorted and searched.</p>
<p>Erasing the account deletes its data key with its rows: whatever a backup still holds of this account can no longer be decrypted.</p></section>`;
}

/** The account page: retention (editable), what is stored, the export, and erasure behind a typed confirmation. */
export function accountPage(context: PageContext, account: AccountResponse, error?: SafeHtml | string): string {
  return page(
    'Account',
    context,
    html`<h1>Account</h1>
<p class="meta">${account.name} · ${account.plan === 'pro' ? 'Pro' : 'Free'} plan · created ${when(account.createdAt)}</p>
${error}
<section class="card" aria-labelledby="retention-title"><h2 id="retention-title">Retention</h2>
<p>Email content is kept <strong id="retention-days">${account.retentionDays}</strong> days, then removed within the hour; scores and findings stay. 0 keeps no email once its checks are done.</p>
<form method="post" action="/app/account">${csrfField(context.csrfToken)}
<label for="retention">Days to keep email content (0-${account.maxRetentionDays})</label>
<input type="number" id="retention" name="retentionDays" required min="0" max="${account.maxRetentionDays}" step="1" value="${account.retentionDays}">
<div class="actions"><button type="submit" class="primary">Save</button></div></form>
${storedTable(account.retentionDays)}</section>
${encryptionSection()}
<section class="card" aria-labelledby="export-title"><h2 id="export-title">Export</h2>
<p>Everything stored for this account, as one JSON file: previews with their emails, gate runs and baselines, fix runs, domains and audits, webhooks and deliveries, keys (never a secret), usage.</p>
<p><a href="/app/account/export" download>Download the export</a></p></section>
<section class="card" aria-labelledby="erase-title"><h2 id="erase-title">Erase the account</h2>
<p>Deletes every preview, gate run, domain, webhook, key and setting of this account at once; its keys stop working and you are signed out. Nothing can bring it back; only a record of how many rows were erased is kept.</p>
<form method="post" action="/app/account/erase">${csrfField(context.csrfToken)}
<label for="erase-confirm">Type the account's name, <strong>${account.name}</strong>, to confirm</label>
<input type="text" id="erase-confirm" name="confirm" required autocomplete="off">
<div class="actions"><button type="submit" class="danger">Erase this account</button></div></form></section>`,
  );
}
