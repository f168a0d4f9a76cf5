import { CLIENT_IDS } from '../../clients/email-client';
import { parseEmail } from '../../parse/parse-email';
import { buildFindingLedger } from '../finding-ledger';
import { emailPage, expectSoundFix, fixWith } from './testing/layout-fixtures';

const RULE = 'remove-unused-css';

/** Rules for classes no element has: enough of them put the `<style>` text over Gmail's 16 KB. */
function filler(count: number): string {
  return Array.from({ length: count }, (_, i) => `.unused-${i} { margin: 0; padding: 0; color: #000001; }`).join('\n');
}

function gmailStyleLimitFindings(html: string): number {
  return buildFindingLedger(parseEmail(html), 'html', CLIENT_IDS).count({ report: 'css', rule: 'gmail-style-size-limit' });
}

const KEPT = [
  '.used { color: #ff0000; }',
  'a:hover { color: #00ff00; }',
  '.ExternalClass { width: 100%; }',
  'u + .body .gmail-fix { display: block; }',
  '[data-ogsc] .used { color: #ffffff; }',
  '#MessageViewBody a { color: inherit; }',
  '*[x-apple-data-detectors] { color: inherit !important; }',
  '.mso-only { width: 600px; }',
  '.used:-webkit-autofill { color: #000000; }',
  "@font-face { font-family: 'Brand'; src: url('https://example.com/brand.woff2'); }",
  '/* a comment stays */',
];

const BODY =
  '<table role="presentation"><tr><td class="used">Hi *|FNAME|*, {{ first_name }} %%x%%</td></tr></table>\n' +
  '<!--[if mso]><table role="presentation" class="mso-only"><tr><td><![endif]-->\n' +
  '<a href="{{ url }}">Link</a>\n' +
  '<!--[if mso]></td></tr></table><![endif]-->';

describe('remove-unused-css', () => {
  it("removes the rules that match nothing when the <style> text is over Gmail's 16 KB, and keeps hacks, used rules and at-rules", () => {
    const style = [
      ...KEPT,
      '.btn:hover { color: #0000ff; }',
      'h1, .used, .nothing { font-weight: bold; }',
      '@media (max-width: 600px) { .used { color: #000000 !important; } .gone { display: none; } }',
      '@media (max-width: 400px) { .gone-too { display: none; } }',
      filler(420),
    ].join('\n');
    const html = emailPage(style, BODY);
    expect(gmailStyleLimitFindings(html)).toBe(3);
    const result = fixWith(html, RULE);
    expect(result.ours).toHaveLength(1);
    expect(result.ours[0].description).toMatch(
      /^removed 423 unused rule\(s\) and 2 unused selector\(s\) \(\d+\.\d KB\) from a <style> block: its <style> text is/,
    );
    for (const kept of KEPT) expect(result.html).toContain(kept);
    expect(result.html).toContain('.used { font-weight: bold; }');
    expect(result.html).toContain('@media (max-width: 600px) { .used { color: #000000 !important; } }');
    for (const gone of ['.btn:hover', '.gone', '.gone-too', '@media (max-width: 400px)', '.unused-0 ', '.unused-419 ']) expect(result.html).not.toContain(gone);
    for (const markup of [
      'Hi *|FNAME|*, {{ first_name }} %%x%%</td>',
      '<a href="{{ url }}">Link</a>',
      '<!--[if mso]><table role="presentation" class="mso-only"><tr><td><![endif]-->',
    ]) {
      expect(result.html).toContain(markup);
    }
    expect(gmailStyleLimitFindings(result.html)).toBe(0);
    expect(result.resolved[RULE]).toBe(3);
    expectSoundFix(html, result);
  });

  it('leaves the <style> text alone when the email is within every Gmail limit', () => {
    const html = emailPage([...KEPT, '.gone { display: none; }', filler(20)].join('\n'), BODY);
    const result = fixWith(html, RULE);
    expect(result.ours).toEqual([]);
    expect(result.html).toContain('.gone { display: none; }');
  });

  it("removes unused rules from an email near Gmail's 102 KB clipping limit", () => {
    const paragraphs = Array.from(
      { length: 960 },
      (_, i) => `<p class="used">Paragraph ${i} of the newsletter, long enough to weigh something in bytes and more.</p>`,
    ).join('\n');
    const html = emailPage(['.used { color: #ff0000; }', '.gone { display: none; }', '.gone-too { color: #000000; }'].join('\n'), paragraphs);
    const result = fixWith(html, RULE);
    expect(result.ours.map((fix) => fix.description)).toEqual([
      expect.stringMatching(/^removed 2 unused rule\(s\) \(\d+ B\) from a <style> block: the email is/),
    ]);
    expect(result.html).toContain('.used { color: #ff0000; }');
    expect(result.html).not.toContain('.gone');
    // Inlining would take the email past the limit: refused, with the reason.
    expect(result.skipped).toEqual([expect.objectContaining({ rule: 'inline-css', reason: expect.stringContaining("Gmail's 102 KB clipping limit") })]);
    expectSoundFix(html, result);
  });
});
