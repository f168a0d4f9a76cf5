import { EngineLimitError } from '../errors';
import { ENGINE_LIMITS } from '../limits';
import { buildReports } from './build-reports';
import { email, reports } from './testing/email-fixture';

const KEYS = [
  'spamReport',
  'sizeReport',
  'linkReport',
  'accessibilityReport',
  'imageReport',
  'inboxPreview',
  'templateReport',
  'designReport',
  'vmlReport',
  'plainText',
];

describe('buildReports', () => {
  it('returns every report, and the same output for the same input', () => {
    const html = email(
      '<h1>Hi</h1><p style="color:#777777">Text {{ name }}</p><a href="http://acme.test">Click here</a><img src="https://acme.test/a.svg" width="10">',
    );
    const first = reports(html);
    expect(Object.keys(first)).toEqual(KEYS);
    expect(JSON.stringify(reports(html))).toBe(JSON.stringify(first));
  });

  it('handles empty and fragment input, and says what it found in it', () => {
    for (const html of ['', '   ', '<p>fragment only', '<table><tr><td>unclosed', '<!--[if mso]>', '<style>{{{{', '<a href="%">x</a>']) {
      const result = buildReports(html, { format: 'html', clients: [] });
      expect(Object.keys(result)).toEqual(KEYS);
      expect(result.inboxPreview.clients).toEqual({});
      expect(result.sizeReport.bytes).toBe(Buffer.byteLength(html));
    }
    const empty = buildReports('', { format: 'html', clients: [] });
    expect(empty.plainText.text).toBe('');
    expect(empty.plainText.warnings.map((w) => w.rule)).toContain('plain-text-empty');
    expect(buildReports('<p>fragment only', { format: 'html', clients: [] }).plainText.text).toBe('fragment only');
    expect(buildReports('<!--[if mso]>', { format: 'html', clients: [] }).vmlReport?.issues.length).toBeGreaterThan(0);
    expect(buildReports('<a href="%">x</a>', { format: 'html', clients: [] }).linkReport.broken).toBe(1);
  });

  it('ignores client ids it does not know in the per-client parts', () => {
    const result = buildReports(email('<p>x</p>'), { format: 'html', clients: ['not-a-client', 'gmail-web'] });
    expect(Object.keys(result.inboxPreview.clients)).toEqual(['gmail-web']);
  });

  it('runs on the engine parse, so its limits apply: nesting past them is refused, not walked', () => {
    const html = email('<div>'.repeat(ENGINE_LIMITS.maxNestingDepth + 10));
    expect(() => reports(html)).toThrow(EngineLimitError);
    expect(() => reports(email('x'.repeat(ENGINE_LIMITS.maxInputBytes)))).toThrow(expect.objectContaining({ limitCode: 'input_too_large' }));
  });

  // Hostile shapes just under the 500 KB limit are analyzed to the end. No wall-clock assertion (speed
  // is measured by npm run bench:engine): a report that went quadratic would not end within the timeout.
  describe('hostile input just under the 500 KB limit', () => {
    // The frame of email() takes about 300 bytes of the engine's 500 KB input limit.
    const SIZE = 500 * 1024 - 1024;
    it.each([
      [
        'deep nesting (at the engine limit), padded',
        `${'<div>'.repeat(ENGINE_LIMITS.maxNestingDepth - 10)}${'x '.repeat((SIZE - 5 * ENGINE_LIMITS.maxNestingDepth) / 2)}`,
      ],
      ['many small elements', '<p style="color:#999;font-size:8px">x</p>'.repeat(SIZE / 41)],
      ['one huge attribute', `<a href="https://a.test/${'a'.repeat(SIZE)}">x</a>`],
      ['unclosed template openers', `<p>${'{{'.repeat(SIZE / 2)}</p>`],
      ['mailto with no domain', `<a href="mailto:${'a@'.repeat(SIZE / 2)}">x</a>`],
      ['runs of punctuation', `<p>${'!?.'.repeat(SIZE / 3)}</p>`],
      ['many conditional comments', '<!--[if mso]><table><tr><td><![endif]-->'.repeat(SIZE / 42)],
      ['huge selector list', `<style>${'.a .b > .c, '.repeat(SIZE / 13)}{color:red}</style><p class="c">x</p>`],
      ['many links', '<a href="https://bit.ly/x">www.bank.test</a>'.repeat(SIZE / 44)],
    ])(
      '%s',
      (_name, body) => {
        const html = email(body);
        const result = reports(html);
        expect(Object.keys(result)).toEqual(KEYS);
        expect(result.sizeReport.bytes).toBe(Buffer.byteLength(html));
        expect(result.sizeReport.clippingRisk).toBe(true);
      },
      30_000,
    );
  });
});
