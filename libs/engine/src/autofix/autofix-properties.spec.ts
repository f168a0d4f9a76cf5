import fc from 'fast-check';
import { getAttribute, textContent } from '../parse/dom';
import { parseEmail } from '../parse/parse-email';
import { fixEmail } from './fix-email';

/** Head styles with something for each safe fix (and things no fix may touch). */
const STYLES = [
  '.c1 { color: #abc; }',
  '.c2 { color: #111111!IMPORTANT; }',
  ':root { --brand: #ff0000; }\n.c3 { color: var(--brand); }',
  '.c4 { width: calc(100px + 20px); padding: calc(100% - 20px); }',
  '.c5 { font-family: Georgia, Times; }',
  '@media (max-width: 600px) { .sm\\:w-full { width: 100% !important; } }',
  '@media (prefers-color-scheme: dark) { .c6 { color: #eeeeee !important; } }',
  '.c7 { background: linear-gradient(#336699, #000000); }',
  '.c8 { border-color: oklch(60% 0.1 30); }',
  '.c9 { color: var(--missing, #00aa00); margin: 0 var(--tw,); }',
];

/** Body fragments: layout and data tables, images, merge tags, conditional comments (broken and not), links. */
const FRAGMENTS = [
  '<table><tr><td class="c1">Hello {{ name }}</td></tr></table>',
  '<table><tr><th>Item</th></tr><tr><td>1</td></tr></table>',
  '<img src="https://example.com/o.gif" width="1" height="1">',
  '<img src="https://example.com/hero.jpg" width="600" height="300">',
  '<p class="sm:w-full c3" style="color: rgb(0 0 0); font-family: Arial">*|FNAME|* %%=v(@x)=%%</p>',
  '<!--[if mso]><table role="presentation"><tr><td><![endif]--><p class="c2 c5">Ghost</p><!--[if mso]></td></tr></table><![endif]-->',
  '<span><!--[if mso\n  ]><i hidden>&#8202;</i><!\n  [endif]--></span>',
  '<a href="https://example.com/x?a=1&amp;b=2" style="color: #fff; background-color: #123456;">Link {% if a %}A{% endif %}</a>',
  '<!--[if !mso]><!--><p class="c6">Not Outlook</p><!--[endif]-->',
  '<div style="--own: 4px; padding: var(--own);" class="c4 c7 c8 c9">Own</div>',
  '<!--[if gte mso 9]><v:rect xmlns:v="urn:schemas-microsoft-com:vml" fill="true" stroke="false" style="width:600px;height:80px;"><v:fill type="frame" src="https://example.com/bg.png" color="#ffffff" /><v:textbox inset="0,0,0,0"><![endif]--><div>VML</div><!--[if gte mso 9]></v:textbox></v:rect><![endif]-->',
];

function email(styles: string[], fragments: string[]): string {
  const style = styles.length > 0 ? `<style>\n${styles.join('\n')}\n</style>` : '';
  return `<!DOCTYPE html>\n<html lang="en">\n<head>\n<title>t</title>\n${style}\n</head>\n<body>\n${fragments.join('\n')}\n</body>\n</html>\n`;
}

/** What a reader sees and can follow: the body's text and the links' targets. */
function readable(html: string): { text: string; links: string[] } {
  const parsed = parseEmail(html);
  const body = parsed.elementsByTag.get('body')?.[0];
  return {
    text: body ? textContent(body).replace(/\s+/g, ' ').trim() : '',
    links: (parsed.elementsByTag.get('a') ?? []).map((link) => getAttribute(link, 'href') ?? ''),
  };
}

const emails = fc
  .tuple(fc.subarray(STYLES), fc.array(fc.constantFrom(...FRAGMENTS), { minLength: 1, maxLength: 6 }))
  .map(([styles, fragments]) => email(styles, fragments));

describe('fixEmail over generated emails', () => {
  it('introduces nothing, is idempotent, and keeps the text and links', () => {
    fc.assert(
      fc.property(emails, (html) => {
        const result = fixEmail(html);
        expect(result.introduced).toEqual([]);
        const again = fixEmail(result.html);
        expect(again.applied).toEqual([]);
        expect(again.html).toBe(result.html);
        expect(readable(result.html)).toEqual(readable(html));
      }),
      { numRuns: 40, seed: 30 },
    );
  });

  it('changes the email exactly when it applies a fix, and gives a diff then', () => {
    fc.assert(
      fc.property(emails, (html) => {
        const result = fixEmail(html);
        expect(result.html !== html).toBe(result.applied.length > 0);
        expect(result.diff === '').toBe(result.applied.length === 0);
      }),
      { numRuns: 20, seed: 31 },
    );
  });
});
