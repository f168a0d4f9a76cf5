import { isFileNameAlt, isValidLanguageTag } from './accessibility-report';
import { email, reports, rules } from './testing/email-fixture';

function a11y(body: string, parts = {}) {
  return reports(email(body, parts)).accessibilityReport;
}

describe('accessibilityReport', () => {
  it('scores a clean email 100 with no issues', () => {
    const report = a11y(
      '<table role="presentation"><tr><td><h1>Spring</h1><h2>News</h2><p style="font-size:16px">Hello there.</p><img src="https://acme.test/a.png" alt="Our new shop front" width="600"></td></tr></table>',
    );
    expect(report.issues).toEqual([]);
    expect(report.score).toBe(100);
  });

  it('flags a missing or invalid lang and a missing title', () => {
    expect(rules(a11y('<p>Hi</p>', { lang: null }).issues)).toContain('missing-lang');
    expect(rules(a11y('<p>Hi</p>', { lang: 'english please' }).issues)).toContain('invalid-lang');
    expect(rules(a11y('<p>Hi</p>', { title: null }).issues)).toContain('missing-title');
    expect(a11y('<p>Hi</p>', { lang: null }).score).toBe(88);
  });

  it('requires alt on content images but exempts tracking pixels and decorative images', () => {
    const report = a11y(
      '<img src="https://acme.test/hero.png" width="600"><img src="https://t.acme.test/o.gif" width="1" height="1"><img src="https://acme.test/line.png" role="presentation">',
    );
    expect(rules(report.issues)).toEqual(['img-missing-alt']);
    expect(report.issues[0]).toMatchObject({ severity: 'error', url: 'https://acme.test/hero.png', line: 1 });
    expect(report.issues[0].element).toContain('<img src="https://acme.test/hero.png"');
  });

  it('flags file-name alt text', () => {
    expect(rules(a11y('<img src="https://acme.test/x.png" alt="hero_banner-v2.png" width="600">').issues)).toEqual(['img-filename-alt']);
    expect(isFileNameAlt('IMG_2041')).toBe(true);
    expect(isFileNameAlt('DSC0001')).toBe(true);
    expect(isFileNameAlt('Two people hiking in the Alps')).toBe(false);
  });

  it('flags links and buttons without an accessible name and generic link text', () => {
    const report = a11y(
      '<a href="https://acme.test/a"><img src="https://acme.test/i.png" width="20"></a><button></button><a href="https://acme.test/b">read more</a>',
    );
    expect(rules(report.issues)).toEqual(expect.arrayContaining(['link-no-accessible-name', 'button-no-accessible-name', 'link-generic-text']));
  });

  it('flags layout tables without role="presentation" but not data tables', () => {
    expect(rules(a11y('<table><tr><td>Layout</td></tr></table>').issues)).toEqual(['layout-table-missing-role']);
    expect(rules(a11y('<table><tr><th>Item</th><th>Price</th></tr><tr><td>Tea</td><td>£3</td></tr></table>').issues)).toEqual([]);
  });

  it('gives no role="presentation" advice for a table axe-core would call data (issue 19)', () => {
    const layout = (table: string) => rules(a11y(table).issues).includes('layout-table-missing-role');
    // Header-ish markup: a caption, a <thead>, scope, a summary.
    expect(layout('<table><caption>Orders</caption><tr><td>Tea</td><td>£3</td></tr></table>')).toBe(false);
    expect(layout('<table><thead><tr><td>Item</td><td>Price</td></tr></thead><tr><td>Tea</td><td>£3</td></tr></table>')).toBe(false);
    expect(layout('<table><tr><td scope="col">Item</td></tr><tr><td>Tea</td></tr></table>')).toBe(false);
    // A regular grid: bordered cells (inline or from <style>), or rows painted differently.
    expect(layout('<table><tr><td style="border-top:1px solid #eeeeee">Tea</td><td>£3</td></tr><tr><td>Cake</td><td>£4</td></tr></table>')).toBe(false);
    expect(
      rules(
        a11y('<table class="items"><tr><td>Tea</td><td>£3</td></tr><tr><td>Cake</td><td>£4</td></tr></table>', {
          head: '<style>.items td { border-bottom: 1px solid #dddddd }</style>',
        }).issues,
      ),
    ).not.toContain('layout-table-missing-role');
    expect(layout('<table><tr bgcolor="#f5f5f5"><td>Tea</td><td>£3</td></tr><tr><td>Cake</td><td>£4</td></tr></table>')).toBe(false);
    expect(
      layout('<table><tr><td>a</td><td>b</td><td>c</td><td>d</td><td>e</td></tr><tr><td>1</td><td>2</td><td>3</td><td>4</td><td>5</td></tr></table>'),
    ).toBe(false);
    // Layout: one column, nested tables, a border of style none, a full-width table of few cells.
    expect(layout('<table><tr><td>Header</td></tr><tr><td>Body</td></tr></table>')).toBe(true);
    expect(layout('<table><tr><td style="border:0 none">A</td><td>B</td></tr><tr><td>C</td><td>D</td></tr></table>')).toBe(true);
    expect(layout('<table><tr><td><table role="presentation"><tr><td>Inner</td></tr></table></td><td>B</td></tr><tr><td>C</td><td>D</td></tr></table>')).toBe(
      true,
    );
    // Twelve plain cells: data inside a 600px column, layout when it spans the whole window.
    const rows = '<tr><td>1</td><td>2</td><td>3</td></tr>'.repeat(4);
    expect(layout(`<table role="presentation" width="600"><tr><td><table width="100%">${rows}</table></td></tr></table>`)).toBe(false);
    expect(layout(`<table width="100%">${rows}</table>`)).toBe(true);
  });

  it('flags skipped heading levels', () => {
    expect(rules(a11y('<h1>Title</h1><h3>Sub</h3>').issues)).toEqual(['heading-skip']);
    expect(rules(a11y('<h1>Title</h1><h2>Sub</h2><h3>Detail</h3><h2>Next</h2>').issues)).toEqual([]);
  });

  it('computes contrast from inline styles, <style> rules and bgcolor', () => {
    const inline = a11y('<p style="color:#aaaaaa">Light grey on white</p>');
    expect(inline.issues).toEqual([expect.objectContaining({ rule: 'low-contrast', severity: 'error', line: 1 })]);
    const fromSheet = a11y('<td class="note" bgcolor="#ffffff"><span class="muted">Muted</span></td>', { head: '<style>.muted { color: #999999 }</style>' });
    expect(fromSheet.issues.map((issue) => issue.rule)).toContain('low-contrast');
    const lowContrast = fromSheet.issues.find((issue) => issue.rule === 'low-contrast') as unknown as { ratio: number; color: string; background: string };
    expect(lowContrast).toMatchObject({ color: '#999999', background: '#ffffff' });
    expect(lowContrast.ratio).toBeCloseTo(2.85, 1);
    const ok = a11y('<table role="presentation" bgcolor="#000000"><tr><td style="color:#ffffff">White on black</td></tr></table>');
    expect(ok.issues).toEqual([]);
  });

  it('blends translucent text over the background behind it, not over the inherited text color (issue 19)', () => {
    const lowContrast = (body: string) =>
      a11y(body).issues.filter((issue) => issue.rule === 'low-contrast') as unknown as Array<{ color: string; background: string }>;
    // rgba(0,0,0,.4) on white paints #999999 (2.85:1); blended over the inherited #222222 it would pass.
    expect(lowContrast('<p style="color:rgba(0,0,0,.4)">Faint caption</p>')).toEqual([expect.objectContaining({ color: '#999999', background: '#ffffff' })]);
    // Inherited as it is: a child over another background blends over that one.
    expect(lowContrast('<div style="color:rgba(255,255,255,.4)"><p style="background:#000000">White at 40% on black</p></div>')).toEqual([
      expect.objectContaining({ color: '#666666', background: '#000000' }),
    ]);
    expect(lowContrast('<div style="background:#000000"><p style="color:rgba(255,255,255,.9)">Nearly white on black</p></div>')).toEqual([]);
  });

  it('lets a:link and other link rules in <style> color the link; :visited never matches a fresh profile (issue 19)', () => {
    const linkIssues = (head: string) =>
      a11y('<p><a href="https://acme.test/shop">Visit the shop</a></p>', { head }).issues.filter(
        (issue) => issue.rule === 'low-contrast' && issue.message.includes('Visit the shop'),
      );
    expect(linkIssues('<style>a:link { color: #bbbbbb; }</style>')).toEqual([expect.objectContaining({ color: '#bbbbbb' })]);
    expect(linkIssues('<style>a:any-link { color: #bbbbbb; }</style>')).toHaveLength(1);
    expect(linkIssues('<style>p a { color: #bbbbbb; }</style>')).toHaveLength(1);
    // Link blue passes on white; a rule for visited links only changes nothing.
    expect(linkIssues('<style>a:visited { color: #bbbbbb; }</style>')).toEqual([]);
    // Specificity and order as written: the later, equally specific rule wins.
    expect(linkIssues('<style>a:link { color: #bbbbbb; } a[href] { color: #111111; }</style>')).toEqual([]);
    expect(linkIssues('<style>@media screen { a:link, a:visited { color: #bbbbbb; } }</style>')).toHaveLength(1);
  });

  it('resolves var() and light-dark() as a browser does: the variable wins, an unknown one leaves the property unset (issue 19)', () => {
    const lowContrast = (body: string, head: string) => a11y(body, { head }).issues.filter((issue) => issue.rule === 'low-contrast');
    const themed =
      '<style>:root { --brand-bg: #1a1a1a; --brand-fg: #ffffff; } .card { background-color: #ffffff; background-color: var(--brand-bg); color: var(--brand-fg); }</style>';
    // White on the variable's dark background: no white-on-white error.
    expect(lowContrast('<div class="card"><p>Card text</p></div>', themed)).toEqual([]);
    expect(lowContrast('<div style="--soft: #cccccc"><p style="color: var(--soft)">Soft grey</p></div>', '')).toEqual([
      expect.objectContaining({ color: '#cccccc' }),
    ]);
    expect(lowContrast('<p style="color: var(--missing, #dddddd)">Fallback grey</p>', '')).toEqual([expect.objectContaining({ color: '#dddddd' })]);
    // No such variable and no fallback: color is unset and inherits the body's #222222.
    expect(lowContrast('<p style="color:#eeeeee; color: var(--missing)">Inherits</p>', '')).toEqual([]);
    expect(lowContrast('<p style="background-color: light-dark(#0000ff, #00ff00); color:#000000">Blue in light</p>', '')).toEqual([
      expect.objectContaining({ background: '#0000ff' }),
    ]);
  });

  it('leaves text of punctuation only out of contrast, as axe-core does', () => {
    expect(a11y('<p style="color:#aaaaaa">|</p><p style="color:#aaaaaa">--🙂</p>').issues.filter((issue) => issue.rule === 'low-contrast')).toEqual([]);
    expect(a11y('<p style="color:#aaaaaa">A</p>').issues.filter((issue) => issue.rule === 'low-contrast')).toHaveLength(1);
  });

  it("compares the exact ratio with WCAG's threshold, never a rounded one", () => {
    // #008676 on white is 4.4952:1: rounded to two decimals it would read 4.50 and pass.
    const report = a11y('<p style="color:#008676;font-size:14px">Teal on white</p>');
    const issue = report.issues.find((i) => i.rule === 'low-contrast') as unknown as { ratio: number; message: string };
    expect(issue.ratio).toBe(4.49);
    expect(issue.message).toContain('4.49:1');
    expect(a11y('<p style="color:#767676;font-size:14px">Mid grey on white</p>').issues.filter((i) => i.rule === 'low-contrast')).toEqual([]);
  });

  it('applies the large-text threshold and skips text over images', () => {
    // #888 on white is 3.54:1: fails for body text, passes for 24px text.
    expect(rules(a11y('<p style="color:#888888;font-size:14px">Small grey</p>').issues)).toEqual(['low-contrast']);
    expect(a11y('<p style="color:#888888;font-size:14px">Small grey</p>').issues[0].severity).toBe('warning');
    expect(rules(a11y('<p style="color:#888888;font-size:24px">Big grey</p>').issues)).toEqual([]);
    expect(rules(a11y('<div style="background:url(https://acme.test/bg.jpg)"><p style="color:#eeeeee">Over a photo</p></div>').issues)).toEqual([]);
  });

  it('ignores hidden text for contrast and flags tiny visible text', () => {
    expect(rules(a11y('<div style="display:none;color:#ffffff">Hidden preheader</div>').issues)).toEqual([]);
    expect(rules(a11y('<p style="font-size:8px">Fine print</p>').issues)).toEqual(['tiny-text']);
  });

  it('validates language tags by shape', () => {
    expect(isValidLanguageTag('en')).toBe(true);
    expect(isValidLanguageTag('zh-Hant-TW')).toBe(true);
    expect(isValidLanguageTag('english')).toBe(false);
  });

  it('caps each rule at three occurrences in the score', () => {
    const many = Array.from({ length: 10 }, (_, i) => `<img src="https://acme.test/${i}.png" width="100">`).join('');
    expect(a11y(many).score).toBe(100 - 3 * 12);
  });
});
