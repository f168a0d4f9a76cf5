import type { MessageReport } from '@mailproof/engine';
import { formatMessageReport, printable } from './message-report-format';

const ESCAPE = '\u001b[2J\u001b]0;owned\u0007';

function report(): MessageReport {
  return {
    headers: {
      from: { address: 'news@acme.test', name: `Acme${ESCAPE}`, domain: 'acme.test' },
      replyTo: [],
      date: null,
      messageId: '<1@acme.test>',
      subject: `March\r\nBcc: x`,
      mimeVersion: '1.0',
      returnPath: null,
      listUnsubscribe: { uris: ['https://acme.test/u'], https: 'https://acme.test/u', mailto: null, oneClick: false },
      precedence: null,
      feedbackId: null,
      findings: [{ rule: 'date-missing', severity: 'warning', message: 'The message has no Date header.', fix: 'Add a Date header.' }],
    },
    parts: {
      html: { path: '1.2', bytes: 900, charset: 'utf-8', clippedByGmail: false },
      text: null,
      attachments: [],
      inlineImages: [],
      unresolvedCids: [],
      findings: [],
    },
    authentication: {
      status: 'pass',
      fromDomain: 'acme.test',
      audit: { spf: 'pass', dkim: 'pass', dmarc: 'pass', score: 100 },
      dmarc: null,
      dkim: [],
      spfAligned: true,
      findings: [],
    },
    bulkSender: {
      bulk: true,
      met: false,
      requirements: [
        { id: 'valid-from', providers: ['gmail', 'yahoo'], status: 'pass', reason: 'One valid From address.', fix: null },
        { id: 'one-click-unsubscribe', providers: ['gmail', 'yahoo'], status: 'fail', reason: 'No List-Unsubscribe-Post.', fix: 'Add List-Unsubscribe-Post.' },
        { id: 'tls', providers: ['gmail'], status: 'info', reason: 'Out of scope.', fix: null },
      ],
    },
  };
}

describe('formatMessageReport', () => {
  it('prints the headers, parts, authentication, the checklist with the fix of what is not met, and the warnings', () => {
    const text = formatMessageReport(report()).join('\n');
    expect(text).toContain('List-Unsubscribe: https; one-click (RFC 8058): no');
    expect(text).toContain('Parts: HTML part 1.2 (900 bytes), no text/plain alternative, 0 attachments, 0 inline images');
    expect(text).toContain('Authentication of acme.test: pass (SPF pass, DKIM pass, DMARC pass)');
    expect(text).toContain('Gmail/Yahoo bulk-sender requirements (bulk mail): not all met');
    expect(text).toMatch(/NOT MET +one-click-unsubscribe +No List-Unsubscribe-Post\.\n +fix: Add List-Unsubscribe-Post\./);
    expect(text).toMatch(/met +valid-from/);
    expect(text).toMatch(/n\/a +tls/);
    expect(text).toContain('warning  date-missing: The message has no Date header.');
  });

  it("never sends the message's control characters to the terminal: escape sequences and line breaks show as code points", () => {
    const text = formatMessageReport(report()).join('\n');
    expect(text).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f]/);
    expect(text).toContain('Acme\\u001b[2J\\u001b]0;owned\\u0007');
    expect(text).toContain('Subject: March\\u000d\\u000aBcc: x');
    expect(printable('plain text')).toBe('plain text');
  });
});
