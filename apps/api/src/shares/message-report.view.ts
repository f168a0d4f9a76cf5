import type { BulkSenderRequirement, MessageAddress, MessageFinding, MessageReport } from '@mailproof/engine';
import { escapeHtml as e } from './html-escape';

/**
 * A whole message's report (format eml) on the share page and the dashboard's preview page: the headers that
 * matter to inboxes, the MIME parts, authentication, and the Gmail/Yahoo bulk-sender checklist with each
 * item's status, reason and fix. Every value from the message goes through `escapeHtml`: header values are
 * the sender's text, and a display name or subject written as markup must show as text.
 */

const STATUS_TEXT: Record<BulkSenderRequirement['status'], { label: string; css: string }> = {
  pass: { label: 'Met', css: 'score-good' },
  warn: { label: 'Met, with a caveat', css: 'score-fair' },
  fail: { label: 'Not met', css: 'score-poor' },
  info: { label: 'Out of scope', css: 'meta' },
  inconclusive: { label: 'Could not be decided', css: 'score-fair' },
};

const PROVIDER_NAMES: Record<string, string> = { gmail: 'Gmail', yahoo: 'Yahoo' };

function address(value: MessageAddress | null): string {
  if (!value) return '<em>none</em>';
  return `${value.name ? `${e(value.name)} ` : ''}&lt;${e(value.address)}&gt;`;
}

function optional(value: string | null): string {
  return value === null ? '<em>none</em>' : e(value);
}

function headersTable(headers: MessageReport['headers']): string {
  const unsubscribe = headers.listUnsubscribe;
  const unsubscribeText = unsubscribe
    ? `${unsubscribe.uris.map((uri) => `<code>${e(uri)}</code>`).join(', ') || '<em>no URI</em>'}; one-click (RFC 8058): ${unsubscribe.oneClick ? 'yes' : 'no'}`
    : '<em>none</em>';
  const rows: Array<[string, string]> = [
    ['From', address(headers.from)],
    ['Reply-To', headers.replyTo.length === 0 ? '<em>none</em>' : headers.replyTo.map(address).join(', ')],
    ['Subject', optional(headers.subject)],
    ['Date', optional(headers.date)],
    ['Message-ID', optional(headers.messageId)],
    ['MIME-Version', optional(headers.mimeVersion)],
    ['Return-Path', optional(headers.returnPath)],
    ['List-Unsubscribe', unsubscribeText],
  ];
  if (headers.precedence !== null) rows.push(['Precedence', e(headers.precedence)]);
  if (headers.feedbackId !== null) rows.push(['Feedback-ID', e(headers.feedbackId)]);
  return `<table><caption class="meta">Headers</caption><tbody>${rows.map(([name, value]) => `<tr><th scope="row">${name}</th><td>${value}</td></tr>`).join('')}</tbody></table>`;
}

function partsList(parts: MessageReport['parts']): string {
  const items = [
    parts.html
      ? `<li>HTML part ${e(parts.html.path)}: ${parts.html.bytes} bytes${parts.html.charset ? `, ${e(parts.html.charset)}` : ''}${parts.html.clippedByGmail ? ', <strong>clipped by Gmail</strong>' : ''}</li>`
      : '<li>No HTML part.</li>',
    parts.text
      ? `<li>Text part ${e(parts.text.path)}: ${parts.text.bytes} bytes, ${Math.round(parts.text.similarity * 100)}% like the HTML part's text</li>`
      : '<li>No text/plain alternative.</li>',
    `<li>${parts.attachments.length} attachment${parts.attachments.length === 1 ? '' : 's'}${parts.attachments.length > 0 ? `: ${parts.attachments.map((part) => e(part.filename ?? part.contentType)).join(', ')}` : ''}</li>`,
    `<li>${parts.inlineImages.length} inline image${parts.inlineImages.length === 1 ? '' : 's'}${parts.unresolvedCids.length > 0 ? `; cid: references no part answers: ${parts.unresolvedCids.map((cid) => `<code>${e(cid)}</code>`).join(', ')}` : ''}</li>`,
  ];
  return `<ul>${items.join('')}</ul>`;
}

function authenticationList(authentication: MessageReport['authentication']): string {
  const items: string[] = [`<li>Status: ${e(authentication.status)}${authentication.fromDomain ? ` for ${e(authentication.fromDomain)}` : ''}</li>`];
  if (authentication.audit) {
    items.push(`<li>SPF ${e(authentication.audit.spf)}, DKIM ${e(authentication.audit.dkim)}, DMARC ${e(authentication.audit.dmarc)}</li>`);
  }
  if (authentication.dmarc) {
    items.push(`<li>DMARC policy ${e(authentication.dmarc.policy)}, alignment DKIM ${e(authentication.dmarc.adkim)}, SPF ${e(authentication.dmarc.aspf)}</li>`);
  }
  for (const signature of authentication.dkim) {
    items.push(
      `<li>DKIM signature d=${e(signature.domain)} s=${e(signature.selector)}: ${e(signature.result)}${signature.aligned ? ', aligned' : ', not aligned'}. ${e(signature.message)}</li>`,
    );
  }
  if (authentication.spfAligned !== null) items.push(`<li>Return-Path domain ${authentication.spfAligned ? 'aligned' : 'not aligned'} with From</li>`);
  return `<ul>${items.join('')}</ul>`;
}

function requirementItem(requirement: BulkSenderRequirement): string {
  const status = STATUS_TEXT[requirement.status];
  const providers = requirement.providers.map((provider) => PROVIDER_NAMES[provider] ?? provider).join(' and ');
  const fix = requirement.fix && requirement.status !== 'pass' ? `<p class="meta">Fix: ${e(requirement.fix)}</p>` : '';
  return `<li class="finding" data-requirement="${e(requirement.id)}" data-status="${e(requirement.status)}"><p class="finding-head"><strong>${e(requirement.id)}</strong> <span class="${status.css}">${status.label}</span> <span class="count">${e(providers)}</span></p>
<p>${e(requirement.reason)}</p>${fix}</li>`;
}

function findingsList(findings: readonly MessageFinding[]): string {
  if (findings.length === 0) return '';
  const items = findings.map(
    (finding) =>
      `<li><span class="sev-${finding.severity}">${e(finding.severity)}</span> <code>${e(finding.rule)}</code>: ${e(finding.message)}${finding.fix ? ` <span class="meta">Fix: ${e(finding.fix)}</span>` : ''}</li>`,
  );
  return `<h3>Message findings</h3><ul>${items.join('')}</ul>`;
}

/** The section; empty for an email that is not a message. */
export function messageReportSection(report: MessageReport | null | undefined): string {
  if (!report) return '';
  const { bulkSender } = report;
  const verdict = bulkSender.met === null ? 'some could not be decided' : bulkSender.met ? 'all met' : 'not all met';
  const findings = [...report.headers.findings, ...report.parts.findings, ...report.authentication.findings];
  return `<section aria-labelledby="message-title" class="message-report">
<h2 id="message-title">The message</h2>
<div class="card">
<div class="table-scroll" tabindex="0" role="region" aria-label="Message headers">${headersTable(report.headers)}</div>
<h3>Parts</h3>${partsList(report.parts)}
<h3>Authentication</h3>${authenticationList(report.authentication)}
<h3>Gmail and Yahoo bulk-sender requirements</h3>
<p class="meta">${bulkSender.bulk ? 'Judged as bulk mail' : 'Not judged as bulk mail (no List-Unsubscribe header)'}: ${verdict}.</p>
<ul class="finding-list">${bulkSender.requirements.map(requirementItem).join('\n')}</ul>
${findingsList(findings)}
</div>
</section>`;
}
