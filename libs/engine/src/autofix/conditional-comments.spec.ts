import { CLIENT_IDS } from '../clients/email-client';
import { parseEmail } from '../parse/parse-email';
import { buildFindingLedger } from './finding-ledger';
import { fixEmail } from './fix-email';

const RULE = 'conditional-comment-repair';
const HEAD =
  '<!DOCTYPE html>\n<html lang="en" xmlns:v="urn:schemas-microsoft-com:vml" xmlns:o="urn:schemas-microsoft-com:office:office">\n<head>\n<title>t</title>\n' +
  '<!--[if mso]><xml><o:OfficeDocumentSettings><o:AllowPNG/><o:PixelsPerInch>96</o:PixelsPerInch></o:OfficeDocumentSettings></xml><![endif]-->\n</head>\n';

function page(body: string): string {
  return `${HEAD}<body>\n${body}\n</body>\n</html>\n`;
}

function vmlFindings(html: string, rule: string): number {
  return buildFindingLedger(parseEmail(html), 'html', CLIENT_IDS).count({ report: 'vml', rule });
}

function repaired(html: string) {
  const result = fixEmail(html);
  return { ...result, ours: result.applied.filter((fix) => fix.rule === RULE) };
}

describe('conditional-comment-repair', () => {
  it('writes a condition broken across lines, and a broken <![endif], on one line (react-email #1813, #2373)', () => {
    const html = page(
      '<a href="https://example.com/"><span><!--[if mso\n      ]><i style="mso-font-width: 500%; mso-text-raise: 18" hidden>&#8202;</i\n    ><!\n    [endif]--></span>Go</a>',
    );
    expect(vmlFindings(html, 'unterminated-conditional')).toBe(1);
    const result = repaired(html);
    expect(result.html).toContain('<span><!--[if mso]><i style="mso-font-width: 500%; mso-text-raise: 18" hidden>&#8202;</i\n    ><![endif]--></span>');
    expect(result.ours).toHaveLength(1);
    expect(result.ours[0].clients).toEqual(['outlook-windows', 'outlook-windows-legacy']);
    expect(vmlFindings(result.html, 'unterminated-conditional')).toBe(0);
    expect(result.resolved[RULE]).toBe(1);
  });

  it('removes a space between <!-- and [if (mjml #2835) and the slash of <![endif]/--> (jsx-email #403)', () => {
    const html = page('<!-- [if mso]><table role="presentation"><tr><td><![endif]-->\n<p>Hello</p>\n<!--[if mso]></td></tr></table><![endif]/-->');
    const result = repaired(html);
    expect(result.html).toContain('<!--[if mso]><table role="presentation"><tr><td><![endif]-->\n<p>Hello</p>\n<!--[if mso]></td></tr></table><![endif]-->');
    expect(result.ours).toHaveLength(2);
  });

  it('writes <!--[endif]--> as <![endif]--> when it closes an [if mso] comment', () => {
    const html = page('<!--[if mso]><table role="presentation"><tr><td><!--[endif]-->\n<p>Hello</p>\n<!--[if mso]></td></tr></table><![endif]-->');
    expect(vmlFindings(html, 'unterminated-conditional')).toBe(1);
    const result = repaired(html);
    expect(result.html).toContain('<!--[if mso]><table role="presentation"><tr><td><![endif]-->\n<p>Hello</p>');
    expect(vmlFindings(result.html, 'unterminated-conditional')).toBe(0);
  });

  it('writes <!--[endif]--> as <!--<![endif]--> when it closes an <!--[if !mso]><!--> block', () => {
    const html = page('<!--[if !mso]><!--><p>Not Outlook</p><!--[endif]-->');
    expect(vmlFindings(html, 'unbalanced-conditional')).toBe(1);
    const result = repaired(html);
    expect(result.html).toContain('<!--[if !mso]><!--><p>Not Outlook</p><!--<![endif]-->');
    expect(vmlFindings(result.html, 'unbalanced-conditional')).toBe(0);
  });

  it('closes <![endif]> when the comment it leaves open swallowed only the next conditional comment', () => {
    const html = page(
      '<!--[if mso]><table role="presentation"><![endif]>\n<!--[if mso]><tr><td><![endif]-->\n<p>x</p>\n<!--[if mso]></td></tr></table><![endif]-->',
    );
    const result = repaired(html);
    expect(result.html).toContain('<!--[if mso]><table role="presentation"><![endif]-->\n<!--[if mso]><tr><td><![endif]-->');
  });

  it('leaves <![endif]> alone when closing it would reveal text, and the downlevel-revealed <![if !mso]> form', () => {
    const swallowing = page('<!--[if mso]><table role="presentation"><![endif]>\n<p>Only visible once repaired</p>\n<!--[if mso]></table><![endif]-->');
    expect(repaired(swallowing).ours).toEqual([]);
    const revealed = page('<![if !mso]><p>Not Outlook</p><![endif]>');
    expect(repaired(revealed).ours).toEqual([]);
  });

  it('leaves well-formed conditional comments and other comments byte for byte', () => {
    const html = page(
      '<!--[if gte mso 9]><v:rect xmlns:v="urn:schemas-microsoft-com:vml" fill="true" stroke="false" style="width:600px;height:200px;"><v:fill type="frame" src="https://example.com/bg.png" color="#ffffff" /><v:textbox inset="0,0,0,0"><![endif]-->\n' +
        '<div><p>Hello</p></div>\n<!--[if gte mso 9]></v:textbox></v:rect><![endif]-->\n<!--[if (mso)|(IE)]><table role="presentation"><tr><td><![endif]-->\n' +
        '<!-- a note [endif] -->\n<!--[if !mso]><!--><p>x</p><!--<![endif]-->\n<!--[if (mso)|(IE)]></td></tr></table><![endif]-->',
    );
    expect(repaired(html).ours).toEqual([]);
  });
});
