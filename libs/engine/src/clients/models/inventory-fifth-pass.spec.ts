import { analyzeEmail } from '../../analyze-email';
import { CLIENT_IDS, type ClientId } from '../email-client';
import { CLIENT_MODELS } from './client-models';
import { FIFTH_PASS_BEHAVIORS } from './inventory-fifth-pass.model';

/**
 * The behaviours of the inventory's fifth pass (inventory-fifth-pass.model.ts): where a client supports what the
 * email uses, none gives a finding or changes the markup; where the documented limit is hit, only the clients that
 * have it in their model react.
 */
const NEW_RULES = new Set(
  Object.values(FIFTH_PASS_BEHAVIORS)
    .flat()
    .map((b) => b?.id),
);

const analyze = (html: string) => analyzeEmail(html, { reports: false });
const htmlOf = (result: ReturnType<typeof analyze>, client: ClientId): string => result.transforms.find((t) => t.clientId === client)?.html ?? '';

describe('inventory fifth pass: no finding where the client supports what the email uses', () => {
  it.each([
    [
      'a link with dir on its paragraph, pixel image sizes',
      '<p dir="rtl"><a href="https://example.com/a">x</a></p><img src="https://example.com/a.png" width="600" height="20" alt="A">',
    ],
    [
      '<style> in <head> and at the start of <body>',
      '<html><head><style>.a{color:#102030}</style></head><body><style>.b{color:#203040}</style><p class="a b">x</p></body></html>',
    ],
    [
      'BEM class names',
      '<html><head><style>.card__title--big{color:#102030}.a-b_c{color:#203040}</style></head><body><p class="card__title--big a-b_c">x</p></body></html>',
    ],
    ['a table without caption, divs instead of sections', '<table><tr><td>x</td></tr></table><div><p>y</p></div>'],
    [
      'screen queries on width and resolution',
      '<html><head><style>.a{color:#102030}@media only screen and (max-width:600px),(min-resolution:2dppx){.a{color:#203040}}</style></head><body><p class="a">x</p></body></html>',
    ],
    [
      'display:none, an embedded background image, a linked address',
      '<div style="display:none;background-image:url(data:image/gif;base64,R0lGODlhAQABAAAAACw=)"><a href="https://example.com/a">https://example.com/a</a></div>',
    ],
    [
      'text without a font-size of its own, a local style sheet',
      '<html><head><link rel="stylesheet" href="mail.css"></head><body style="word-spacing:normal"><p>x</p></body></html>',
    ],
  ])('%s', (_name, html) => {
    const result = analyze(html);
    expect(result.cssReport.filter((f) => NEW_RULES.has(f.rule)).map((f) => `${f.client} ${f.rule}`)).toEqual([]);
  });

  it('reports each limit for the clients that have it, and only for them', () => {
    const html = `<html><head></head><body><p class="_x">intro <a href="https://example.com/a" dir="rtl">x</a></p>
<img src="https://example.com/a.png" width="100%" alt="A"><style>._x{color:#ff0000}</style></body></html>`;
    const found = analyze(html).cssReport.filter((f) => NEW_RULES.has(f.rule));
    for (const { client, rule } of found) expect(CLIENT_MODELS[client as ClientId].behaviors.some((b) => b.id === rule)).toBe(true);
    const clientsOf = (rule: string) => [...new Set(found.filter((f) => f.rule === rule).map((f) => f.client))];
    expect(clientsOf('word-dir-on-links-ignored')).toEqual(['outlook-windows-legacy']);
    expect(clientsOf('word-percent-image-size')).toEqual(['outlook-windows-legacy']);
    expect(clientsOf('word-style-after-content')).toEqual(['outlook-windows-legacy']);
  });

  it('reports the vendor-page limits for their clients only', () => {
    const html = `<html><head><link rel="stylesheet" href="https://example.com/m.css"><style>@media print{.a{color:#ff0000}}</style></head>
<body><p class="a" style="font-size:16px;background:#102030 url(https://example.com/bg.png)">See https://example.com/x <span style="display:block">now</span></p></body></html>`;
    const found = analyze(html).cssReport.filter((f) => NEW_RULES.has(f.rule));
    const clientsOf = (rule: string) => [...new Set(found.filter((f) => f.rule === rule).map((f) => f.client))].sort();
    expect(clientsOf('gmail-media-query-allowlist')).toEqual(['gmail-android', 'gmail-ios', 'gmail-web']);
    expect(clientsOf('thunderbird-remote-css-images-blocked')).toEqual(['thunderbird']);
    // The linked style sheet is caniemail's html-link finding (unsupported in Thunderbird), reported once.
    expect(
      analyze(html)
        .cssReport.filter((f) => f.client === 'thunderbird' && /link/.test(f.property ?? ''))
        .map((f) => f.rule),
    ).toEqual(['html-link']);
    const cell = htmlOf(analyze('<table><tr><td background="https://example.com/bg.png" bgcolor="#102030">x</td></tr></table>'), 'thunderbird');
    expect(cell).not.toContain('bg.png');
    expect(cell).toContain('bgcolor="#102030"');
    expect(clientsOf('proton-raw-urls-linked')).toEqual(['protonmail']);
    expect(clientsOf('word-display-only-none')).toEqual(['outlook-windows-legacy']);
  });

  it('links https:// addresses in Proton only: http://, www. and bare hosts stay text (its linkify-it instance)', () => {
    const html = htmlOf(analyze('<p>a https://example.com/s b http://example.com/p c www.example.com d example.com</p>'), 'protonmail');
    expect(html).toContain(
      '<a href="https://example.com/s" target="_blank">https://example.com/s</a> b http://example.com/p c www.example.com d example.com</p>',
    );
    expect(html.match(/<a /g)).toHaveLength(1);
  });

  it("does not report Word's <style> order for a block after a wrapper it does not style", () => {
    const rules = (html: string) => analyze(html).cssReport.filter((f) => f.rule === 'word-style-after-content').length;
    expect(rules('<html><head></head><body><div class="w"><style>.a{color:#102030}</style><p class="a">x</p></div></body></html>')).toBe(0);
    expect(rules('<html><head></head><body><div class="w"><style>.w{color:#102030}</style><p>x</p></div></body></html>')).toBe(1);
  });

  it("escapes the text around Proton's added links", () => {
    const html = htmlOf(analyze('<p>a &lt;b&gt; https://example.com/x?y=1&amp;z=2 c</p>'), 'protonmail');
    expect(html).toContain('a &lt;b&gt; <a href="https://example.com/x?y=1&amp;z=2" target="_blank">https://example.com/x?y=1&amp;z=2</a> c');
  });

  it("drops Yahoo's mangled class rules only, and leaves every other client's rules", () => {
    const result = analyze(
      '<html><head><style>.-lead{color:#ff0000}.tail__{color:#00ff00}.ok{color:#0000ff}</style></head><body><p class="-lead">x</p><p class="tail__">y</p><p class="ok">z</p></body></html>',
    );
    for (const client of CLIENT_IDS) {
      const html = htmlOf(result, client);
      const yahoo = ['yahoo-mail', 'yahoo-mail-ios', 'yahoo-mail-android', 'aol'].includes(client);
      if (!html.includes('#0000ff')) continue; // a client that drops <style> altogether
      expect({ client, mangledKept: html.includes('#ff0000') || html.includes('#00ff00') }).toEqual({ client, mangledKept: !yahoo });
    }
  });

  it("wraps each of HEY's blockquotes in its own <details>, nested ones included", () => {
    const html = htmlOf(analyze('<blockquote>a<blockquote>b</blockquote></blockquote>'), 'hey-mail');
    expect(html).toContain('<details><blockquote>a<details><blockquote>b</blockquote></details></blockquote></details>');
  });
});
