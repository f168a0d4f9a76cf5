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
