import { analyzeEmail } from '../analyze-email';

const HEAD_SETTINGS = `<!--[if mso]><noscript><xml><o:OfficeDocumentSettings xmlns:o="urn:schemas-microsoft-com:office:office"><o:PixelsPerInch>96</o:PixelsPerInch></o:OfficeDocumentSettings></xml></noscript><![endif]-->`;

function wordFinding(html: string, property: string) {
  return analyzeEmail(html, { clients: ['outlook-windows-legacy'], reports: false }).cssReport.find((finding) => finding.property === property);
}

describe('Outlook fallbacks cover only what they wrap', () => {
  it('a head-only OfficeDocumentSettings block covers nothing', () => {
    const html = `<html><head>${HEAD_SETTINGS}</head><body><div style="display:flex"><p>a</p><p>b</p></div></body></html>`;
    expect(wordFinding(html, 'display:flex')).toMatchObject({ severity: 'error' });
  });

  it('a ghost table covers the elements beside it, not the rest of the email', () => {
    const wrapped = `<div class="outer"><!--[if mso]><table role="presentation" width="600"><tr><td><![endif]--><div style="display:flex"><p>a</p><p>b</p></div><!--[if mso]></td></tr></table><![endif]--></div>`;
    const covered = wordFinding(`<html><head>${HEAD_SETTINGS}</head><body>${wrapped}</body></html>`, 'display:flex');
    expect(covered).toMatchObject({ severity: 'info', message: expect.stringContaining('an MSO conditional (<!--[if mso]>) fallback') });
    const elsewhere = wordFinding(`<html><body>${wrapped}<div style="display:flex">Footer</div></body></html>`, 'display:flex');
    expect(elsewhere).toMatchObject({ severity: 'error' });
    expect(elsewhere!.message).not.toContain('fallback');
  });

  it('a VML shape covers the cell holding it and its siblings, not another cell', () => {
    const button = `<td style="border-radius:6px"><!--[if mso]><v:roundrect xmlns:v="urn:schemas-microsoft-com:vml" arcsize="10%" style="width:200px;height:40px"><center>Go</center></v:roundrect><![endif]--><a href="https://x.test" style="border-radius:6px">Go</a></td>`;
    expect(wordFinding(`<table><tr>${button}</tr></table>`, 'border-radius')).toMatchObject({
      severity: 'info',
      message: expect.stringContaining('VML <v:roundrect>'),
    });
    const other = `<table><tr>${button}<td style="border-radius:6px">Other</td></tr></table>`;
    expect(wordFinding(other, 'border-radius')?.severity).not.toBe('info');
  });
});

describe('the Word engine view hides what Word hides', () => {
  it('drops <xml> islands and <noscript> from conditional blocks: no stray "96"', () => {
    const html = `<html><head>${HEAD_SETTINGS}</head><body><!--[if mso]><table><tr><td>Word only</td></tr></table><![endif]--><p>Hello</p></body></html>`;
    const view = analyzeEmail(html, { clients: ['outlook-windows-legacy'], reports: false }).transforms[0].html;
    expect(view).not.toMatch(/PixelsPerInch|>96<|<xml|<noscript/i);
    expect(view).toContain('<td>Word only</td>');
  });
});
