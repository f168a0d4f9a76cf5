import { CLIENT_IDS } from '../../clients/email-client';
import { parseEmail } from '../../parse/parse-email';
import { buildFindingLedger } from '../finding-ledger';
import { fixEmail } from '../fix-email';
import { withoutPseudos } from './inline-css';
import { clientContextSelector } from './layout-css';
import { emailPage, expectSoundFix, fixWith } from './testing/layout-fixtures';

const RULE = 'inline-css';

function severities(html: string, rule: string): string[] {
  return buildFindingLedger(parseEmail(html), 'html', CLIENT_IDS)
    .findings.filter((finding) => finding.rule === rule)
    .map((finding) => finding.severity);
}

function styleBlock(html: string): string {
  return /<style>[\s\S]*?<\/style>/.exec(html)?.[0] ?? '';
}

describe('inline-css', () => {
  it('appends the matching rules to the style attribute, keeps the <style> block and the rest byte-identical', () => {
    const html = emailPage(
      '.a { color: #ff0000; padding: 4px 8px; }\np { margin: 0; }',
      '<p class="a" style="font-size:14px">Hello</p>\n<p>World</p>\n<table role="presentation"><tr><td class="a">cell</td></tr></table>',
    );
    const result = fixWith(html, RULE);
    expect(result.html).toContain('<p class="a" style="font-size:14px; margin: 0; color: #ff0000; padding: 4px 8px">Hello</p>');
    expect(result.html).toContain('<p style="margin: 0">World</p>');
    expect(result.html).toContain('<td class="a" style="color: #ff0000; padding: 4px 8px">cell</td>');
    expect(styleBlock(result.html)).toBe(styleBlock(html));
    expect(result.ours.map((fix) => fix.line)).toEqual([11, 12, 13]);
    expectSoundFix(html, result);
  });

  it('is opt-in: the default (safe) tier does not inline', () => {
    const html = emailPage('.a { color: #ff0000; }', '<p class="a">Hello</p>');
    expect(fixEmail(html).applied.filter((fix) => fix.rule === RULE)).toEqual([]);
  });

  it('writes the winner by specificity and then source order', () => {
    const html = emailPage(
      'p.a { color: #ff0000; }\n.a { color: #00ff00; }\np { color: #0000ff; }\n.b { color: #111111; }\n.c { color: #222222; }',
      '<p class="a">x</p><p class="b c">y</p>',
    );
    const result = fixWith(html, RULE);
    expect(result.html).toContain('<p class="a" style="color: #ff0000">x</p>');
    expect(result.html).toContain('<p class="b c" style="color: #222222">y</p>');
    expectSoundFix(html, result);
  });

  it('leaves an inline declaration that wins alone, and writes a !important rule after it without !important', () => {
    const html = emailPage(
      '.a { color: #ff0000; }\n.b { color: #00ff00 !important; }',
      '<p class="a" style="color: #000000;">x</p><p class="b" style="color: #000000;">y</p>',
    );
    const result = fixWith(html, RULE);
    expect(result.html).toContain('<p class="a" style="color: #000000;">x</p>');
    expect(result.html).toContain('<p class="b" style="color: #000000; color: #00ff00">y</p>');
    expectSoundFix(html, result);
  });

  it('orders a shorthand after the longhand it beats, and leaves a longhand out when the inline shorthand wins', () => {
    const html = emailPage(
      'td { padding-left: 5px; }\n.a { padding: 0; }\n.b { padding-top: 9px; }',
      '<table><tr><td class="a">x</td><td class="b" style="padding: 2px">y</td></tr></table>',
    );
    const result = fixWith(html, RULE);
    expect(result.html).toContain('<td class="a" style="padding-left: 5px; padding: 0">x</td>');
    expect(result.html).toContain('<td class="b" style="padding: 2px">y</td>');
    expectSoundFix(html, result);
  });

  it('keeps media queries working: a property a media query sets without !important stays in <style>', () => {
    const html = emailPage(
      '.a { color: #ff0000; width: 600px; font-size: 16px; }\n@media (max-width: 600px) { .a { width: 100% !important; } .a { font-size: 20px; } }',
      '<div class="a">x</div>',
    );
    const result = fixWith(html, RULE);
    expect(result.html).toContain('<div class="a" style="color: #ff0000; width: 600px">x</div>');
    expect(styleBlock(result.html)).toBe(styleBlock(html));
    expectSoundFix(html, result);
  });

  it('keeps :hover working, and a rule that is !important wins over the :hover rule anyway', () => {
    const html = emailPage(
      'a { color: #0000ff; text-decoration: none; }\na:hover { color: #ff0000; }\n.k { text-decoration: underline !important; }',
      '<a href="https://example.com/" class="k">Link</a>',
    );
    const result = fixWith(html, RULE);
    expect(result.html).toContain('<a href="https://example.com/" class="k" style="text-decoration: underline">Link</a>');
    expectSoundFix(html, result);
  });

  it('matches a state selector without its pseudo-classes, so a rule it cannot match applies everywhere', () => {
    expect(withoutPseudos('.menu a:hover')).toBe('.menu a');
    expect(withoutPseudos('.x :focus')).toBe('.x *');
    expect(withoutPseudos('a:not(.b)::before')).toBe('a');
    expect(withoutPseudos(':hover > span')).toBe('* > span');
  });

  it('keeps client hacks working: a property a hack sets without !important on the element stays in <style>', () => {
    const html = emailPage(
      '.title { color: #000000; font-size: 20px; line-height: 24px; }\n[data-ogsc] .title { color: #ffffff; }\n.ExternalClass p { line-height: 100%; }\nu + .body .title { font-size: 22px !important; }',
      '<p class="title">Title</p>',
    );
    const result = fixWith(html, RULE);
    expect(result.html).toContain('<p class="title" style="font-size: 20px">Title</p>');
    expect(clientContextSelector('[data-ogsc] .title')).toBe('.title');
    expect(clientContextSelector('u + .body a:hover')).toBe('a');
    expect(clientContextSelector('*[x-apple-data-detectors]')).toBe('*');
    expect(clientContextSelector('.title > span')).toBeUndefined();
    expectSoundFix(html, result);
  });

  it('reads a merge tag in a style attribute as the value it stands for, and leaves every merge tag byte-identical', () => {
    const body =
      '<table role="presentation"><tr><td class="a" style="color:{{ brand_color }}">Hi *|FNAME|*, %%first_name%% {% if vip %}VIP{% endif %}</td></tr></table>\n' +
      '<!--[if mso]><table role="presentation"><tr><td class="a"><![endif]-->\n<a class="a" href="{{ url }}?utm=%%campaign%%">Go</a>\n<!--[if mso]></td></tr></table><![endif]-->';
    const html = emailPage('.a { color: #ff0000; background-color: #ffffff; }', body);
    const result = fixWith(html, RULE);
    expect(result.html).toContain(
      '<td class="a" style="color:{{ brand_color }}; background-color: #ffffff">Hi *|FNAME|*, %%first_name%% {% if vip %}VIP{% endif %}</td>',
    );
    expect(result.html).toContain('<!--[if mso]><table role="presentation"><tr><td class="a"><![endif]-->');
    expect(result.html).toContain('<a class="a" href="{{ url }}?utm=%%campaign%%" style="color: #ff0000; background-color: #ffffff">Go</a>');
    expectSoundFix(html, result);
  });

  it('writes double quotes of a value as single ones inside a double-quoted attribute, and still finds it there afterwards', () => {
    const html = emailPage('.a { font-family: "Segoe UI", Arial, sans-serif !important; }', '<p class="a">x</p>');
    const result = fixWith(html, RULE);
    expect(result.html).toContain(`<p class="a" style="font-family: 'Segoe UI', Arial, sans-serif">x</p>`);
    expectSoundFix(html, result);
  });

  it('skips a style attribute written with character references, and the head', () => {
    const html = emailPage('.a, title { color: #ff0000; }', '<p class="a" style="font-family: &quot;Arial&quot;">x</p>');
    const result = fixWith(html, RULE);
    expect(result.ours).toEqual([]);
    expect(result.html).toBe(html);
  });

  it('leaves in <style> what a client treats worse inline, custom properties and var()', () => {
    const html = emailPage(
      '.pre { position: absolute; left: -9999px; top: 0; color: #ff0000; }\n.v { --x: 4px; padding: var(--x); color: rgb(0 0 0 / 50%); margin: 0; }',
      '<span class="pre">preheader</span><p class="v">x</p>',
    );
    const result = fixWith(html, RULE);
    // Proton Mail unsets inline left and top: inlined, the preheader would show there.
    expect(result.html).toContain('<span class="pre" style="position: absolute; color: #ff0000">preheader</span>');
    // Gmail drops a style attribute with a space-separated rgb(): the rest of the attribute would go with it.
    expect(result.html).toContain('<p class="v" style="margin: 0">x</p>');
    expectSoundFix(html, result);
  });

  it('gives the elements relying on <style> an inline fallback: the html-style warnings (Gmail, Word) go down to info', () => {
    const html = emailPage('.a { color: #ff0000; }', '<p class="a">x</p>');
    expect(severities(html, 'html-style')).toEqual(['warning', 'warning', 'warning', 'warning']);
    const result = fixWith(html, RULE);
    expect(severities(result.html, 'html-style')).toEqual(['info', 'info', 'info', 'info']);
    expect(result.after.warnings).toBe(result.before.warnings - 4);
    expectSoundFix(html, result);
  });
});
