import { EngineInputError } from '../analyze-email';
import type { FixTier } from './fix-model';
import { fixEmail } from './fix-email';

function page(head: string, body: string, htmlAttributes = ' lang="en"'): string {
  return `<!DOCTYPE html>\n<html${htmlAttributes}>\n<head>\n<meta charset="utf-8">\n<title>t</title>\n${head}\n</head>\n<body>\n${body}\n</body>\n</html>\n`;
}

function appliedRules(html: string, tiers?: FixTier[]): string[] {
  return fixEmail(html, tiers ? { tiers } : {}).applied.map((fix) => fix.rule);
}

describe('layout-table-role', () => {
  it('marks a layout table and leaves data tables (header cells, caption, scope) with their semantics', () => {
    const html = page(
      '',
      '<table><tr><td>Layout</td></tr></table>\n<table><tr><th>Item</th></tr><tr><td>1</td></tr></table>\n<table><caption>Totals</caption><tr><td>1</td></tr></table>\n<table><tr><td scope="row">Total</td><td>1</td></tr></table>',
    );
    const result = fixEmail(html);
    expect(result.html).toContain('<table role="presentation"><tr><td>Layout</td></tr></table>');
    expect(result.html).toContain('<table><tr><th>Item</th>');
    expect(result.html).toContain('<table><caption>Totals</caption>');
    expect(result.html).toContain('<table><tr><td scope="row">Total</td>');
    expect(result.applied.filter((fix) => fix.rule === 'layout-table-role')).toHaveLength(1);
    expect(result.skipped.filter((skip) => skip.rule === 'layout-table-role')).toHaveLength(3);
  });

  it('leaves a table with a role of its own as written, and says so; presentation and none are done already', () => {
    const html = page('', '<table role="module"><tr><td>A</td></tr></table>\n<table role="none"><tr><td>B</td></tr></table>');
    const result = fixEmail(html);
    expect(result.applied.filter((fix) => fix.rule === 'layout-table-role')).toEqual([]);
    expect(result.skipped.filter((skip) => skip.rule === 'layout-table-role')).toEqual([
      expect.objectContaining({ reason: expect.stringContaining('role="module"') }),
    ]);
  });
});

describe('decorative-image-alt', () => {
  it('gives tracking pixels and spacers alt="", and a content image a suggestion only', () => {
    const html = page(
      '',
      '<img src="https://example.com/open.gif" width="1" height="1">\n<img src="https://example.com/images/spacer.gif" width="20" height="10">\n<img src="https://example.com/hero.jpg" width="600" height="300">',
    );
    const result = fixEmail(html);
    expect(result.html).toContain('<img src="https://example.com/open.gif" width="1" height="1" alt="">');
    expect(result.html).toContain('<img src="https://example.com/images/spacer.gif" width="20" height="10" alt="">');
    expect(result.html).toContain('<img src="https://example.com/hero.jpg" width="600" height="300">');
    expect(result.skipped).toContainEqual(expect.objectContaining({ rule: 'decorative-image-alt', reason: expect.stringContaining('suggestion only') }));
  });
});

describe('head fixes', () => {
  it('adds the Office settings block, the Apple meta and the namespaces once, and never twice', () => {
    const html = page('', '<p>Hi</p>');
    const result = fixEmail(html);
    expect(result.html.match(/PixelsPerInch/g)).toHaveLength(2);
    expect(result.html.match(/x-apple-disable-message-reformatting/g)).toHaveLength(1);
    expect(result.html).toContain('xmlns:v="urn:schemas-microsoft-com:vml"');
    expect(fixEmail(result.html).applied).toEqual([]);
    const withBlock = page(
      '<meta name="x-apple-disable-message-reformatting">\n<!--[if gte mso 9]><xml><o:OfficeDocumentSettings><o:PixelsPerInch>96</o:PixelsPerInch></o:OfficeDocumentSettings></xml><![endif]-->',
      '<p>Hi</p>',
      ' lang="en" xmlns:v="urn:schemas-microsoft-com:vml" xmlns:o="urn:schemas-microsoft-com:office:office"',
    );
    expect(appliedRules(withBlock)).toEqual([]);
  });

  it('adds the color-scheme metas only to an email that has dark-mode rules', () => {
    expect(appliedRules(page('<style>p { color: #111111; }</style>', '<p>Hi</p>'))).not.toContain('color-scheme-meta');
    const dark = fixEmail(page('<style>@media (prefers-color-scheme: dark) { p { color: #eeeeee !important; } }</style>', '<p>Hi</p>'));
    expect(dark.html).toContain('<meta name="color-scheme" content="light dark">');
    expect(dark.html).toContain('<meta name="supported-color-schemes" content="light dark">');
  });
});

describe('value fixes', () => {
  it('writes !important in lower case with a space, keeping display as Yahoo needs it', () => {
    const result = fixEmail(page('<style>.a { color: #111111!IMPORTANT; } .b { display: block!IMPORTANT; }</style>', '<p class="a">x</p><p class="b">y</p>'));
    expect(result.html).toContain('.a { color: #111111 !important; } .b { display: block!important; }');
    // Fixing again leaves display as it is, and says why: no spelling serves both Yahoo and Word.
    const again = fixEmail(result.html);
    expect(again.applied).toEqual([]);
    expect(again.skipped).toContainEqual(expect.objectContaining({ rule: 'normalize-important', reason: expect.stringContaining('Yahoo') }));
  });

  it('names the clients a gradient fallback helps from caniemail: Outlook on Windows, not Apple Mail', () => {
    const result = fixEmail(page('', '<div style="background: linear-gradient(#ff0000, #0000ff)">x</div>'));
    const fallback = result.applied.find((fix) => fix.rule === 'gradient-fallback-color');
    expect(fallback?.clients).toEqual(expect.arrayContaining(['outlook-windows', 'outlook-windows-legacy']));
    expect(fallback?.clients).not.toContain('apple-mail-macos');
  });

  it('writes space-separated colors with commas and 3-digit hex with 6 digits, in styles and color attributes', () => {
    const result = fixEmail(
      page('', '<p style="color: rgb(0 0 0); border-color: #abc;">x</p>\n<table role="presentation" bgcolor="#fff"><tr><td>y</td></tr></table>'),
    );
    expect(result.html).toContain('<p style="color: rgb(0, 0, 0); border-color: #aabbcc;">x</p>');
    expect(result.html).toContain('bgcolor="#ffffff"');
  });

  it('ends a font stack with its generic family, and leaves one that has it', () => {
    const result = fixEmail(page('', '<p style="font-family: Georgia, Times;">x</p><p style="font-family: Arial, sans-serif;">y</p>'));
    expect(result.html).toContain('font-family: Georgia, Times, serif;');
    expect(result.html).toContain('font-family: Arial, sans-serif;');
  });

  it("puts the gradient's first stop in front as background-color, unless the block has one", () => {
    const result = fixEmail(
      page(
        '',
        '<div style="background: linear-gradient(#336699, #000000); color: #ffffff;">x</div><div style="background-color: #000000; background-image: linear-gradient(#336699, #000000); color: #ffffff;">y</div>',
      ),
    );
    expect(result.html).toContain('<div style="background-color: #336699; background: linear-gradient(#336699, #000000); color: #ffffff;">x</div>');
    expect(result.html).toContain('<div style="background-color: #000000; background-image: linear-gradient(#336699, #000000);');
  });
});

describe('fixEmail', () => {
  it('keeps merge tags, conditional comments and VML byte for byte', () => {
    const protectedText = [
      '{{ first_name | default: "there" }}',
      '*|FNAME|*',
      '%%=v(@name)=%%',
      '{% if vip %}',
      '{% endif %}',
      '<!--[if mso]><table role="presentation" width="600"><tr><td><![endif]-->',
      '<!--[if gte mso 9]><v:rect xmlns:v="urn:schemas-microsoft-com:vml" fill="true" stroke="false" style="width:600px;height:200px;"><v:fill type="frame" src="https://example.com/bg.png" color="#ffffff" /><v:textbox inset="0,0,0,0"><![endif]-->',
      '<!--[if gte mso 9]></v:textbox></v:rect><![endif]-->',
      '<!--[if mso]></td></tr></table><![endif]-->',
      '<!--[if !mso]><!--><p>Not Outlook</p><!--<![endif]-->',
    ];
    const html = page(
      '<style>.a { color: #abc!IMPORTANT; font-family: Brand; }</style>',
      `${protectedText[5]}\n<table><tr><td class="a" style="color: #fff;">Hi {{ first_name | default: "there" }} *|FNAME|* %%=v(@name)=%%\n{% if vip %}<b style="color: #123;">VIP</b>{% endif %}</td></tr></table>\n${protectedText[6]}\n<div>x</div>\n${protectedText[7]}\n${protectedText[8]}\n${protectedText[9]}\n<img src="https://example.com/o.gif" width="1" height="1">`,
    );
    const result = fixEmail(html);
    expect(result.applied.length).toBeGreaterThan(5);
    for (const text of protectedText) expect(result.html.split(text).length).toBe(html.split(text).length);
    const comments = (text: string) => text.match(/<!--[\s\S]*?-->|\{\{[\s\S]*?\}\}|\{%[\s\S]*?%\}|\*\|[^|]*\|\*|%%[^%]*%%/g);
    // Every comment of the submitted email is in the answer, in order (the Office settings block is added).
    expect(comments(result.html)?.filter((text) => !text.includes('PixelsPerInch'))).toEqual(comments(html));
    expect(fixEmail(result.html).applied).toEqual([]);
  });

  it('rolls back a fix that would introduce a finding, lists it with the reason, and keeps the rest of its rule', () => {
    // Resolving var(--shadow) writes rgba(), which Outlook's Word engine does not support: a new warning.
    const html = page(
      '<style>:root { --shadow: rgb(0 0 0 / 50%); }\n.a { color: var(--shadow); }\n.b { width: calc(10px + 5px); }</style>',
      '<p class="a">x</p><p class="b">y</p>',
    );
    const result = fixEmail(html);
    expect(result.html).toContain('.a { color: var(--shadow); }');
    expect(result.html).toContain('.b { width: 15px; }');
    expect(result.applied.map((fix) => fix.rule)).toContain('static-css-values');
    // Listed once, at its first edit in the submitted email (the definition, line 6), not again by a later pass.
    expect(result.skipped.filter((skip) => skip.rule === 'static-css-values')).toHaveLength(1);
    expect(result.skipped).toContainEqual({
      rule: 'static-css-values',
      line: 6,
      reason: expect.stringMatching(/^rolled back: it would introduce the warning css-rgba/),
    });
    expect(result.introduced).toEqual([]);
  });

  it('answers the compiled HTML for jsx and Maizzle, with the framework snippet of each fix', () => {
    const result = fixEmail(page('', '<p style="color: #abc;">x</p>'), { format: 'jsx' });
    expect(result.patched).toBe('compiled-html');
    expect(result.applied.find((fix) => fix.rule === 'six-digit-hex')?.snippet).toMatchObject({ language: 'jsx', after: expect.stringContaining('#ffffff') });
    expect(
      fixEmail(page('', '<p style="color: #abc;">x</p>'), { format: 'maizzle' }).applied.find((fix) => fix.rule === 'six-digit-hex')?.snippet?.after,
    ).toContain('sixHex');
    const plain = fixEmail(page('', '<p style="color: #abc;">x</p>'));
    expect(plain.patched).toBe('source');
    expect(plain.applied.every((fix) => fix.snippet === undefined)).toBe(true);
  });

  it('refuses unknown tiers, clients and formats with EngineInputError', () => {
    const html = page('', '<p>x</p>');
    expect(() => fixEmail(html, { tiers: ['safe', 'bold' as FixTier] })).toThrow(EngineInputError);
    expect(() => fixEmail(html, { tiers: ['bold' as FixTier] })).toThrow(expect.objectContaining({ field: 'tiers', code: 'validation_failed' }));
    expect(() => fixEmail(html, { clients: ['outlook-2003' as never] })).toThrow(expect.objectContaining({ field: 'clients' }));
    expect(() => fixEmail(html, { format: 'pug' as never })).toThrow(expect.objectContaining({ field: 'format' }));
  });

  it('applies the layout tier only when asked', () => {
    const html = page('<style>.a { color: #111111; }</style>', '<p class="a">x</p>');
    expect(fixEmail(html).applied.every((fix) => fix.tier === 'safe')).toBe(true);
  });
});

describe('suggestions only', () => {
  it('never guesses the lang value or link text: it lists them in skipped and changes nothing there', () => {
    const html = page('', '<p><a href="https://example.com/order">Click here</a></p>', '');
    const result = fixEmail(html);
    expect(result.html).not.toMatch(/<html[^>]*\slang=/);
    expect(result.html).toContain('>Click here</a>');
    expect(result.skipped).toContainEqual(expect.objectContaining({ rule: 'document-language', reason: expect.stringMatching(/^suggestion only: set lang/) }));
    expect(result.skipped).toContainEqual(
      expect.objectContaining({ rule: 'link-text', line: 9, reason: expect.stringMatching(/^suggestion only: write link text/) }),
    );
    expect(result.applied.map((fix) => fix.rule)).not.toContain('document-language');
    expect(fixEmail(page('', '<p><a href="https://example.com/order">View your order</a></p>')).skipped.map((skip) => skip.rule)).not.toContain('link-text');
  });
});
