import { isValidVmlLength } from './vml-report';
import { email, reports, rules } from './testing/email-fixture';

const NAMESPACES = ' xmlns:v="urn:schemas-microsoft-com:vml" xmlns:o="urn:schemas-microsoft-com:office:office"';
const DPI = '<!--[if gte mso 9]><xml><o:OfficeDocumentSettings><o:AllowPNG/><o:PixelsPerInch>96</o:PixelsPerInch></o:OfficeDocumentSettings></xml><![endif]-->';

function vml(body: string, parts: { htmlAttributes?: string; head?: string } = { htmlAttributes: NAMESPACES, head: DPI }) {
  return reports(email(body, parts)).vmlReport;
}

const BUTTON =
  '<!--[if mso]><v:roundrect href="https://acme.test" style="height:40px;v-text-anchor:middle;width:200px;" arcsize="10%" fillcolor="#1a73e8" stroke="f"><w:anchorlock/><v:textbox inset="0,0,0,0"><center style="color:#ffffff;">Shop now</center></v:textbox></v:roundrect><![endif]-->';
const GHOST_OPEN = '<!--[if mso]><table role="presentation" width="600"><tr><td><![endif]-->';
const GHOST_CLOSE = '<!--[if mso]></td></tr></table><![endif]-->';

describe('vmlReport', () => {
  it('is null when the email has no Outlook conditionals or VML', () => {
    expect(vml('<p>Plain</p>', {})).toBeNull();
  });

  it('accepts a well-formed bulletproof button and a balanced ghost table', () => {
    const report = vml(`${GHOST_OPEN}<div>Content</div>${BUTTON}${GHOST_CLOSE}`);
    expect(report).toMatchObject({ conditionalBlocks: 4, vmlElements: 2, namespaces: { vml: true, office: true }, issues: [] });
  });

  it('finds a ghost table that is never closed, with its position', () => {
    const report = vml(`${GHOST_OPEN}<div>Content</div>`);
    expect(rules(report!.issues)).toEqual(['ghost-table-unclosed', 'ghost-table-unclosed', 'ghost-table-unclosed']);
    expect(report!.issues[0]).toMatchObject({ severity: 'error', line: 1, element: '<table role="presentation" width="600">' });
    expect(rules(vml(`<div>x</div>${GHOST_CLOSE}`)!.issues)).toContain('ghost-table-unbalanced');
  });

  it('finds unbalanced VML, invalid dimensions, arcsize out of range and text outside a textbox', () => {
    const broken = '<!--[if mso]><v:roundrect style="height:px;width:200px" arcsize="150%" fillcolor="#1a73e8">Shop now<![endif]-->';
    expect(rules(vml(broken)!.issues)).toEqual(
      expect.arrayContaining(['vml-invalid-dimension', 'vml-arcsize-range', 'vml-unrendered-text', 'vml-unbalanced-tag']),
    );
    expect(rules(vml('<!--[if mso]><v:rect style="width:600px;height:300px"><v:fill type="tile" /></v:rect><![endif]-->')!.issues)).toEqual([
      'vml-missing-src',
    ]);
  });

  it('wants the VML and Office namespaces and PixelsPerInch when VML is used', () => {
    const report = vml(BUTTON, {});
    expect(rules(report!.issues)).toEqual(expect.arrayContaining(['missing-vml-namespace', 'missing-office-namespace', 'missing-pixels-per-inch']));
  });

  it('flags VML outside conditionals and unterminated conditionals', () => {
    expect(rules(vml('<v:rect style="width:10px;height:10px"></v:rect>')!.issues)).toContain('vml-outside-conditional');
    expect(rules(vml('<!--[if mso]><table><tr><td>x</td></tr></table>-->')!.issues)).toContain('unterminated-conditional');
    expect(rules(vml('<!--[if !mso]><!--><p>Others</p>')!.issues)).toContain('unbalanced-conditional');
    expect(vml('<!--[if !mso]><!--><p>Others</p><!--<![endif]-->', {})).toBeNull();
  });

  it('validates VML lengths', () => {
    expect(isValidVmlLength('600px')).toBe(true);
    expect(isValidVmlLength('.5in')).toBe(true);
    expect(isValidVmlLength('px')).toBe(false);
    expect(isValidVmlLength('NaNpx')).toBe(false);
  });
});
