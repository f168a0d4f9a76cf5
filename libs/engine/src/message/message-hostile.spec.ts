import { CompileError } from '../compile/compile-error';
import { MESSAGE_LIMITS } from '../limits';
import { buildMessageReport } from './build-message-report';
import { namedDomains, stripComments } from './headers-report';
import type { ParsedMessage } from '../parse/parsed-message';
import { parseMessage } from './parse-message';
import { DEFAULT_HEADERS, alternativeMessage, htmlPart, message, multipart } from './testing/message-fixtures';

const HOSTILE = 300 * 1024;

async function refusal(raw: string): Promise<CompileError> {
  const error = await parseMessage(raw).then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(CompileError);
  return error as CompileError;
}

/** A parsed message whose top-level fields are replaced as written, past the scan (the rules must bound themselves). */
async function withFields(fields: Record<string, string>): Promise<ParsedMessage> {
  const parsed = await parseMessage(alternativeMessage());
  const headers = parsed.headers.filter((field) => !(field.name in fields));
  return { ...parsed, headers: [...headers, ...Object.entries(fields).map(([name, value]) => ({ name, value }))], subject: fields.subject ?? parsed.subject };
}

describe('hostile headers', () => {
  it('a header field longer than the limit is refused by the scan (header_field_too_large), folded or not', async () => {
    const long = `From: "${'a'.repeat(HOSTILE)}" <news@acme.example>`;
    const one = await refusal(alternativeMessage([...DEFAULT_HEADERS.filter((line) => !line.startsWith('From:')), long]));
    expect(one.reason).toBe('header_field_too_large');
    const folded = ['Subject: start', ...Array.from({ length: 400 }, () => ` ${'b'.repeat(900)}`)];
    const two = await refusal(alternativeMessage([...DEFAULT_HEADERS.filter((line) => !line.startsWith('Subject:')), ...folded]));
    expect(two.reason).toBe('header_field_too_large');
    expect(two.message).toContain(String(MESSAGE_LIMITS.maxHeaderFieldCharacters));
  }, 10_000);

  it('every header rule reads a 300 KB display name, Subject, Message-ID, Date and List-Unsubscribe in linear time', async () => {
    const parsed = await withFields({
      from: `"${'a'.repeat(HOSTILE)} ${'b-'.repeat(HOSTILE / 2)}x" <news@acme.example>`,
      subject: 'c'.repeat(HOSTILE),
      'message-id': `<${'d'.repeat(HOSTILE)}`,
      date: '('.repeat(HOSTILE),
      'list-unsubscribe': '<'.repeat(HOSTILE),
      'list-unsubscribe-post': 'e'.repeat(HOSTILE),
    });
    const made = buildMessageReport(parsed, { htmlText: null, authentication: null });
    const found = made.headers.findings.map((item) => item.rule);
    expect(found).toEqual(expect.arrayContaining(['date-invalid', 'message-id-invalid', 'list-unsubscribe-invalid']));
    expect(found).not.toContain('from-display-name-impersonation');
    // Findings quote at most a readable prefix of a value.
    for (const item of made.headers.findings) expect(item.message.length).toBeLessThan(1000);
  }, 20_000);

  it('a 300 KB display name that names another domain is still found', async () => {
    const parsed = await withFields({ from: `"${'x'.repeat(HOSTILE)} paypal.com" <news@acme.example>` });
    const made = buildMessageReport(parsed, { htmlText: null, authentication: null });
    expect(made.headers.findings.map((item) => item.rule)).toContain('from-display-name-impersonation');
  }, 20_000);

  it('a body line of "--" and 300 KB of blanks is scanned in linear time', async () => {
    const line = `--${' '.repeat(HOSTILE)}x`;
    const raw = message(multipart('mixed', 'b', [htmlPart('<p>x</p>'), { headers: ['Content-Type: text/csv'], body: line }]));
    const parsed = await parseMessage(raw);
    expect(parsed.resources).toMatchObject([{ path: '2', contentType: 'text/csv' }]);
  }, 20_000);

  it('namedDomains: addresses count whatever their suffix, dotted words are bare names', () => {
    expect(namedDomains('Billing billing@paypal.com')).toEqual({ addressed: ['paypal.com'], bare: [] });
    expect(namedDomains('"paypal.com" Team')).toEqual({ addressed: [], bare: ['paypal.com'] });
    expect(namedDomains('Node.js Weekly... ..a.b..')).toEqual({ addressed: [], bare: ['Node.js', 'a.b'] });
    expect(namedDomains('Acme News')).toEqual({ addressed: [], bare: [] });
  });

  it('stripComments removes nested comments and keeps the rest', () => {
    expect(stripComments('Tue, 07 Oct 2025 09:30:00 +0000 (UTC (really))').trim()).toBe('Tue, 07 Oct 2025 09:30:00 +0000');
    expect(stripComments('text/html (a \\) b); charset=utf-8')).toBe('text/html  ; charset=utf-8');
  });
});
