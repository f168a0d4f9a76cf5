import { email, reports } from '../testing/email-fixture';

/** White text: low contrast exactly where the cascade paints a white background behind it. */
function lowContrast(body: string, head = ''): boolean {
  return reports(email(body, { head })).accessibilityReport.issues.some((issue) => issue.rule === 'low-contrast' && issue.message.includes('Probe'));
}

describe('the reports cascade (on the engine cascade)', () => {
  it('applies declarations of one style attribute in order, shorthands included', () => {
    expect(lowContrast('<p style="color:#ffffff; background:#000000; background-color:#ffffff">Probe</p>')).toBe(true);
    expect(lowContrast('<p style="color:#ffffff; background-color:#ffffff; background:#000000">Probe</p>')).toBe(false);
    expect(lowContrast('<div style="background:#000000"><p style="color:#ffffff; background:none">Probe</p></div>')).toBe(false);
  });

  it('lets !important rules beat the style attribute, and specificity order the rules', () => {
    expect(lowContrast('<p class="x" style="color:#000000">Probe</p>', '<style>.x { color:#ffffff !important }</style>')).toBe(true);
    expect(lowContrast('<p class="x" id="y">Probe</p>', '<style>#y { color:#000000 } .x { color:#ffffff }</style>')).toBe(false);
    expect(lowContrast('<div class="a"><p>Probe</p></div>', '<style>.a > p:first-child { color:#ffffff }</style>')).toBe(true);
  });

  it('applies @media blocks without feature queries and @supports blocks, not width queries or print', () => {
    expect(lowContrast('<p class="x">Probe</p>', '<style>@media screen { .x { color:#ffffff } }</style>')).toBe(true);
    expect(lowContrast('<p class="x">Probe</p>', '<style>@supports (display:flex) { .x { color:#ffffff } }</style>')).toBe(true);
    expect(lowContrast('<p class="x">Probe</p>', '<style>@media (max-width:600px) { .x { color:#ffffff } }</style>')).toBe(false);
    expect(lowContrast('<p class="x">Probe</p>', '<style>@media print { .x { color:#ffffff } }</style>')).toBe(false);
    expect(lowContrast('<p class="x">Probe</p>', '<style>@media (prefers-color-scheme: dark) { .x { color:#ffffff } }</style>')).toBe(false);
  });

  it('treats hidden elements as hidden whichever source hides them', () => {
    const hiddenProbe = (body: string, head = ''): boolean => !reports(email(body, { head })).plainText.text.includes('Probe');
    expect(hiddenProbe('<p hidden>Probe</p>')).toBe(true);
    expect(hiddenProbe('<p class="h">Probe</p>', '<style>.h { display:none }</style>')).toBe(true);
    expect(hiddenProbe('<p class="h">Probe</p>', '<style>@media (max-width:600px) { .h { display:none } }</style>')).toBe(false);
    expect(hiddenProbe('<div style="max-height:0; overflow:hidden"><p>Probe</p></div>')).toBe(true);
    expect(hiddenProbe('<p style="opacity:0">Probe</p>')).toBe(true);
  });

  it('carries colors down through elements that set none, from attributes, styles and link defaults', () => {
    // The background three colorless wrappers up; the white text set on the innermost element.
    expect(lowContrast('<table bgcolor="#ffffff"><tr><td><div><span><b style="color:#fefefe">Probe</b></span></div></td></tr></table>')).toBe(true);
    expect(lowContrast('<table bgcolor="#000000"><tr><td><div><span><b style="color:#fefefe">Probe</b></span></div></td></tr></table>')).toBe(false);
    // <font color> is a color of its own; the text inside a colorless <span> inherits it.
    expect(lowContrast('<div style="background:#ffffff"><font color="#fafafa"><span>Probe</span></font></div>')).toBe(true);
    // A link without a color is painted the user agent's blue, not its parent's color.
    expect(lowContrast('<div style="background:#0000ee; color:#ffffff"><p><a href="https://acme.test">Probe</a></p></div>')).toBe(true);
    expect(lowContrast('<div style="background:#0000ee; color:#ffffff"><p><span>Probe</span></p></div>')).toBe(false);
  });
});
