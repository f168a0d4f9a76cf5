import fc from 'fast-check';
import { labDistance, labDistanceLowerBound } from './context/color-utils';
import { email, reports, rules } from './testing/email-fixture';

function design(body: string, head = '') {
  return reports(email(body, { head, footer: '' })).designReport;
}

describe('designReport', () => {
  it('tallies distinct families, sizes, colors, line heights and spacing from inline styles and <style>', () => {
    const report = design(
      '<p style="font-family:Arial, sans-serif;font-size:16px;line-height:24px;color:#333333;padding:8px 16px">a</p><p style="font-family:\'Arial\',sans-serif;font-size:12pt;color:#333">b</p><td bgcolor="#F4F4F4">c</td>',
      '<style>h1 { font-family: Georgia, serif; font-size: 2rem; color: rgb(17, 17, 17) } @media (prefers-color-scheme: dark) { p { color: #eeeeee } }</style>',
    );
    expect(report.fontFamilies).toEqual([
      { value: 'arial, sans-serif', count: 2 },
      { value: 'georgia, serif', count: 1 },
    ]);
    expect(report.typefaces.map((item) => item.value)).toEqual(['arial', 'georgia']);
    expect(report.fontSizes.map((item) => item.value).sort()).toEqual(['16px', '32px']);
    expect(report.fontSizes.find((item) => item.value === '16px')?.count).toBe(2);
    expect(report.textColors.map((item) => item.value)).toEqual(['#333333', '#111111', '#222222']);
    expect(report.lineHeights).toEqual([{ value: '24px', count: 1 }]);
    expect(report.spacing.map((item) => item.value).sort()).toEqual(['16px', '8px']);
    expect(report.issues).toEqual([]);
  });

  it('finds near-duplicate colors by perceptual distance', () => {
    const report = design('<p style="color:#333333">a</p><p style="color:#343434">b</p><p style="color:#ff0000">c</p>');
    expect(report.nearDuplicateColors).toEqual([expect.objectContaining({ a: '#333333', b: '#343434' })]);
    expect(rules(report.issues)).toEqual(['near-duplicate-colors']);
  });

  it('flags too many typefaces and font sizes, and stacks without a generic family', () => {
    const sizes = [10, 11, 12, 13, 14, 16, 18, 22].map((size) => `<p style="font-size:${size}px">x</p>`).join('');
    expect(rules(design(sizes).issues)).toEqual(['too-many-font-sizes']);
    const faces = ['Arial', 'Georgia', 'Verdana', 'Tahoma'].map((face) => `<p style="font-family:${face}, sans-serif">x</p>`).join('');
    expect(rules(design(faces).issues)).toEqual(['too-many-typefaces']);
    expect(rules(design('<p style="font-family:Roboto">x</p>').issues)).toEqual(['font-stack-no-generic']);
  });
});

describe('near-duplicate colors: the lightness bound', () => {
  it('never exceeds the CIEDE2000 distance, so no pair under the threshold is skipped', () => {
    const lab = fc.record({
      mode: fc.constant('lab65' as const),
      l: fc.double({ min: -20, max: 120, noNaN: true }),
      a: fc.double({ min: -150, max: 150, noNaN: true }),
      b: fc.double({ min: -150, max: 150, noNaN: true }),
    });
    fc.assert(
      fc.property(lab, lab, (x, y) => {
        expect(labDistanceLowerBound(x, y)).toBeLessThanOrEqual(labDistance(x, y) + 1e-9);
      }),
      { numRuns: 5000 },
    );
    // And it is tight where it matters: black and white are far apart, two near-greys close.
    const grey = (l: number) => ({ mode: 'lab65' as const, l, a: 0, b: 0 });
    expect(labDistanceLowerBound(grey(0), grey(100))).toBeGreaterThan(50);
    expect(labDistanceLowerBound(grey(50), grey(51))).toBeCloseTo(labDistance(grey(50), grey(51)), 6);
  });
});

describe('design report: CSS-wide keywords', () => {
  it('reads font-family: inherit as no stack (no typeface, no missing generic family)', () => {
    const report = design('<p style="font-family: inherit">A</p><p style="font-family: Georgia">B</p>');
    expect(report.fontFamilies.map((item) => item.value)).toEqual(['georgia']);
    expect(report.issues.filter((issue) => issue.rule === 'font-stack-no-generic').map((issue) => issue.message)).toEqual([
      expect.stringContaining('"georgia"'),
    ]);
  });
});
