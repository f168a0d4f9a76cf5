import { CLIENT_IDS } from '../../clients/email-client';
import { parseEmail } from '../../parse/parse-email';
import { buildFindingLedger } from '../finding-ledger';
import { emailPage, expectSoundFix, fixWith } from './testing/layout-fixtures';

const RULE = 'vml-background';
const OPEN_RECT = '<!--[if gte mso 9]><v:rect xmlns:v="urn:schemas-microsoft-com:vml" fill="true" stroke="false" style="width:600px;height:300px;">';
const CLOSE_RECT = '<!--[if gte mso 9]></v:textbox></v:rect><![endif]-->';

function wordBackgroundSeverity(html: string): string[] {
  return buildFindingLedger(parseEmail(html), 'html', CLIENT_IDS)
    .findings.filter((finding) => finding.rule === 'css-background-image' && finding.client === 'outlook-windows-legacy')
    .map((finding) => finding.severity);
}

const CONTENT = '<h1>Hello *|FNAME|*</h1><a href="{{ url }}">Shop now</a>';

describe('vml-background', () => {
  it("wraps a fixed-size cell's content in a VML rect filled with its CSS background image, leaving the content byte-identical", () => {
    const html = emailPage(
      '.hero { background-image: url(https://example.com/hero.jpg); }',
      `<table role="presentation"><tr><td class="hero" width="600" height="300" bgcolor="#333333" style="color: #ffffff;">${CONTENT}</td></tr></table>`,
    );
    expect(wordBackgroundSeverity(html)).toEqual(['warning']);
    const result = fixWith(html, RULE);
    expect(result.html).toContain(
      `<td class="hero" width="600" height="300" bgcolor="#333333" style="color: #ffffff;">${OPEN_RECT}` +
        '<v:fill type="tile" src="https://example.com/hero.jpg" color="#333333" /><v:textbox inset="0,0,0,0"><![endif]-->' +
        `${CONTENT}${CLOSE_RECT}</td>`,
    );
    expect(result.ours.map((fix) => fix.description)).toEqual(["a VML background (v:rect, 600x300px) for Outlook's Word engine on <td>"]);
    // The VML covers the finding in the Word engine: a warning no more.
    expect(wordBackgroundSeverity(result.html)).toEqual(['info']);
    expect(result.after.warnings).toBeLessThan(result.before.warnings);
    expectSoundFix(html, result);
  });

  it('reads the sizes from CSS, the color from the background shorthand, and frames a cover image; a merge tag URL is copied as written', () => {
    const html = emailPage(
      '',
      `<div style="width: 600px; height: 300px; background: #112233 url('{{ hero_url }}') center / cover no-repeat;">${CONTENT}</div>`,
    );
    const result = fixWith(html, RULE);
    expect(result.html).toContain(
      `${OPEN_RECT}<v:fill type="frame" aspect="atleast" origin="0.5,0.5" position="0.5,0.5" src="{{ hero_url }}" color="#112233" />` +
        `<v:textbox inset="0,0,0,0"><![endif]-->${CONTENT}${CLOSE_RECT}</div>`,
    );
    expectSoundFix(html, result);
  });

  it('refuses an element without a fixed width and height, with the reason', () => {
    const html = emailPage(
      '',
      `<table role="presentation" width="100%"><tr><td style="background-image: url(https://example.com/bg.png);">${CONTENT}</td></tr></table>`,
    );
    const result = fixWith(html, RULE);
    expect(result.ours).toEqual([]);
    expect(result.refused).toEqual([{ rule: RULE, line: 10, reason: expect.stringContaining('VML needs a fixed width and height in pixels') }]);
    expect(result.html).toBe(html);
  });

  it('leaves a cell that has its VML already, and puts no second shape inside one it adds', () => {
    const existing =
      '<td background="https://example.com/bg.png" width="600" height="300"><!--[if gte mso 9]><v:rect xmlns:v="urn:schemas-microsoft-com:vml" fill="true" stroke="false" style="width:600px;height:300px;"><v:fill type="tile" src="https://example.com/bg.png" /><v:textbox inset="0,0,0,0"><![endif]-->' +
      `<div style="background-image: url(https://example.com/inner.png); width: 100px; height: 100px;">x</div>${CLOSE_RECT}</td>`;
    const nested = `<td width="600" height="300" style="background-image: url(https://example.com/outer.png);"><div style="background-image: url(https://example.com/inner.png); width: 100px; height: 100px;">y</div></td>`;
    const html = emailPage('', `<table role="presentation"><tr>${existing}</tr><tr>${nested}</tr></table>`);
    const result = fixWith(html, RULE);
    expect(result.ours).toHaveLength(1);
    expect(result.html).toContain(
      '<v:fill type="tile" src="https://example.com/outer.png" /><v:textbox inset="0,0,0,0"><![endif]--><div style="background-image: url(https://example.com/inner.png)',
    );
    expect(result.html).not.toContain('src="https://example.com/inner.png"');
    expectSoundFix(html, result);
  });

  it('declares the VML namespace on <html> once, with the layout tier alone or with the safe tier adding the Office settings', () => {
    const html = emailPage(
      '',
      `<table role="presentation"><tr><td width="600" height="300" background="https://example.com/bg.png">${CONTENT}</td></tr></table>`,
    );
    const layoutOnly = fixWith(html, RULE);
    expect(layoutOnly.html).toContain('<html lang="en" xmlns:v="urn:schemas-microsoft-com:vml">');
    expect(layoutOnly.ours).toHaveLength(1);
    expectSoundFix(html, layoutOnly);
    const withSafe = fixWith(html, RULE, ['safe', 'layout']);
    expect(withSafe.ours).toHaveLength(1);
    expect(withSafe.html.match(/xmlns:v=/g)).toHaveLength(2); // <html> and the v:rect
    expect(withSafe.html).toContain('<html lang="en" xmlns:v="urn:schemas-microsoft-com:vml" xmlns:o="urn:schemas-microsoft-com:office:office">');
    expectSoundFix(html, withSafe, ['safe', 'layout']);
  });
});
