import { email, reports, rules } from './testing/email-fixture';

function plain(body: string) {
  return reports(email(body, { footer: '' })).plainText;
}

describe('plainText', () => {
  it('writes links as text plus URL, keeps headings and lists readable, and drops the hidden preheader', () => {
    const report = plain(
      '<div style="display:none;max-height:0;overflow:hidden">Preheader text &zwnj;&nbsp;&zwnj;</div>' +
        '<h1>March update</h1><p>Read the <a href="https://acme.test/changelog">changelog</a> or visit <a href="https://acme.test">https://acme.test</a>.</p>' +
        '<ul><li>Faster exports</li><li>Calendar view</li></ul>' +
        '<table role="presentation"><tr><td>Left cell</td><td>Right cell</td></tr></table>' +
        '<img src="https://acme.test/logo.png" alt="Acme logo" width="100"><img src="https://t.acme.test/o.gif" width="1" height="1" alt="">',
    );
    expect(report.text).not.toContain('Preheader');
    expect(report.text).toContain('March update');
    expect(report.text).toContain('Read the changelog <https://acme.test/changelog> or visit https://acme.test.');
    expect(report.text).toMatch(/\* Faster exports\n\s*\* Calendar view/);
    expect(report.text).toContain('Left cell\nRight cell');
    expect(report.text).toContain('Acme logo');
    expect(report.text).not.toContain('o.gif');
    expect(report.length).toBe(report.text.length);
    expect(report.lines).toBe(report.text.split('\n').length);
    expect(report.warnings).toEqual([]);
    for (const line of report.text.split('\n')) expect(line.length).toBeLessThanOrEqual(78);
  });

  it('prints only the text of links that lead nowhere a reader can go (javascript:, data:)', () => {
    const report = plain(
      '<p><a href="javascript:void(0)">Open menu</a>, <a href="data:text/html,hi">inline</a> and <a href="mailto:help@acme.test">write to us</a></p>',
    );
    expect(report.text).toBe('Open menu, inline and write to us <help@acme.test>');
  });

  it('warns when there is no text, or almost only images', () => {
    expect(rules(plain('').warnings)).toEqual(['plain-text-empty']);
    expect(rules(plain('<img src="https://acme.test/a.png" alt="Sale" width="600">').warnings)).toEqual(['plain-text-short']);
  });
});

describe('plainText of layout tables', () => {
  it('reads nested single-cell tables, spacer cells and captions as html-to-text formats the plain structure', () => {
    const html =
      '<html><body><div style="display:none">Preheader text</div><table role="presentation">' +
      '<tr><td><table><tr><td><h1>Spring sale</h1></td></tr></table></td></tr>' +
      '<tr><td width="20">&nbsp;</td></tr>' +
      '<tr><td><p>Everything is 20% off.</p><p>Until Sunday.</p></td></tr>' +
      '<tr><td><table><caption>Prices</caption><tr><th>Item</th><th>Price</th></tr><tr><td>Shirt</td><td>$20</td></tr></table></td></tr>' +
      '<tr><td><a href="https://shop.test/sale">Shop the sale</a> <img src="https://shop.test/p.gif" width="1" height="1" alt="pixel"></td></tr>' +
      '</table></body></html>';
    expect(reports(html).plainText.text).toBe(
      'Spring sale\n\nEverything is 20% off.\n\nUntil Sunday.\n\nPrices\nItem\nPrice\n\nShirt\n$20\n\nShop the sale <https://shop.test/sale>',
    );
  });

  it('keeps one line per cell of a multi-cell row and a blank line between rows', () => {
    const html = '<html><body><p>Before</p><table><tr><td>one</td></tr><tr><td>two</td><td>three</td></tr></table><p>After</p></body></html>';
    expect(reports(html).plainText.text).toBe('Before\n\none\n\ntwo\nthree\n\nAfter');
  });
});

describe('plainText on pathological nesting', () => {
  it('falls back to a simple iterative walk and says so', () => {
    const deep = `${'<div>'.repeat(500)}<p>Deep text <a href="https://acme.test/x">link</a></p>`;
    const report = plain(deep);
    expect(rules(report.warnings)).toEqual(['plain-text-simplified']);
    expect(report.text).toContain('Deep text link <https://acme.test/x>');
  });
});
