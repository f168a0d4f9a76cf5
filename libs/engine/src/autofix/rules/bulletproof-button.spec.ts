import { emailPage, expectSoundFix, fixWith } from './testing/layout-fixtures';

const RULE = 'bulletproof-button';

function table(cell: string): string {
  return `<table role="presentation"><tr>${cell}</tr></table>`;
}

describe('bulletproof-button', () => {
  it("gives a padded link with a background Word's padded-link markup, in comments only Word reads, text and merge tags as written", () => {
    const link =
      '<a href="{{ cta_url }}?id=*|UNIQID|*" style="background-color: #0867ec; color: #ffffff; padding: 12px 24px; display: inline-block;">Shop now, %%first_name%%</a>';
    const html = emailPage('', table(`<td align="center">${link}</td>`));
    const result = fixWith(html, RULE);
    expect(result.html).toContain(
      '<a href="{{ cta_url }}?id=*|UNIQID|*" style="background-color: #0867ec; color: #ffffff; padding: 12px 24px; display: inline-block; mso-padding-alt: 0">' +
        '<!--[if mso]><i style="letter-spacing:24px;mso-font-width:-100%;mso-text-raise:18pt">&nbsp;</i><span style="mso-text-raise:9pt"><![endif]-->' +
        'Shop now, %%first_name%%' +
        '<!--[if mso]></span><i style="letter-spacing:24px;mso-font-width:-100%">&nbsp;</i><![endif]--></a>',
    );
    expect(result.ours).toEqual([expect.objectContaining({ line: 10, clients: ['outlook-windows-legacy'] })]);
    expectSoundFix(html, result);
  });

  it('reads padding and background from <style> rules, and uses each side as written', () => {
    const html = emailPage(
      '.btn { background: #222222; padding: 10px 20px 6px 30px; }',
      table('<td><a class="btn" href="https://example.com/"><strong>Go</strong></a></td>'),
    );
    const result = fixWith(html, RULE);
    // inline-css adds the link's style attribute in the same request: the two fixes share it.
    expect(result.html).toContain('<a class="btn" href="https://example.com/" style="background: #222222; padding: 10px 20px 6px 30px; mso-padding-alt: 0">');
    expect(result.html).toContain(
      '<!--[if mso]><i style="letter-spacing:30px;mso-font-width:-100%;mso-text-raise:12pt">&nbsp;</i><span style="mso-text-raise:4.5pt"><![endif]--><strong>Go</strong>' +
        '<!--[if mso]></span><i style="letter-spacing:20px;mso-font-width:-100%">&nbsp;</i><![endif]--></a>',
    );
    expectSoundFix(html, result);
  });

  it('gives a cell painted as the button the padding of its sole link as mso-padding-alt', () => {
    const html = emailPage(
      '',
      table(
        '<td bgcolor="#e9703e" style="border-radius: 3px;">\n  <a href="https://example.com/" style="padding: 8px 12px; color: #ffffff; display: inline-block;">Go</a>\n</td>',
      ),
    );
    const result = fixWith(html, RULE);
    expect(result.html).toContain('<td bgcolor="#e9703e" style="border-radius: 3px; mso-padding-alt: 8px 12px 8px 12px">');
    expect(result.html).toContain('<a href="https://example.com/" style="padding: 8px 12px; color: #ffffff; display: inline-block;">Go</a>');
    expectSoundFix(html, result);
  });

  it('refuses an image link and padding not in pixels, with the reasons', () => {
    const html = emailPage(
      '',
      table(
        '<td><a href="https://example.com/a" style="background-color: #000000; padding: 10px;"><img src="https://example.com/b.png" alt="Buy" width="100"></a></td>' +
          '<td><a href="https://example.com/c" style="background-color: #000000; padding: 0.5em 1em;">Go</a></td>',
      ),
    );
    const result = fixWith(html, RULE);
    expect(result.ours).toEqual([]);
    expect(result.refused.map((skip) => skip.reason)).toEqual(['the link holds <img>: a padded-link button is text only', 'its padding is not in pixels']);
    expect(result.html).toBe(html);
  });

  it('leaves plain links, buttons with a VML roundrect, buttons done already and cells with their own padding', () => {
    const vml =
      '<td><div><!--[if mso]><v:roundrect xmlns:v="urn:schemas-microsoft-com:vml" href="https://example.com/" style="height:40px;v-text-anchor:middle;width:200px;" arcsize="10%" fillcolor="#556270"><v:textbox><center>Go</center></v:textbox></v:roundrect><![endif]-->' +
      '<!--[if !mso]><!--><a href="https://example.com/" style="background-color: #556270; padding: 10px 20px;">Go</a><!--<![endif]--></div></td>';
    const done = '<td><a href="https://example.com/d" style="background-color: #000000; padding: 10px 20px; mso-padding-alt: 0;">Done</a></td>';
    const padded = '<td bgcolor="#000000" style="padding: 10px 20px;"><a href="https://example.com/e" style="color: #ffffff;">Cell</a></td>';
    const plain = '<td><a href="https://example.com/f">Plain</a></td>';
    const html = `<!DOCTYPE html>\n<html lang="en" xmlns:v="urn:schemas-microsoft-com:vml">\n<head><title>t</title></head>\n<body>${table(vml + done + padded + plain)}</body>\n</html>\n`;
    const result = fixWith(html, RULE);
    expect(result.ours).toEqual([]);
    expect(result.refused).toEqual([]);
    expect(result.html).toBe(html);
  });
});
