import fc from 'fast-check';
import { analyzeEmail } from './analyze-email';
import { EngineLimitError } from './errors';

/** Fragments that steer arbitrary input towards the parser's and the analyzer's edge cases. */
const fragment = fc.oneof(
  fc.string(),
  fc.constantFrom(
    '<style>',
    '</style>',
    '<div style="',
    '">',
    '<table bgcolor="#fff">',
    '<td>',
    '<!--[if mso]>',
    '<![endif]-->',
    '<!--[if !mso]><!-->',
    '<!--<![endif]-->',
    '@media (prefers-color-scheme: dark){',
    '}',
    '{',
    'a:hover{color:red}',
    '.x{display:flex}',
    'color:#000;',
    'background:linear-gradient(#fff,#000);',
    '<svg>',
    '<form>',
    '<script>',
    '<img src="a.png">',
    '<p class="x">',
    ':not(',
    '[a=',
    '\\',
    '"',
    "'",
    '/*',
    '*/',
    'calc(',
    'var(--x)',
    '<template>',
    '<math>',
  ),
);
const emailish = fc.array(fragment, { maxLength: 40 }).map((parts) => parts.join(''));

describe('engine properties', () => {
  it('never crashes on arbitrary input, keeps scores in 0-100 and is deterministic', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string({ maxLength: 2000 }), emailish), (html) => {
        // Inputs this small are far inside every limit of limits.ts: nothing may throw, not even EngineLimitError.
        const first = analyzeEmail(html);
        expect(first.overallScore).toBeGreaterThanOrEqual(0);
        expect(first.overallScore).toBeLessThanOrEqual(100);
        for (const score of Object.values(first.compatibilityScores)) {
          expect(score.score).toBeGreaterThanOrEqual(0);
          expect(score.score).toBeLessThanOrEqual(100);
          expect(Number.isInteger(score.score)).toBe(true);
        }
        expect(JSON.stringify(analyzeEmail(html))).toBe(JSON.stringify(first));
      }),
      { numRuns: 150 },
    );
  });

  // No wall-clock assertion (timing belongs in the benchmarks): an input that sent a pattern into
  // catastrophic backtracking would not end within the test's timeout, which fails it.
  it('ends on pathological inputs with a full analysis or a limit error', () => {
    const inputs = [
      '<b>'.repeat(20000),
      '<table>'.repeat(900),
      `<style>${'a b c d e f g h i j k l m n o p q r s t u v w x y z{color:red}'.repeat(200)}</style>${'<div>'.repeat(500)}`,
      `<p style="${'color:red;'.repeat(20000)}">x</p>`,
      '<!--'.repeat(30000),
      `<style>${':not('.repeat(2000)}</style>`,
    ];
    for (const html of inputs) {
      let analysis: ReturnType<typeof analyzeEmail> | undefined;
      try {
        analysis = analyzeEmail(html);
      } catch (error) {
        expect(error).toBeInstanceOf(EngineLimitError);
        continue;
      }
      expect(analysis.transforms).toHaveLength(21);
      expect(analysis.plainText).not.toBeNull();
    }
  }, 30_000);
});
