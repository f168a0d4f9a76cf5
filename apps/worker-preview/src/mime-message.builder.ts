/**
 * The preview as an email message for SpamAssassin: multipart/alternative with the generated text/plain
 * part and the HTML, quoted-printable (what senders send), and well-formed synthetic headers so that
 * header rules (missing Date, Message-ID) do not drown the content rules the preview is about.
 */
export interface PreviewMessage {
  html: string;
  /** The plain-text report's text; null leaves the message HTML-only. */
  text: string | null;
  /** The subject stand-in (the HTML's title); null gives an empty subject. */
  subject: string | null;
  /** Unique per preview; becomes the Message-ID's local part. */
  id: string;
  date: Date;
}

const SENDER = 'Mailproof preview <preview@mailproof.invalid>';
const RECIPIENT = '<recipient@mailproof.invalid>';
const LINE_LIMIT = 76;

/** RFC 2045 quoted-printable of the UTF-8 bytes, CRLF line ends, soft breaks before 76 characters. */
export function quotedPrintable(text: string): string {
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  const out: string[] = [];
  for (const line of lines) {
    const bytes = Buffer.from(line, 'utf8');
    let current = '';
    for (let i = 0; i < bytes.length; i++) {
      const byte = bytes[i];
      const last = i === bytes.length - 1;
      const literal = (byte >= 33 && byte <= 126 && byte !== 61) || ((byte === 32 || byte === 9) && !last);
      const piece = literal ? String.fromCharCode(byte) : `=${byte.toString(16).toUpperCase().padStart(2, '0')}`;
      if (current.length + piece.length > LINE_LIMIT - 1) {
        out.push(`${current}=`);
        current = '';
      }
      current += piece;
    }
    out.push(current);
  }
  return out.join('\r\n');
}

/** An RFC 2047 encoded-word when the subject is not plain ASCII. */
function encodeSubject(subject: string): string {
  const clean = subject.replace(/[\r\n]+/g, ' ');
  return /^[\x20-\x7e]*$/.test(clean) ? clean : `=?UTF-8?B?${Buffer.from(clean, 'utf8').toString('base64')}?=`;
}

/** RFC 5322 date-time in UTC: "Sat, 22 Nov 2025 00:57:36 +0000". */
function rfc5322Date(date: Date): string {
  return date.toUTCString().replace(/GMT$/, '+0000');
}

export function buildMimeMessage(message: PreviewMessage): Buffer {
  const boundary = `=_mailproof_${message.id.replace(/[^A-Za-z0-9]/g, '')}`;
  const headers = [
    `From: ${SENDER}`,
    `To: ${RECIPIENT}`,
    `Subject: ${encodeSubject(message.subject ?? '')}`,
    `Date: ${rfc5322Date(message.date)}`,
    `Message-ID: <${message.id.replace(/[^A-Za-z0-9._-]/g, '')}@mailproof.invalid>`,
    'MIME-Version: 1.0',
  ];
  const htmlPart = ['Content-Type: text/html; charset=utf-8', 'Content-Transfer-Encoding: quoted-printable', '', quotedPrintable(message.html)];
  if (message.text === null) return Buffer.from([...headers, ...htmlPart, ''].join('\r\n'), 'utf8');
  const textPart = ['Content-Type: text/plain; charset=utf-8', 'Content-Transfer-Encoding: quoted-printable', '', quotedPrintable(message.text)];
  const body = [
    ...headers,
    `Content-Type: multipart/alternative; boundary="${boundary}"`,
    '',
    `--${boundary}`,
    ...textPart,
    `--${boundary}`,
    ...htmlPart,
    `--${boundary}--`,
    '',
  ];
  return Buffer.from(body.join('\r\n'), 'utf8');
}
