/**
 * Messages written for the project's tests (engine specs, the worker's integration test and the bench):
 * each is built from parts so a test changes one header or part and keeps the rest realistic.
 */

export interface FixturePart {
  headers: string[];
  body: string;
}

const base64 = (bytes: Uint8Array | string): string => Buffer.from(typeof bytes === 'string' ? Buffer.from(bytes, 'utf8') : bytes).toString('base64');

/** Base64 in 76-character lines, as MIME writes it. */
export function base64Lines(bytes: Uint8Array | string): string {
  return (base64(bytes).match(/.{1,76}/g) ?? []).join('\r\n');
}

export function multipart(subtype: string, boundary: string, parts: FixturePart[], extraHeaders: string[] = []): FixturePart {
  const body = parts.map((part) => `--${boundary}\r\n${part.headers.join('\r\n')}\r\n\r\n${part.body}\r\n`).join('') + `--${boundary}--\r\n`;
  return {
    headers: [`Content-Type: multipart/${subtype}; boundary="${boundary}"`, ...extraHeaders],
    body: `This is a multi-part message in MIME format.\r\n\r\n${body}`,
  };
}

export const DEFAULT_HEADERS = [
  'From: "Acme News" <news@acme.example>',
  'To: reader@example.net',
  'Subject: Your October update',
  'Date: Tue, 07 Oct 2025 09:30:00 +0000',
  'Message-ID: <20251007093000.1234@mail.acme.example>',
  'MIME-Version: 1.0',
];

export function message(root: FixturePart, headers: string[] = DEFAULT_HEADERS): string {
  return `${[...headers, ...root.headers].join('\r\n')}\r\n\r\n${root.body}`;
}

export const NEWSLETTER_HTML =
  '<!doctype html><html><head><meta charset="utf-8"><title>October update</title></head><body>' +
  '<table role="presentation" width="100%"><tr><td><h1>October update</h1><p>Three things changed this month: faster exports, ' +
  'a new dashboard and lower prices for teams.</p><p><a href="https://acme.example/october">Read the whole update</a></p></td></tr></table></body></html>';

export const NEWSLETTER_TEXT =
  'October update\r\n\r\nThree things changed this month: faster exports, a new dashboard and lower prices for teams.\r\n\r\n' +
  'Read the whole update: https://acme.example/october\r\n';

export function htmlPart(html: string, encoding: 'base64' | 'quoted-printable' | '7bit' = 'base64', charset = 'utf-8'): FixturePart {
  const body = encoding === 'base64' ? base64Lines(html) : encoding === 'quoted-printable' ? quotedPrintable(html) : html;
  return { headers: [`Content-Type: text/html; charset=${charset}`, `Content-Transfer-Encoding: ${encoding}`], body };
}

export function textPart(text: string, encoding: 'base64' | 'quoted-printable' | '7bit' = 'quoted-printable', charset = 'utf-8'): FixturePart {
  const body = encoding === 'base64' ? base64Lines(text) : encoding === 'quoted-printable' ? quotedPrintable(text) : text;
  return { headers: [`Content-Type: text/plain; charset=${charset}`, `Content-Transfer-Encoding: ${encoding}`], body };
}

/** Quoted-printable of UTF-8 text (RFC 2045 6.7), soft line breaks at 76. */
export function quotedPrintable(text: string): string {
  return quotedPrintableBytes(Buffer.from(text, 'utf8'));
}

export function quotedPrintableBytes(bytes: Uint8Array): string {
  const lines: string[] = [];
  let line = '';
  for (let i = 0; i < bytes.length; i++) {
    const byte = bytes[i];
    if (byte === 0x0d && bytes[i + 1] === 0x0a) {
      lines.push(line);
      line = '';
      i++;
      continue;
    }
    const printable = (byte >= 33 && byte <= 126 && byte !== 61) || byte === 32;
    const token = printable ? String.fromCharCode(byte) : `=${byte.toString(16).toUpperCase().padStart(2, '0')}`;
    if (line.length + token.length > 75) {
      lines.push(`${line}=`);
      line = '';
    }
    line += token;
  }
  lines.push(line);
  return lines.join('\r\n');
}

/** The usual newsletter: multipart/alternative with a quoted-printable text part and a base64 HTML part. */
export function alternativeMessage(headers: string[] = DEFAULT_HEADERS, html = NEWSLETTER_HTML, text = NEWSLETTER_TEXT): string {
  return message(multipart('alternative', 'alt-7d1e', [textPart(text), htmlPart(html)]), headers);
}

/** A 1x1 transparent PNG. */
export const PIXEL_PNG = Uint8Array.from([
  0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x48, 0x44, 0x52, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x08, 0x06,
  0x00, 0x00, 0x00, 0x1f, 0x15, 0xc4, 0x89, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x44, 0x41, 0x54, 0x78, 0x9c, 0x63, 0x00, 0x01, 0x00, 0x00, 0x05, 0x00, 0x01, 0x0d,
  0x0a, 0x2d, 0xb4, 0x00, 0x00, 0x00, 0x00, 0x49, 0x45, 0x4e, 0x44, 0xae, 0x42, 0x60, 0x82,
]);

/** multipart/mixed > related (HTML + a cid logo) + a PDF attachment; the HTML also names a cid no part answers. */
export function relatedMessage(headers: string[] = DEFAULT_HEADERS): string {
  const html = NEWSLETTER_HTML.replace('<h1>', '<img src="cid:logo@acme.example" alt="Acme" width="120"><img src="cid:missing@acme.example" alt=""><h1>');
  const image: FixturePart = {
    headers: [
      'Content-Type: image/png; name="logo.png"',
      'Content-Transfer-Encoding: base64',
      'Content-ID: <logo@acme.example>',
      'Content-Disposition: inline; filename="logo.png"',
    ],
    body: base64Lines(PIXEL_PNG),
  };
  const unused: FixturePart = {
    headers: ['Content-Type: image/png; name="spare.png"', 'Content-Transfer-Encoding: base64', 'Content-ID: <spare@acme.example>'],
    body: base64Lines(PIXEL_PNG),
  };
  const pdf: FixturePart = {
    headers: [
      'Content-Type: application/pdf; name="prices.pdf"',
      'Content-Transfer-Encoding: base64',
      'Content-Disposition: attachment; filename="prices.pdf"',
    ],
    body: base64Lines('%PDF-1.4\n% a small stand-in\n'),
  };
  const related = multipart('related', 'rel-31aa', [htmlPart(html, 'quoted-printable'), image, unused], []);
  return message(multipart('mixed', 'mix-90fe', [related, pdf]), headers);
}
