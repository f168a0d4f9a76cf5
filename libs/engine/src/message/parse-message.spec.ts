import { CompileError } from '../compile/compile-error';
import { MESSAGE_LIMITS } from '../limits';
import { parseMessage } from './parse-message';
import {
  DEFAULT_HEADERS,
  NEWSLETTER_HTML,
  NEWSLETTER_TEXT,
  PIXEL_PNG,
  alternativeMessage,
  base64Lines,
  htmlPart,
  message,
  multipart,
  quotedPrintableBytes,
  relatedMessage,
  textPart,
} from './testing/message-fixtures';

async function refusal(raw: string): Promise<CompileError> {
  const error = await parseMessage(raw).then(
    () => null,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(CompileError);
  return error as CompileError;
}

describe('parseMessage', () => {
  it('decodes a multipart/alternative message: base64 HTML, quoted-printable text, paths and charsets', async () => {
    const parsed = await parseMessage(alternativeMessage());
    expect(parsed.html).toEqual({ path: '2', charset: 'utf-8', content: NEWSLETTER_HTML, bytes: NEWSLETTER_HTML.length });
    expect(parsed.text?.path).toBe('1');
    expect(parsed.text?.content.replace(/\r?\n/g, '\n').trimEnd()).toBe(NEWSLETTER_TEXT.replace(/\r\n/g, '\n').trimEnd());
    expect(parsed.subject).toBe('Your October update');
    expect(parsed.headers.map((field) => field.name)).toEqual(['from', 'to', 'subject', 'date', 'message-id', 'mime-version', 'content-type']);
    expect(parsed.structure).toEqual([
      { path: '', contentType: 'multipart/alternative' },
      { path: '1', contentType: 'text/plain' },
      { path: '2', contentType: 'text/html' },
    ]);
    expect(parsed.resources).toEqual([]);
  });

  it('reads multipart/related: cid resources with their paths and sizes, attachments apart', async () => {
    const parsed = await parseMessage(relatedMessage());
    expect(parsed.html.path).toBe('1.1');
    expect(parsed.html.content).toContain('<img src="cid:logo@acme.example"');
    expect(
      parsed.resources.map(({ path, contentType, contentId, related, disposition, filename }) => ({
        path,
        contentType,
        contentId,
        related,
        disposition,
        filename,
      })),
    ).toEqual([
      { path: '1.2', contentType: 'image/png', contentId: 'logo@acme.example', related: true, disposition: 'inline', filename: 'logo.png' },
      { path: '1.3', contentType: 'image/png', contentId: 'spare@acme.example', related: true, disposition: null, filename: 'spare.png' },
      { path: '2', contentType: 'application/pdf', contentId: null, related: false, disposition: 'attachment', filename: 'prices.pdf' },
    ]);
    expect(parsed.resources[0].bytes).toBe(PIXEL_PNG.length);
  });

  it.each([
    ['iso-8859-1', 'quoted-printable', Uint8Array.from([0x63, 0x61, 0x66, 0xe9]), 'café'],
    ['windows-1252', 'quoted-printable', Uint8Array.from([0x80, 0x20, 0x35, 0x20, 0x96, 0x20, 0x93, 0x6f, 0x6b, 0x94]), '€ 5 – “ok”'],
    ['iso-2022-jp', 'base64', Uint8Array.from([0x1b, 0x24, 0x42, 0x46, 0x7c, 0x4b, 0x5c, 0x1b, 0x28, 0x42]), '日本'],
    ['shift_jis', 'base64', Uint8Array.from([0x93, 0xfa, 0x96, 0x7b]), '日本'],
  ])('converts a %s HTML part (%s) to text', async (charset, encoding, bytes, expected) => {
    const html = Uint8Array.from([...Buffer.from('<p>'), ...bytes, ...Buffer.from('</p>')]);
    const body = encoding === 'base64' ? base64Lines(html) : quotedPrintableBytes(html);
    const part = { headers: [`Content-Type: text/html; charset="${charset}"`, `Content-Transfer-Encoding: ${encoding}`], body };
    const parsed = await parseMessage(message(part));
    // A single-part body ends with the line break that ends its last line.
    expect(parsed.html.content.trimEnd()).toBe(`<p>${expected}</p>`);
    expect(parsed.html.charset).toBe(charset);
    expect(parsed.html.path).toBe('1');
  });

  it('decodes an RFC 2047 subject and skips an mbox "From " line', async () => {
    const headers = [
      'From sender@acme.example Tue Oct  7 09:30:00 2025',
      ...DEFAULT_HEADERS.filter((h) => !h.startsWith('Subject')),
      'Subject: =?UTF-8?B?w4l0w6kgMjAyNQ==?=',
    ];
    const parsed = await parseMessage(message(htmlPart(NEWSLETTER_HTML), headers));
    expect(parsed.subject).toBe('Été 2025');
  });

  describe('refuses what is not a well-formed, bounded message (422 with a reason)', () => {
    it('no header block: an HTML document', async () => {
      expect((await refusal(NEWSLETTER_HTML)).reason).toBe('not_a_message');
    });

    it('a line inside the header block that is no field', async () => {
      const error = await refusal('From: a@acme.example\r\nthis is not a header\r\n\r\n<p>x</p>');
      expect(error.reason).toBe('not_a_message');
      expect(error.message).toContain('Line 2');
    });

    it('a multipart without its boundary parameter, never started, or never closed', async () => {
      const noBoundary = message({ headers: ['Content-Type: multipart/alternative'], body: '--x\r\n\r\nhello\r\n--x--\r\n' });
      expect((await refusal(noBoundary)).reason).toBe('broken_boundary');
      const neverStarts = message({ headers: ['Content-Type: multipart/alternative; boundary=abc'], body: 'no delimiter here\r\n' });
      expect((await refusal(neverStarts)).message).toContain('never starts a part');
      const unclosed = alternativeMessage().replace('--alt-7d1e--', '');
      const error = await refusal(unclosed);
      expect(error.reason).toBe('broken_boundary');
      expect(error.message).toContain('never closed');
    });

    it('an inner multipart that its parent continues past', async () => {
      const inner = multipart('alternative', 'inner', [textPart('x'), htmlPart('<p>x</p>')]);
      inner.body = inner.body.replace('--inner--\r\n', '');
      const raw = message(multipart('mixed', 'outer', [inner, textPart('y')]));
      expect((await refusal(raw)).message).toContain('multipart part 1 is never closed');
    });

    it('a bomb of 10,000 nested multiparts, at the depth limit', async () => {
      const levels = 10_000;
      let raw = message({ headers: ['Content-Type: multipart/mixed; boundary=b0'], body: '' });
      for (let level = 1; level < levels; level++) raw += `--b${level - 1}\r\nContent-Type: multipart/mixed; boundary=b${level}\r\n\r\n`;
      const error = await refusal(raw);
      expect(error.reason).toBe('nesting_too_deep');
      expect(error.message).toContain(String(MESSAGE_LIMITS.maxNestingDepth));
    }, 5_000);

    it('too many parts', async () => {
      const parts = Array.from({ length: MESSAGE_LIMITS.maxParts + 1 }, () => textPart('x', '7bit'));
      expect((await refusal(message(multipart('mixed', 'many', parts)))).reason).toBe('too_many_parts');
    }, 5_000);

    it('a bomb of 100,000 encoded words over 100 fields (each under the field size limit)', async () => {
      const words = Array.from({ length: 100 }, (_, index) => `X-Words-${index}: ${'=?UTF-8?Q?a?= '.repeat(1000)}`);
      const error = await refusal(message(htmlPart('<p>x</p>'), [...DEFAULT_HEADERS, ...words]));
      expect(error.reason).toBe('too_many_encoded_words');
    }, 5_000);

    it('too many header fields', async () => {
      const headers = [...DEFAULT_HEADERS, ...Array.from({ length: MESSAGE_LIMITS.maxHeaderFields }, (_, i) => `X-Trace-${i}: ${i}`)];
      expect((await refusal(message(htmlPart('<p>x</p>'), headers))).reason).toBe('too_many_header_fields');
    }, 5_000);

    it('a decoded HTML part over the markup limit', async () => {
      const html = `<p>${'a'.repeat(MESSAGE_LIMITS.maxDecodedPartBytes)}</p>`;
      const error = await refusal(message(htmlPart(html, '7bit')));
      expect(error.reason).toBe('part_too_large');
      expect(error.message).toContain('Part 1 decodes to');
    });

    it('a plain-text message: no HTML part', async () => {
      const error = await refusal(message(textPart(NEWSLETTER_TEXT)));
      expect(error.reason).toBe('no_html_part');
      expect(error.format).toBe('eml');
    });
  });
});

describe('the scan reads Content-Type as postal-mime does', () => {
  const image = {
    headers: ['Content-Type: image/png', 'Content-Transfer-Encoding: base64', 'Content-Disposition: attachment; filename=a.png'],
    body: base64Lines(PIXEL_PNG),
  };

  it('strips RFC 822 comments: multipart/mixed(x); boundary=b is a multipart whose parts are all counted', async () => {
    const root = multipart('mixed', 'b', [htmlPart('<p>x</p>'), image]);
    root.headers = ['Content-Type: multipart/mixed(x); boundary=b (the boundary)'];
    const parsed = await parseMessage(message(root));
    expect(parsed.structure.map((part) => part.contentType)).toEqual(['multipart/mixed', 'text/html', 'image/png']);
    expect(parsed.resources).toMatchObject([{ path: '2', contentType: 'image/png', filename: 'a.png', bytes: PIXEL_PNG.length }]);
  });

  it('refuses a boundary given twice (boundary="b"; boundary="c") as broken_boundary', async () => {
    const root = multipart('mixed', 'b', [htmlPart('<p>x</p>'), image]);
    root.headers = ['Content-Type: multipart/mixed; boundary="b"; boundary="c"'];
    const error = await refusal(message(root));
    expect(error.reason).toBe('broken_boundary');
    expect(error.message).toContain('more than once');
  });

  it('takes "Content-Type: image" (no subtype) as postal-mime does: an attachment, never the text part', async () => {
    const odd = { headers: ['Content-Type: image', 'Content-Transfer-Encoding: base64'], body: base64Lines(PIXEL_PNG) };
    const parsed = await parseMessage(message(multipart('mixed', 'b', [htmlPart('<p>x</p>'), odd])));
    expect(parsed.text).toBeNull();
    expect(parsed.resources).toMatchObject([{ path: '2', contentType: 'image', bytes: PIXEL_PNG.length }]);
  });
});

describe('body parts are decoded on their own', () => {
  it('a multipart/mixed with text/plain and text/html siblings: the HTML analysed is the HTML part alone', async () => {
    const html = '<p>caf\u00e9 au lait</p>';
    const raw = message(multipart('mixed', 'b', [textPart('Plain words only here', 'quoted-printable'), htmlPart(html, 'quoted-printable')]));
    const parsed = await parseMessage(raw);
    expect(parsed.html.content.trimEnd()).toBe(html);
    expect(parsed.html.content).not.toContain('Plain words');
    expect(parsed.text?.content.trimEnd()).toBe('Plain words only here');
  });
});
