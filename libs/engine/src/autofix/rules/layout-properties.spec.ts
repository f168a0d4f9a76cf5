import fc from 'fast-check';
import { fixEmail } from '../fix-email';
import { textAndLinks } from './testing/layout-fixtures';

/** Head rules for each layout fix, with what must keep working (media queries, :hover, client hacks). */
const STYLES = [
  '.c1 { color: #333333; padding: 10px 20px; }',
  'td { padding-left: 4px; font-family: Arial, sans-serif; }\n.c2 { padding: 0; }',
  '@media (max-width: 600px) { .c1 { padding: 4px !important; } .c3 { width: 100%; } }',
  'a:hover { color: #ff0000; }\na { color: #0000ff; text-decoration: none; }',
  '.btn { background-color: #0867ec; padding: 12px 24px; color: #ffffff; display: inline-block; }',
  '.hero { background-image: url(https://example.com/hero.jpg); background-color: #222222; }',
  '.ExternalClass { width: 100%; }\nu + .body .c1 { color: inherit; }\n.unused-a { color: #000001; }',
  '.pre { position: absolute; left: -9999px; display: none; }',
  '.c3 { width: 600px; font-family: "Segoe UI", sans-serif !important; }',
  // Over Gmail's 16 KB of <style> text: unused CSS is removed.
  Array.from({ length: 420 }, (_, i) => `.unused-${i} { margin: 0; padding: 0; color: #000001; }`).join('\n'),
];

const FRAGMENTS = [
  '<table role="presentation"><tr><td class="c1 c2">Hello {{ name }}</td></tr></table>',
  '<p class="c3" style="color:{{ brand }}">*|FNAME|* %%first%%</p>',
  '<a class="btn" href="{{ url }}?utm=%%c%%">Shop {% if vip %}VIP{% endif %}</a>',
  '<table role="presentation"><tr><td bgcolor="#e9703e"><a href="https://example.com/b" style="padding: 8px 12px; color: #ffffff;">Cell button</a></td></tr></table>',
  '<table role="presentation"><tr><td class="hero" width="600" height="200"><h1 class="c1">Hero</h1></td></tr></table>',
  '<div class="hero" style="width: 100%;">Fluid hero</div>',
  '<span class="pre">Preheader text</span>',
  '<!--[if mso]><table role="presentation" class="c3"><tr><td><![endif]--><p class="c1">Ghost</p><!--[if mso]></td></tr></table><![endif]-->',
  '<a href="https://example.com/plain" style="color: #123456;">Plain link</a>',
];

function email(styles: string[], fragments: string[]): string {
  const style = styles.length > 0 ? `<style>\n${styles.join('\n')}\n</style>` : '';
  return `<!DOCTYPE html>\n<html lang="en">\n<head>\n<title>t</title>\n${style}\n</head>\n<body class="body">\n${fragments.join('\n')}\n</body>\n</html>\n`;
}

const emails = fc
  .tuple(fc.subarray(STYLES), fc.array(fc.constantFrom(...FRAGMENTS), { minLength: 1, maxLength: 6 }))
  .map(([styles, fragments]) => email(styles, fragments));

describe('fixEmail with the layout tier over generated emails', () => {
  it('introduces nothing, keeps the text and links, and fixing again changes nothing', () => {
    fc.assert(
      fc.property(emails, fc.constantFrom<Array<'safe' | 'layout'>>(['layout'], ['safe', 'layout']), (html, tiers) => {
        const result = fixEmail(html, { tiers });
        expect(result.introduced).toEqual([]);
        expect(textAndLinks(result.html)).toEqual(textAndLinks(html));
        const again = fixEmail(result.html, { tiers });
        expect(again.applied).toEqual([]);
        expect(again.html).toBe(result.html);
      }),
      { numRuns: 40, seed: 3030 },
    );
  });

  it('exercises every layout rule', () => {
    const applied = new Set<string>();
    for (const html of fc.sample(emails, { numRuns: 40, seed: 3030 })) for (const fix of fixEmail(html, { tiers: ['layout'] }).applied) applied.add(fix.rule);
    expect([...applied].sort()).toEqual(['bulletproof-button', 'inline-css', 'remove-unused-css', 'vml-background']);
  });

  it('never writes a second style attribute on an element', () => {
    fc.assert(
      fc.property(emails, (html) => {
        const result = fixEmail(html, { tiers: ['safe', 'layout'] });
        expect(result.html).not.toMatch(/<[a-z][^<>]*\sstyle=("[^"]*"|'[^']*')[^<>]*\sstyle=/i);
      }),
      { numRuns: 30, seed: 3031 },
    );
  });
});
