import type { BulkSenderRequirement, MessageFinding, MessageReport } from '@mailproof/engine';
import { plural } from './report-format';

/** Human text of a whole message's report (`analyze` of an .eml); `--json` prints the report as it is. */

const STATUS_WORDS: Record<BulkSenderRequirement['status'], string> = {
  pass: 'met',
  warn: 'met (caveat)',
  fail: 'NOT MET',
  info: 'n/a',
  inconclusive: 'undecided',
};

/** Header values come from the message: control characters (a terminal's escape sequences) are shown as code points, never sent to the terminal. */
export function printable(value: string): string {
  return value.replace(
    /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g,
    (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

function headerLines(headers: MessageReport['headers']): string[] {
  const from = headers.from ? `${headers.from.name ? `${printable(headers.from.name)} ` : ''}<${printable(headers.from.address)}>` : '(none)';
  const lines = [`From: ${from}`, `Subject: ${headers.subject === null ? '(none)' : printable(headers.subject)}`];
  lines.push(
    `Date: ${headers.date === null ? '(none)' : printable(headers.date)}; Message-ID: ${headers.messageId === null ? '(none)' : printable(headers.messageId)}`,
  );
  const unsubscribe = headers.listUnsubscribe;
  if (unsubscribe) {
    const uris = [unsubscribe.https ? 'https' : null, unsubscribe.mailto ? 'mailto' : null].filter(Boolean).join(' and ') || 'no usable URI';
    lines.push(`List-Unsubscribe: ${uris}; one-click (RFC 8058): ${unsubscribe.oneClick ? 'yes' : 'no'}`);
  } else {
    lines.push('List-Unsubscribe: none');
  }
  return lines;
}

function partsLine(parts: MessageReport['parts']): string {
  const html = parts.html ? `HTML part ${parts.html.path} (${parts.html.bytes} bytes${parts.html.clippedByGmail ? ', clipped by Gmail' : ''})` : 'no HTML part';
  const text = parts.text ? `text part ${parts.text.path} (similarity ${parts.text.similarity.toFixed(2)})` : 'no text/plain alternative';
  const unresolved = parts.unresolvedCids.length > 0 ? `, ${plural(parts.unresolvedCids.length, 'unresolved cid: reference')}` : '';
  return `Parts: ${html}, ${text}, ${plural(parts.attachments.length, 'attachment')}, ${plural(parts.inlineImages.length, 'inline image')}${unresolved}`;
}

function authenticationLine(authentication: MessageReport['authentication']): string {
  const audit = authentication.audit ? ` (SPF ${authentication.audit.spf}, DKIM ${authentication.audit.dkim}, DMARC ${authentication.audit.dmarc})` : '';
  const dkim = authentication.dkim.map((signature) => `DKIM d=${printable(signature.domain)} ${signature.result}${signature.aligned ? ', aligned' : ''}`);
  const domain = authentication.fromDomain ? ` of ${printable(authentication.fromDomain)}` : '';
  return `Authentication${domain}: ${authentication.status}${audit}${dkim.length > 0 ? `; ${dkim.join('; ')}` : ''}`;
}

function findingLines(findings: readonly MessageFinding[], indent: string): string[] {
  return findings
    .filter((finding) => finding.severity !== 'info')
    .flatMap((finding) => [
      `${indent}${finding.severity.padEnd(7)}  ${finding.rule}: ${printable(finding.message)}`,
      ...(finding.fix ? [`${indent}         fix: ${finding.fix}`] : []),
    ]);
}

/** The report in a few lines: headers, parts, authentication, the bulk-sender checklist (each item's status, reason and fix), then the errors and warnings. */
export function formatMessageReport(report: MessageReport, indent = '  '): string[] {
  const { bulkSender } = report;
  const lines = [...headerLines(report.headers), partsLine(report.parts), authenticationLine(report.authentication)].map((line) => `${indent}${line}`);
  const met = bulkSender.met === null ? 'undecided' : bulkSender.met ? 'all met' : 'not all met';
  lines.push(`${indent}Gmail/Yahoo bulk-sender requirements (${bulkSender.bulk ? 'bulk mail' : 'not bulk mail'}): ${met}`);
  const width = Math.max(0, ...bulkSender.requirements.map((requirement) => requirement.id.length));
  for (const requirement of bulkSender.requirements) {
    lines.push(`${indent}  ${STATUS_WORDS[requirement.status].padEnd(12)} ${requirement.id.padEnd(width)}  ${printable(requirement.reason)}`);
    if (requirement.fix && requirement.status !== 'pass') lines.push(`${indent}  ${' '.repeat(12 + width + 3)}fix: ${requirement.fix}`);
  }
  const findings = [...report.headers.findings, ...report.parts.findings, ...report.authentication.findings];
  const problems = findingLines(findings, `${indent}  `);
  if (problems.length > 0) lines.push(`${indent}Message findings:`, ...problems);
  return lines;
}
