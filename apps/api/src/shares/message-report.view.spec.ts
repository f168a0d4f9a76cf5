import type { MessageReport } from '@mailproof/engine';
import { messageReportSection } from './message-report.view';

const INJECTED = '<img src=x onerror="alert(1)"><script>alert(2)</script>';

/** A bulk message whose header values are markup: a hostile sender writes them. */
function hostileReport(): MessageReport {
  return {
    headers: {
      from: { address: 'news@acme.test', name: `Acme ${INJECTED}`, domain: 'acme.test' },
      replyTo: [{ address: 'reply@acme.test', name: '"><b>bold</b>', domain: 'acme.test' }],
      date: 'Fri, 27 Nov 2026 10:00:00 +0000',
      messageId: '<a"b@acme.test>',
      subject: `March ${INJECTED}`,
      mimeVersion: '1.0',
      returnPath: 'bounce@acme.test',
      listUnsubscribe: { uris: ['https://acme.test/u?a=1&b="2"'], https: 'https://acme.test/u?a=1&b="2"', mailto: null, oneClick: false },
      precedence: 'bulk',
      feedbackId: null,
      findings: [
        { rule: 'from-display-name-domain', severity: 'warning', message: `The display name ${INJECTED} names another domain`, fix: 'Drop the domain.' },
      ],
    },
    parts: {
      html: { path: '1.2', bytes: 2048, charset: 'utf-8', clippedByGmail: false },
      text: { path: '1.1', bytes: 512, similarity: 0.91 },
      attachments: [
        {
          path: '2',
          contentType: 'application/pdf',
          charset: null,
          transferEncoding: 'base64',
          disposition: 'attachment',
          filename: INJECTED,
          contentId: null,
          bytes: 10,
        },
      ],
      inlineImages: [],
      unresolvedCids: ['logo<1>'],
      findings: [],
    },
    authentication: {
      status: 'inconclusive',
      fromDomain: 'acme.test',
      audit: null,
      dmarc: null,
      dkim: [{ domain: 'acme.test', selector: 's1', result: 'temperror', aligned: true, message: 'The key lookup failed.' }],
      spfAligned: null,
      findings: [],
    },
    bulkSender: {
      bulk: true,
      met: false,
      requirements: [
        { id: 'valid-from', providers: ['gmail', 'yahoo'], status: 'pass', reason: 'One valid From address.', fix: null },
        {
          id: 'one-click-unsubscribe',
          providers: ['gmail', 'yahoo'],
          status: 'fail',
          reason: 'List-Unsubscribe has no List-Unsubscribe-Post: List-Unsubscribe=One-Click.',
          fix: 'Add List-Unsubscribe-Post: List-Unsubscribe=One-Click and sign both headers with DKIM.',
        },
        { id: 'spf-and-dkim', providers: ['gmail'], status: 'inconclusive', reason: 'The DNS lookups failed.', fix: null },
        { id: 'tls', providers: ['gmail'], status: 'info', reason: 'Out of scope: a message file cannot show how it is transmitted.', fix: null },
      ],
    },
  };
}

describe('messageReportSection', () => {
  it('is empty for an email that is not a message', () => {
    expect(messageReportSection(null)).toBe('');
    expect(messageReportSection(undefined)).toBe('');
  });

  it('shows every header, part and checklist item as text: markup in header values is escaped, never injected', () => {
    const html = messageReportSection(hostileReport());
    expect(html).not.toContain('<img');
    expect(html).not.toContain('<script');
    expect(html).not.toContain('<b>bold</b>');
    expect(html).not.toContain('a"b@');
    expect(html).toContain('Acme &lt;img src=x onerror=&quot;alert(1)&quot;&gt;&lt;script&gt;alert(2)&lt;/script&gt;');
    expect(html).toContain('March &lt;img');
    expect(html).toContain('&lt;a&quot;b@acme.test&gt;');
    expect(html).toContain('https://acme.test/u?a=1&amp;b=&quot;2&quot;');
    expect(html).toContain('logo&lt;1&gt;');
    expect(html).toContain('The display name &lt;img');
  });

  it('lists the bulk-sender checklist with each status, the reason and the fix of what is not met', () => {
    const html = messageReportSection(hostileReport());
    expect(html).toContain('Judged as bulk mail: not all met.');
    expect(html).toMatch(/data-requirement="one-click-unsubscribe" data-status="fail">.*Not met.*Gmail and Yahoo/s);
    expect(html).toContain('Fix: Add List-Unsubscribe-Post: List-Unsubscribe=One-Click and sign both headers with DKIM.');
    expect(html).toMatch(/data-requirement="spf-and-dkim" data-status="inconclusive">.*Could not be decided/s);
    expect(html).toMatch(/data-requirement="tls" data-status="info">.*Out of scope/s);
    expect(html).toMatch(/data-requirement="valid-from" data-status="pass">.*Met</s);
  });
});
