import { analyzeEmail } from '../../analyze-email';
import { CLIENT_IDS } from '../email-client';
import { CLIENT_MODELS } from './client-models';
import { INVENTORY_GAP_BEHAVIORS, backgroundColorOf, lightColorOf, localFontSources } from './inventory-gaps.model';

/**
 * The behaviours of the inventory's third pass (inventory-gaps.model.ts): where a client really supports what
 * the email uses, none of them may give a finding, for any client (the "no new finding" rule); where the
 * documented limit is hit, the client that has it reports it and the others do not.
 */
const NEW_RULES = new Set(
  Object.values(INVENTORY_GAP_BEHAVIORS)
    .flat()
    .map((b) => b?.id),
);

function newFindings(html: string): Array<{ client: string; rule: string }> {
  const result = analyzeEmail(html, { reports: false });
  return result.cssReport.filter((f) => NEW_RULES.has(f.rule)).map((f) => ({ client: f.client, rule: f.rule }));
}

describe('inventory third pass: no finding where the client supports what the email uses', () => {
  it.each([
    ['a link without a target, or with _blank', '<a href="https://example.com/a">x</a><a href="https://example.com/b" target="_blank">y</a>'],
    ['its own word-wrap, overflow-wrap and word-break', '<p style="word-wrap:normal;overflow-wrap:anywhere;word-break:normal">averyveryverylongword</p>'],
    [
      'a top-level media query and one nested in a style rule',
      '<html><head><style>.a{color:#102030}@media (max-width:600px){.a{color:#203040}}.b{color:#102030;@media (max-width:600px){color:#203040}}</style></head><body><p class="a b">x</p></body></html>',
    ],
    [
      'an @supports on a property every client supports',
      '<html><head><style>@supports (display:block){.a{color:#203040}}</style></head><body><p class="a">x</p></body></html>',
    ],
    [
      'align="center" on a table and align="middle" on an image',
      '<table align="center"><tr><td><img src="https://example.com/a.png" align="middle" alt="A"></td></tr></table>',
    ],
    ['a background attribute on <body>', '<html><head></head><body background="https://example.com/bg.png"><p>x</p></body></html>'],
    ['a background shorthand that is only a color, a 2px border', '<div style="background:#102030;border:2px solid #203040">x</div>'],
    ['a plain color (no light-dark())', '<p style="color:#102030;background-color:#fefefe">x</p>'],
    ['no transition', '<a href="https://example.com/a" style="color:#102030">x</a>'],
    [
      'display:none on a cell, visibility:hidden on a row, collapse on a column group, words under 31 characters',
      '<table><colgroup style="visibility:collapse"></colgroup><tr style="visibility:hidden"><td style="display:none"><img src="https://example.com/a.png" alt="A" style="display:block"></td></tr></table><p>short words only</p>',
    ],
    [
      'a font the machine has (local())',
      '<html><head><style>@font-face{font-family:Brand;src:local(Arial)}.a{font-family:Brand, Arial}</style></head><body><p class="a">x</p></body></html>',
    ],
  ])('%s', (_name, html) => {
    expect(newFindings(html)).toEqual([]);
  });

  it('reports each documented limit for the clients that have it, and only for them', () => {
    const html = `<html><head><style>@media screen{@media (min-width:1px){.a{color:#ff0000}}}@supports (box-shadow:0 0 1px #000){.a{color:#00ff00}}@font-face{font-family:B;src:url(https://example.com/b.woff2)}</style></head>
<body><a class="a" href="https://example.com/a" target="_self" style="transition:color 2s">x</a>
<table align="right" background="https://example.com/bg.png"><tr><td style="background:#102030 url(https://example.com/bg.png);border:12px solid #000000;color:light-dark(#102030,#fefefe)">y</td></tr></table></body></html>`;
    const found = newFindings(html);
    const clientsOf = (rule: string) => [...new Set(found.filter((f) => f.rule === rule).map((f) => f.client))].sort();
    // Every client that reports a rule has it in its model.
    for (const { client, rule } of found) expect(CLIENT_MODELS[client as (typeof CLIENT_IDS)[number]].behaviors.some((b) => b.id === rule)).toBe(true);
    expect(clientsOf('outlook-nested-media-removed')).toEqual(['outlook-android', 'outlook-ios', 'outlook-macos', 'outlook-web', 'outlook-windows']);
    expect(clientsOf('yahoo-supports-filtered')).toEqual(['aol', 'yahoo-mail', 'yahoo-mail-android', 'yahoo-mail-ios']);
    expect(clientsOf('links-target-blank')).toEqual(
      [
        'aol',
        'fastmail',
        'gmail-android',
        'gmail-ios',
        'gmail-web',
        'hey-mail',
        'outlook-web',
        'outlook-windows',
        'protonmail',
        'yahoo-mail',
        'yahoo-mail-android',
        'yahoo-mail-ios',
      ].sort(),
    );
    expect(clientsOf('outlook-mac-table-align-ignored')).toEqual(['outlook-macos']);
    expect(clientsOf('word-background-attribute-body-only')).toEqual(['outlook-windows-legacy']);
    expect(clientsOf('word-background-color-only')).toEqual(['outlook-windows-legacy']);
    expect(clientsOf('word-border-width-max')).toEqual(['outlook-windows-legacy']);
    expect(clientsOf('word-remote-fonts-ignored')).toEqual(['outlook-windows-legacy']);
    expect(clientsOf('hey-transition-duration-reset')).toEqual(['hey-mail']);
    expect(clientsOf('proton-light-dark-stays-light')).toEqual(['protonmail']);
    expect(clientsOf('hey-light-dark-stays-light')).toEqual(['hey-mail']);
  });
});

describe('value readers', () => {
  it('lightColorOf keeps the light color of each light-dark(), nested functions included', () => {
    expect(lightColorOf('light-dark(#fff, #000)')).toBe('#fff');
    expect(lightColorOf('1px solid light-dark(rgb(1, 2, 3), rgb(4, 5, 6))')).toBe('1px solid rgb(1, 2, 3)');
    expect(lightColorOf('LIGHT-DARK(red,blue) light-dark(green, black)')).toBe('red green');
    expect(lightColorOf('#fff')).toBeUndefined();
    expect(lightColorOf('light-dark(#fff')).toBeUndefined();
  });

  it('localFontSources keeps the local() sources of an @font-face src', () => {
    expect(localFontSources('local(Brand), url(https://example.com/b.woff2) format("woff2"), local("Brand Bold")')).toBe('local(Brand), local("Brand Bold")');
    expect(localFontSources('url(a.woff2)')).toBe('');
  });

  it('backgroundColorOf finds the color of a shorthand', () => {
    expect(backgroundColorOf('#102030 url(a.png) no-repeat center')).toEqual({ color: '#102030', onlyColor: false });
    expect(backgroundColorOf('url(a.png) rgb(1, 2, 3) top left / cover')).toEqual({ color: 'rgb(1, 2, 3)', onlyColor: false });
    expect(backgroundColorOf('white')).toEqual({ color: 'white', onlyColor: true });
    expect(backgroundColorOf('url(a.png) no-repeat')).toEqual({ color: undefined, onlyColor: false });
  });
});
