import { buildMimeMessage, quotedPrintable } from './mime-message.builder';

function decodeQuotedPrintable(encoded: string): string {
  const bytes: number[] = [];
  const text = encoded.replace(/=\r\n/g, '');
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '=') {
      bytes.push(parseInt(text.slice(i + 1, i + 3), 16));
      i += 2;
    } else bytes.push(...Buffer.from(text[i], 'utf8'));
  }
  return Buffer.from(bytes).toString('utf8').replace(/\r\n/g, '\n');
}

describe('quotedPrintable', () => {
  it('round-trips UTF-8 text with lines no longer than 76 characters', () => {
    const text = `<p style="color:#333">Grüße, ${'long line '.repeat(30)}=€ 5 </p>\nsecond line\t`;
    const encoded = quotedPrintable(text);
    expect(encoded.split('\r\n').every((line) => line.length <= 76)).toBe(true);
    expect(decodeQuotedPrintable(encoded)).toBe(text);
    // Trailing white space is encoded, so transports cannot strip it.
    expect(encoded.endsWith('=09')).toBe(true);
  });
});

describe('buildMimeMessage', () => {
  const date = new Date('2026-03-01T10:20:30Z');

  it('builds multipart/alternative with the text and HTML parts and complete headers', () => {
    const raw = buildMimeMessage({ html: '<p>Hi</p>', text: 'Hi', subject: 'Your March update', id: 'prv_abc123', date }).toString('utf8');
    const [head] = raw.split('\r\n\r\n');
    expect(head).toContain('From: Mailproof preview <preview@mailproof.invalid>');
    expect(head).toContain('Subject: Your March update');
    expect(head).toContain('Date: Sun, 01 Mar 2026 10:20:30 +0000');
    expect(head).toContain('Message-ID: <prv_abc123@mailproof.invalid>');
    expect(head).toMatch(/Content-Type: multipart\/alternative; boundary="=_mailproof_prvabc123"/);
    expect(raw).toContain('Content-Type: text/plain; charset=utf-8');
    expect(raw).toContain('Content-Type: text/html; charset=utf-8');
    expect(raw.trimEnd().endsWith('--=_mailproof_prvabc123--')).toBe(true);
  });

  it('encodes a non-ASCII subject and leaves out the text part when there is none', () => {
    const raw = buildMimeMessage({ html: '<p>x</p>', text: null, subject: 'Grüße\r\nBcc: evil@x', id: 'p1', date }).toString('utf8');
    expect(raw).toContain(`Subject: =?UTF-8?B?${Buffer.from('Grüße Bcc: evil@x').toString('base64')}?=`);
    expect(raw).not.toContain('\r\nBcc:');
    expect(raw).not.toContain('multipart');
    expect(raw).toContain('Content-Type: text/html; charset=utf-8');
  });
});
