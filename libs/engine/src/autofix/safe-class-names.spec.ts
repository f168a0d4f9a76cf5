import { CLIENT_IDS } from '../clients/email-client';
import { parseEmail } from '../parse/parse-email';
import { buildFindingLedger } from './finding-ledger';
import { fixEmail } from './fix-email';
import { safeClassName } from './rules/safe-class-names';

const RULE = 'safe-class-names';

function page(style: string, body: string): string {
  return `<!DOCTYPE html>\n<html lang="en">\n<head>\n<title>t</title>\n<style>\n${style}\n</style>\n</head>\n<body>\n${body}\n</body>\n</html>\n`;
}

function escapedSelectorFindings(html: string): number {
  return buildFindingLedger(parseEmail(html), 'html', CLIENT_IDS).count({ report: 'css', rule: 'gmail-escaped-selector' });
}

describe('safe-class-names', () => {
  it.each([
    ['sm:w-full', 'sm-w-full'],
    ['w-1/2', 'w-1-2'],
    ['hover:bg-x', 'hover-bg-x'],
    ['w-1.5', 'w-1_5'],
    ['w-[50%]', 'w-50pc'],
    ['2xl:p-4', '_2xl-p-4'],
  ])('names %s %s', (name, safe) => {
    expect(safeClassName(name)).toBe(safe);
  });

  it('renames escaped classes in the selectors and in every class attribute, which resolves the Gmail finding', () => {
    const html = page(
      '.a { color: #ff0000; }\n@media (max-width: 600px) { .sm\\:w-full { width: 100% !important; } .w-1\\/2 .x { width: 50%; } .hover\\:bg-x:hover { color: #000000; } }',
      '<p class="a sm:w-full">x</p>\n<div class="w-1/2  sm:w-full"><span class="x">y</span></div>\n<a class="hover:bg-x" href="https://example.com/">z</a>',
    );
    expect(escapedSelectorFindings(html)).toBeGreaterThan(0);
    const result = fixEmail(html);
    expect(result.applied.filter((fix) => fix.rule === RULE)).toHaveLength(1);
    expect(result.html).toContain('.sm-w-full { width: 100% !important; } .w-1-2 .x { width: 50%; } .hover-bg-x:hover { color: #000000; }');
    expect(result.html).toContain('<p class="a sm-w-full">x</p>');
    // Only the class tokens change: the double space between them stays.
    expect(result.html).toContain('<div class="w-1-2  sm-w-full">');
    expect(result.html).toContain('<a class="hover-bg-x" href="https://example.com/">z</a>');
    expect(result.html).not.toContain('\\');
    expect(escapedSelectorFindings(result.html)).toBe(0);
    expect(result.resolved[RULE]).toBeGreaterThan(0);
    expect(fixEmail(result.html).applied).toEqual([]);
  });

  it('refuses when the new name exists already, and leaves every selector that holds the class', () => {
    const html = page('.sm-w-full { color: #111111; }\n@media (max-width: 600px) { .sm\\:w-full { width: 100%; } }', '<p class="sm:w-full sm-w-full">x</p>');
    const result = fixEmail(html);
    expect(result.applied.filter((fix) => fix.rule === RULE)).toEqual([]);
    expect(result.html).toContain('.sm\\:w-full { width: 100%; }');
    expect(result.html).toContain('class="sm:w-full sm-w-full"');
    expect(result.skipped).toContainEqual(expect.objectContaining({ rule: RULE, reason: expect.stringContaining('sm-w-full for sm:w-full is taken already') }));
  });

  it('refuses when two classes would get the same name', () => {
    const result = fixEmail(page('.a\\:b { color: #111111; } .a\\/b { color: #222222; }', '<p class="a:b">x</p><p class="a/b">y</p>'));
    expect(result.applied.filter((fix) => fix.rule === RULE)).toEqual([]);
    expect(result.skipped.filter((skip) => skip.rule === RULE)).toHaveLength(2);
  });

  it('refuses a class whose attribute is not written literally, or that conditional markup uses', () => {
    const encoded = fixEmail(page('.sm\\:w-full { width: 100%; }', '<p class="sm&#58;w-full">x</p>'));
    expect(encoded.html).toContain('.sm\\:w-full');
    expect(encoded.skipped).toContainEqual(expect.objectContaining({ rule: RULE, reason: expect.stringContaining('not written literally') }));
    const conditional = fixEmail(page('.sm\\:w-full { width: 100%; }', '<p class="sm:w-full">x</p><!--[if mso]><table class="sm:w-full"><tr><td><![endif]-->'));
    expect(conditional.html).toContain('.sm\\:w-full');
    expect(conditional.skipped).toContainEqual(expect.objectContaining({ rule: RULE, reason: expect.stringContaining('inside a comment') }));
  });

  it('leaves selectors with an escape outside a class name', () => {
    const result = fixEmail(page('#main\\:top { color: #111111; }', '<p id="main:top">x</p>'));
    expect(result.html).toContain('#main\\:top');
    expect(result.skipped).toContainEqual(expect.objectContaining({ rule: RULE, reason: expect.stringContaining('outside a class name') }));
  });
});
