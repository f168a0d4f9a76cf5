import { analyzeEmail } from '../../analyze-email';
import { CLIENT_IDS, type ClientId } from '../email-client';
import { SIXTH_PASS_BEHAVIORS } from './inventory-sixth-pass.model';
import { rulesOf } from './client-rules';

/**
 * The behaviours of the inventory's sixth pass (inventory-sixth-pass.model.ts) and the hooks they needed: two
 * element rules on one property with a condition on the element, rules that only report, a selector limit Gmail's
 * inliner reads, a declaration added beside another. Where a client supports what the email uses, none gives a
 * finding; where the documented case is hit, only the clients that have it in their model react.
 */
const NEW_RULES = new Set(
  Object.values(SIXTH_PASS_BEHAVIORS)
    .flat()
    .map((b) => b?.id),
);

const analyze = (html: string) => analyzeEmail(html, { reports: false });
const htmlOf = (result: ReturnType<typeof analyze>, client: ClientId): string => result.transforms.find((t) => t.clientId === client)?.html ?? '';
const GMAIL: readonly ClientId[] = ['gmail-web', 'gmail-android', 'gmail-ios'];

describe('inventory sixth pass: no finding where the client supports what the email uses', () => {
  it.each([
    ['display:none with mso-hide:all on each nested table', '<div style="display:none"><table style="mso-hide:all"><tr><td>x</td></tr></table></div>'],
    ['display:none on a block of text only', '<div style="display:none;font-size:0">Preheader text</div><p>Body</p>'],
    ['one vertical padding across a row', '<table><tr><td style="padding:10px 20px">a</td><td style="padding:10px 0">b</td></tr></table>'],
    ['horizontal padding that differs', '<table><tr><td style="padding:0 20px">a</td><td style="padding:0">b</td></tr></table>'],
    ['margin without a background, a background without margin', '<p style="margin:0 0 16px">a</p><p style="margin:0;background-color:#eeeeee">b</p>'],
    ['letter-spacing in px', '<p style="letter-spacing:1px">A</p>'],
    [
      'attribute selectors of the form [class~=value]',
      '<html><head><style>td[class~=a]{color:#102030}</style></head><body><table><tr><td class="a">x</td></tr></table></body></html>',
    ],
    [
      'width in px, max-content and fit-content',
      '<table><tr><td style="width:200px">a</td><td style="width:max-content">b</td><td style="width:fit-content">c</td></tr></table>',
    ],
  ])('%s', (_name, html) => {
    const result = analyze(html);
    expect(result.cssReport.filter((f) => NEW_RULES.has(f.rule)).map((f) => `${f.client} ${f.rule}`)).toEqual([]);
  });

  it('reports each case for the clients that have it, and only for them', () => {
    const html = `<div style="display:none"><table><tr><td style="padding:20px;width:min-content">a</td><td>b</td></tr></table></div>
<p style="margin:12px;background:#ffeecc;letter-spacing:.3em">c</p>`;
    const found = analyze(html).cssReport.filter((f) => NEW_RULES.has(f.rule));
    const clientsOf = (rule: string) => [...new Set(found.filter((f) => f.rule === rule).map((f) => f.client))].sort();
    for (const rule of ['word-display-none-nested-tables', 'word-row-vertical-padding', 'word-margin-takes-background', 'word-letter-spacing-em'])
      expect({ rule, clients: clientsOf(rule) }).toEqual({ rule, clients: ['outlook-windows-legacy'] });
    expect(clientsOf('apple-min-content-breaks-words')).toEqual(['apple-mail-ios', 'apple-mail-macos']);
  });
});

describe('the hooks of the sixth pass', () => {
  it("keeps both of the Word engine's rules on display: none on an <img>, and none holding a table", () => {
    expect(
      rulesOf('outlook-windows-legacy')
        .elementRules.get('display')
        ?.map((r) => r.id),
    ).toEqual(['word-display-none-not-on-img', 'word-display-none-nested-tables']);
    const result = analyze(
      '<img src="https://example.com/a.png" alt="A" style="display:none"><div style="display:none"><table><tr><td>x</td></tr></table></div>',
    );
    const rules = result.cssReport.filter((f) => f.client === 'outlook-windows-legacy' && f.rule.startsWith('word-display-none')).map((f) => f.rule);
    expect(rules.sort()).toEqual(['word-display-none-nested-tables', 'word-display-none-not-on-img']);
    expect(htmlOf(result, 'outlook-windows-legacy')).not.toMatch(/display: ?none/);
  });

  it('still drops padding on a <p> for Word, and reads the row rule on cells only', () => {
    const result = analyze('<p style="padding:20px">a</p><table><tr><td style="padding:20px">b</td><td>c</td></tr></table>');
    const word = result.cssReport.filter((f) => f.client === 'outlook-windows-legacy' && /padding/.test(f.rule)).map((f) => f.rule);
    expect(word.sort()).toEqual(['word-padding-table-cells', 'word-row-vertical-padding']);
    const html = htmlOf(result, 'outlook-windows-legacy');
    expect(html).toContain('<p>a</p>');
    expect(html).toContain('padding:20px">b');
  });

  it('inlines no rule whose attribute selector Gmail drops, and inlines the others', () => {
    const result = analyze(
      '<html><head><style>td[align=center]{color:#ff0000}.x{background-color:#00ff00}a[href^="https"]{color:#0000ff}</style></head><body><table><tr><td align="center" class="x"><a href="https://example.com">x</a></td></tr></table></body></html>',
    );
    for (const client of GMAIL) {
      const html = htmlOf(result, client);
      expect({ client, dropped: html.includes('#ff0000') || html.includes('#0000ff'), kept: html.includes('#00ff00') }).toEqual({
        client,
        dropped: false,
        kept: true,
      });
    }
    // Apple Mail keeps every rule in <style>.
    expect(htmlOf(result, 'apple-mail-macos')).toContain('td[align=center]{color:#ff0000}');
  });

  it('drops only the limited selector of a list before Gmail inlines the rule', () => {
    const html = htmlOf(
      analyze('<html><head><style>p[title],.y{color:#ff0000}</style></head><body><p title="t">a</p><p class="y">b</p></body></html>'),
      'gmail-web',
    );
    expect(html).toContain('<p title="t">a</p>');
    expect(html).toContain('style="color: #ff0000">b</p>');
  });

  it("writes Apple's word-break beside width:min-content in <style> and in style attributes", () => {
    const result = analyze(
      '<html><head><style>.n{width:min-content}</style></head><body><div class="n">a</div><div style="width:min-content;color:#102030">b</div></body></html>',
    );
    const html = htmlOf(result, 'apple-mail-ios');
    expect(html).toContain('.n{width:min-content;word-break:break-all;}');
    expect(html).toContain('style="width: min-content; word-break: break-all; color: #102030"');
    for (const client of CLIENT_IDS.filter((c) => !c.startsWith('apple-mail')))
      expect({ client, added: htmlOf(result, client).includes('break-all') }).toEqual({ client, added: false });
  });
});
