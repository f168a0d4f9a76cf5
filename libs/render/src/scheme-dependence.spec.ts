import { isRasterImage, schemeDependence } from './scheme-dependence';

const page = (head: string, body = '<p>Hello</p>') => `<!doctype html><html><head>${head}</head><body>${body}</body></html>`;

describe('schemeDependence: can the page paint differently under prefers-color-scheme: dark?', () => {
  it('finds none in an email without dark rules (plain styles, tables, raster images, a data: PNG, a data: font)', () => {
    expect(
      schemeDependence(
        page(
          '<style>body{margin:0;color:#333} @media (max-width:600px){.col{display:block!important}} @font-face{font-family:X;src:url(data:font/woff2;base64,d09GMgAB)}</style>',
          '<table><tr><td style="background:#fff;padding:8px">Hi &amp; welcome &nbsp;&#8203;</td></tr></table>' +
            '<img src="https://example.com/logo.png" alt=""><img src="data:image/png;base64,iVBORw0KGgo=" alt=""><a href="https://example.com/?a=1%20b">link</a>',
        ),
      ),
    ).toBeNull();
  });

  it.each([
    ['a dark media query', '<style>@media (prefers-color-scheme: dark) { body { background: #000 } }</style>'],
    ['upper case', '<style>@MEDIA (PREFERS-COLOR-SCHEME: DARK) { BODY { BACKGROUND: #000 } }</style>'],
    ['white space around the feature', '<style>@media screen and ( prefers-color-scheme : dark ) { body { background: #000 } }</style>'],
    ['comments around it', '<style>@media/* a */(/* b */prefers-color-scheme/* c */:/* d */dark) { body { background: #000 } }</style>'],
    ['a CSS hex escape', '<style>@media (prefers-color-sch\\65 me: dark) { body { background: #000 } }</style>'],
    ['a six-digit CSS escape at the start', '<style>@media (\\000070refers-color-scheme: dark) { body { background: #000 } }</style>'],
    ['a CSS escape of a plain letter', '<style>@media (prefers-\\color-scheme: dark) { body { background: #000 } }</style>'],
    ['the light query (it matches in light only)', '<style>@media not all and (prefers-color-scheme: light) { body { background: #000 } }</style>'],
    ['a media attribute on <style>', '<style media="(prefers-color-scheme: dark)">body { background: #000 }</style>'],
    ['a media attribute with a character reference', '<style media="(prefers-color-&#115;cheme: dark)">body { background: #000 }</style>'],
    [
      'a decimal reference without its semicolon, and a hex one',
      '<style media="(prefers-color-&#115cheme: dark) and (prefers-color-sc&#x68;eme: dark)">body { background: #000 }</style>',
    ],
    [
      'a <link> with a media query (refused, but it says dark)',
      '<link rel="stylesheet" href="https://example.com/dark.css" media="(prefers-color-scheme: dark)">',
    ],
    ['an @import with a media query', '<style>@import url("https://example.com/dark.css") (prefers-color-scheme: dark);</style>'],
    ['the color-scheme property', '<style>:root { color-scheme: light dark; }</style>'],
    ['the color-scheme property in a style attribute', '', '<div style="color-scheme:dark">x</div>'],
    ['the color-scheme meta', '<meta name="color-scheme" content="light dark">'],
    ['the old supported-color-schemes meta', '<meta name="supported-color-schemes" content="light dark">'],
    ['light-dark()', '<style>body { color: light-dark(#000, #fff); }</style>'],
    ['light-dark() in upper case in a style attribute', '', '<div style="color:LIGHT-DARK(#000,#fff)">x</div>'],
    [
      '<picture> with a dark <source>',
      '',
      '<picture><source srcset="https://example.com/dark.png" media="(prefers-color-scheme: dark)"><img src="https://example.com/light.png"></picture>',
    ],
    [
      'a sizes attribute with the feature',
      '',
      '<img srcset="https://example.com/a.png 1x" sizes="(prefers-color-scheme: dark) 10px, 20px" src="https://example.com/a.png">',
    ],
    [
      'inline SVG with a <style>',
      '',
      '<svg width="10" height="10"><style>@media (prefers-color-scheme:dark){rect{fill:#fff}}</style><rect width="10" height="10"/></svg>',
    ],
    ['inline SVG without one (conservative)', '', '<svg width="10" height="10"><rect width="10" height="10"/></svg>'],
    [
      'inline SVG whose <style> hides the query in references (SVG text is decoded)',
      '',
      '<svg><style>@media (&#112;refers-color-scheme:dark){rect{fill:#fff}}</style></svg>',
    ],
    ['an .svg image', '', '<img src="https://example.com/logo.svg" alt="">'],
    ['an .SVG image in CSS', '<style>.a { background-image: url(https://example.com/LOGO.SVG) }</style>'],
    ['a data: SVG', '', '<img src="data:image/svg+xml,%3Csvg xmlns=%22http://www.w3.org/2000/svg%22/%3E" alt="">'],
    ['a data: SVG with a percent-encoded type', '', '<img src="data:image/sv%67+xml;base64,PHN2Zz4=" alt="">'],
    ['a data: SVG with an escaped type in CSS', '<style>.a { background: url(data:image/s\\76g+xml;base64,PHN2Zz4=) }</style>'],
    [
      'a base64 data: URL of another type',
      '',
      '<iframe src="data:text/html;base64,PHN0eWxlPkBtZWRpYSAocHJlZmVycy1jb2xvci1zY2hlbWU6ZGFyayl7fTwvc3R5bGU+"></iframe>',
    ],
    ['a data: stylesheet', '<link rel="stylesheet" href="data:text/css,body{}">'],
    [
      'a srcdoc with a doubly encoded query',
      '',
      '<iframe srcdoc="&lt;style&gt;@media (prefers-color-sch&amp;#101;me: dark) { body { background: #000 } }&lt;/style&gt;"></iframe>',
    ],
    [
      'a legacy &amp without its semicolon',
      '',
      '<iframe srcdoc="&lt;style&gt;@media (prefers&ampcolon;x) (prefers-color-&amp#115;cheme:dark){}&lt;/style&gt;"></iframe>',
    ],
    ['an escape spelled with a character reference', '', '<div style="color-sch&bsol;65 me: dark">x</div>'],
    ['a percent sign spelled as a CSS escape, then percent-encoding', '<style>.a{background:url(data:image/sv\\25 67+xml,x)}</style>'],
    [
      'the query inside <noscript> (markup there when scripts are off)',
      '<noscript><style>@media (prefers-color-scheme:dark){body{background:#000}}</style></noscript>',
    ],
    ['the words in visible text (a harmless false alarm)', '', '<p>Our newsletter now honours prefers-color-scheme.</p>'],
  ])('finds %s', (...[, head, body]: string[]) => {
    expect(schemeDependence(page(head, body || undefined))).not.toBeNull();
  });

  it('says which construct it found', () => {
    expect(schemeDependence(page('<meta name="color-scheme" content="dark">'))).toMatch(/color-scheme/);
    expect(schemeDependence(page('', '<img src="x.svg">'))).toMatch(/SVG/);
    expect(schemeDependence(page('', '<a href="data:text/plain,hi">x</a>'))).toMatch(/data:/);
  });

  it('does not treat a comment-split name as the feature nor miss a media query in a comment-free rule', () => {
    // A name split by a comment is no media feature for the browser either; the test still finds the words (conservative).
    expect(schemeDependence(page('<style>@media (prefers-/* x */color-scheme: dark) {}</style>'))).not.toBeNull();
    expect(schemeDependence(page('<style>/* no dark rules here */ body { color: #000 }</style>'))).toBeNull();
  });

  it('gives up as dependent when the markup is encoded more ways than it follows', () => {
    // Each level of &amp; adds a decoding; far more levels than any email has.
    const deep = `<p title="${'&amp;'.repeat(1)}${'amp;'.repeat(80)}x">y</p>`;
    expect(schemeDependence(page('', deep))).toMatch(/too many ways/);
  });
});

describe('isRasterImage', () => {
  const bytes = (head: number[] | string) => Buffer.concat([typeof head === 'string' ? Buffer.from(head, 'latin1') : Buffer.from(head), Buffer.alloc(16)]);

  it.each([
    ['PNG', bytes([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])],
    ['JPEG', bytes([0xff, 0xd8, 0xff, 0xe0])],
    ['GIF', bytes('GIF89a')],
    ['WebP', bytes('RIFF\x10\x00\x00\x00WEBPVP8 ')],
    ['BMP', bytes('BM')],
  ])('takes %s', (_, body) => {
    expect(isRasterImage(body)).toBe(true);
  });

  it.each([
    ['SVG', Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><style>@media (prefers-color-scheme:dark){}</style></svg>')],
    ['SVG after an XML declaration and a BOM', Buffer.from('\ufeff<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg"/>')],
    ['a RIFF that is not WebP', bytes('RIFF\x10\x00\x00\x00AVI LIST')],
    ['AVIF (not listed: the list is what Chromium cannot read as SVG)', bytes([0, 0, 0, 0x1c, 0x66, 0x74, 0x79, 0x70, 0x61, 0x76, 0x69, 0x66])],
    ['a few bytes', Buffer.from([0x89, 0x50])],
  ])('refuses %s', (_, body) => {
    expect(isRasterImage(body)).toBe(false);
  });
});
