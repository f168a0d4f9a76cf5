import { isFileNameAlt, isValidLanguageTag } from './accessibility-report';
import { email, reports, rules } from './testing/email-fixture';

function a11y(body: string, parts = {}) {
  return reports(email(body, parts)).accessibilityReport;
}

describe('accessibilityReport', () => {
  it('scores a clean email 100 with no issues', () => {
    const report = a11y('<table role="presentation"><tr><td><h1>Spring</h1><h2>News</h2><p style="font-size:16px">Hello there.</p><img src="https://acme.test/a.png" alt="Our new shop front" width="600"></td></tr></table>');
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
    const report = a11y('<img src="https://acme.test/hero.png" width="600"><img src="https://t.acme.test/o.gif" width="1" height="1"><img src="https://acme.test/line.png" role="presentation">');
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
    const report = a11y('<a href="https://acme.test/a"><img src="https://acme.test/i.png" width="20"></a><button></button><a href="https://acme.test/b">read more</a>');
    expect(rules(report.issues)).toEqual(expect.arrayContaining(['link-no-accessible-name', 'button-no-accessible-name', 'link-generic-text']));
  });

  it('flags layout tables without role="presentation" but not data tables', () => {
    expect(rules(a11y('<table><tr><td>Layout</td></tr></table>').issues)).toEqual(['layout-table-missing-role']);
    expect(rules(a11y('<table><tr><th>Item</th><th>Price</th></tr><tr><td>Tea</td><td>£3</td></tr></table>').issues)).toEqual([]);
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

  it('compares the exact ratio with WCAG\'s threshold, never a rounded one', () => {
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
