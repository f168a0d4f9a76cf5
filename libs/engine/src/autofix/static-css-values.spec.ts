import { CLIENT_IDS } from '../clients/email-client';
import { parseEmail } from '../parse/parse-email';
import { parseCssColor } from '../reports/context/color-utils';
import { buildFindingLedger } from './finding-ledger';
import { fixEmail } from './fix-email';
import { resolveCalc, resolveColorFunctions } from './rules/static-functions';

const RULE = 'static-css-values';

function page(style: string, body = '<p class="a">Hello</p>'): string {
  return `<!DOCTYPE html>\n<html lang="en">\n<head>\n<title>t</title>\n<style>\n${style}\n</style>\n</head>\n<body>\n${body}\n</body>\n</html>\n`;
}

function findings(html: string, rule: string): number {
  return buildFindingLedger(parseEmail(html), 'html', CLIENT_IDS).count({ report: 'css', rule });
}

function fixed(html: string) {
  const result = fixEmail(html);
  return { ...result, ours: result.applied.filter((fix) => fix.rule === RULE), refused: result.skipped.filter((skip) => skip.rule === RULE) };
}

describe('static-css-values: var()', () => {
  it('resolves a var() defined once on :root, removes the definition nothing reads any more, and resolves the findings', () => {
    const html = page(':root { --brand: #ff0000; }\n.a { color: var(--brand); }');
    expect(findings(html, 'css-variables')).toBeGreaterThan(0);
    const result = fixed(html);
    expect(result.html).toContain('.a { color: #ff0000; }');
    expect(result.html).not.toContain('--brand');
    expect(result.ours).toHaveLength(1);
    expect(findings(result.html, 'css-variables')).toBe(0);
    expect(findings(result.html, 'fastmail-custom-properties-removed')).toBe(0);
    expect(result.resolved[RULE]).toBeGreaterThan(0);
    expect(result.introduced).toEqual([]);
  });

  it.each([
    ['html', 'html { --gap: 12px; }'],
    ['body', 'body { --gap: 12px; }'],
    ['*', '* { --gap: 12px; }'],
    ['*, ::before, ::after', '*, ::before, ::after { --gap: 12px; }'],
  ])('reads a definition on %s', (_name, definition) => {
    const result = fixed(page(`${definition}\n.a { padding: var(--gap) 0; }`));
    expect(result.html).toContain('.a { padding: 12px 0; }');
  });

  it('refuses a property redefined in a dark-mode @media, leaving every reader and definition as written', () => {
    const html = page(':root { --text: #111111; }\n@media (prefers-color-scheme: dark) { :root { --text: #eeeeee; } }\n.a { color: var(--text); }');
    const result = fixed(html);
    expect(result.ours).toEqual([]);
    expect(result.html).toContain('.a { color: var(--text); }');
    expect(result.html).toContain(':root { --text: #111111; }');
    expect(result.refused.map((skip) => skip.reason)).toEqual([expect.stringContaining('--text is defined 2 times')]);
  });

  it('refuses a property defined in another rule or inline on another element', () => {
    const inRule = fixed(page('.theme { --c: #00ff00; }\n.a { color: var(--c); }'));
    expect(inRule.ours).toEqual([]);
    expect(inRule.refused[0].reason).toMatch(/--c is defined in the rule "\.theme", not in a top-level rule on :root, html, body or \*/);
    const inline = fixed(page('', '<table role="presentation" style="--c: #00ff00;"><tr><td style="padding: 4px; color: var(--c);">x</td></tr></table>'));
    expect(inline.html).toContain('color: var(--c);');
    expect(inline.html).toContain('style="--c: #00ff00;"');
    expect(inline.refused[0].reason).toMatch(/style attribute of a <table>/);
  });

  it("resolves a definition in the element's own style attribute and removes it", () => {
    const result = fixed(page('', '<p style="--own: 3px; margin: var(--own); color: #333333;">x</p>'));
    expect(result.html).toContain('<p style="margin: 3px; color: #333333;">x</p>');
  });

  it('uses the fallback when nothing defines the property, and an empty fallback only when the rest of the value stands', () => {
    const fallback = fixed(page('.a { color: var(--missing, #00aa00); }'));
    expect(fallback.html).toContain('.a { color: #00aa00; }');
    const html = page('.a { box-shadow: var(--tw-inset,) 0 0 0 2px #000000; }\n.b { color: var(--x,); }');
    expect(findings(html, 'gmail-empty-var-fallback')).toBeGreaterThan(0);
    const empty = fixed(html);
    expect(empty.html).toContain('.a { box-shadow: 0 0 0 2px #000000; }');
    expect(empty.html).toContain('.b { color: var(--x,); }');
    expect(empty.refused.map((skip) => skip.reason)).toEqual([expect.stringContaining('an empty value would be left')]);
  });

  it('resolves an empty fallback to the definition, which resolves the Gmail finding', () => {
    const html = page(':root { --ring: #0000ff; }\n.a { border-color: var(--ring,); }');
    expect(findings(html, 'gmail-empty-var-fallback')).toBeGreaterThan(0);
    const result = fixed(html);
    expect(result.html).toContain('.a { border-color: #0000ff; }');
    expect(findings(result.html, 'gmail-empty-var-fallback')).toBe(0);
  });

  it('keeps a definition that a value it cannot rewrite still reads (a merge tag in the fallback)', () => {
    const html = page(':root { --c: #ff0000; }\n.a { color: var(--c); }\n.b { border-color: var(--c, {{ brand }}); }');
    const result = fixed(html);
    expect(result.html).toContain('.a { color: #ff0000; }');
    expect(result.html).toContain(':root { --c: #ff0000; }');
    expect(result.html).toContain('.b { border-color: var(--c, {{ brand }}); }');
  });

  it('refuses a var() without a definition or fallback, and one glued to the text around it', () => {
    const result = fixed(page(':root { --n: 4; }\n.a { color: var(--nothing); }\n.b { width: var(--n)px; }'));
    expect(result.ours).toEqual([]);
    expect(result.refused.map((skip) => skip.reason)).toEqual([
      expect.stringContaining('--nothing is not defined and var(--nothing) has no fallback'),
      expect.stringContaining('glued'),
    ]);
  });
});

describe('static-css-values: calc() and colors', () => {
  it.each([
    ['calc(10px + 5px)', '15px'],
    ['calc(2 * 8px)', '16px'],
    ['calc((4px + 2px) * 2)', '12px'],
    ['calc(30px / 4)', '7.5px'],
    ['0 calc(1em + 0.5em)', '0 1.5em'],
  ])('computes %s', (value, expected) => {
    expect(resolveCalc(value)).toEqual({ value: expected });
  });

  it.each([
    ['calc(100% - 20px)', /mixes % and px/],
    ['calc(5px - 10px)', /negative/],
    ['calc(10px * 2px)', /multiplies two lengths/],
    ['calc(env(safe-area-inset-top) + 1px)', /no number or length/],
  ])('leaves %s as written, with the reason', (value, reason) => {
    const outcome = resolveCalc(value);
    expect(outcome.value).toBe(value);
    expect(outcome.refused).toMatch(reason);
  });

  it('writes color-mix() and the CSS Color 4 functions as hex, or rgba() when translucent', () => {
    const mixed = resolveColorFunctions('color-mix(in srgb, #ff0000 50%, #0000ff)').value;
    expect(mixed).toMatch(/^#[0-9a-f]{6}$/);
    const channels = parseCssColor(mixed);
    expect(channels && [Math.round(channels.r * 255), channels.g, Math.round(channels.b * 255)]).toEqual([
      expect.closeTo(128, -0.5),
      0,
      expect.closeTo(128, -0.5),
    ]);
    expect(resolveColorFunctions('oklch(62.8% 0.2577 29.23)').value).toBe('#ff0000');
    expect(resolveColorFunctions('1px solid hwb(120 0% 0%)').value).toBe('1px solid #00ff00');
    expect(resolveColorFunctions('lab(0% 0 0 / 0.5)').value).toBe('rgba(0, 0, 0, 0.5)');
    expect(resolveColorFunctions('color-mix(in oklab, #000000 30%, transparent)').value).toBe('rgba(0, 0, 0, 0.3)');
    expect(resolveColorFunctions('color-mix(in srgb, currentColor 50%, #ffffff)').refused).toMatch(/not a static color/);
  });

  it('resolves the findings: calc() for Outlook, oklch() for Gmail and the others', () => {
    const html = page('.a { width: calc(100px + 20px); }', '<p class="a" style="color: oklch(40% 0.1 250); font-size: 16px;">Hello</p>');
    for (const rule of ['css-unit-calc', 'css-modern-color', 'gmail-lightness-color-attribute']) expect(findings(html, rule)).toBeGreaterThan(0);
    const result = fixed(html);
    expect(result.html).toContain('.a { width: 120px; }');
    expect(result.html).toMatch(/style="color: #[0-9a-f]{6}; font-size: 16px;"/);
    for (const rule of ['css-unit-calc', 'css-modern-color', 'gmail-lightness-color-attribute']) expect(findings(result.html, rule)).toBe(0);
    expect(result.introduced).toEqual([]);
    expect(fixEmail(result.html).applied).toEqual([]);
  });

  it('leaves a calc() it cannot compute and says why', () => {
    const result = fixed(page('.a { width: calc(100% - 20px); }'));
    expect(result.html).toContain('calc(100% - 20px)');
    expect(result.refused).toEqual([expect.objectContaining({ line: 6, reason: expect.stringContaining('mixes % and px') })]);
  });
});
