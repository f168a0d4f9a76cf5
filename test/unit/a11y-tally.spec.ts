// scripts/lib/a11y-tally.js is plain AxeNode, required by scripts/check-a11y.js.
// eslint-disable-next-line @typescript-eslint/no-require-imports -- a plain JS script of scripts/lib
const tally = require('../../scripts/lib/a11y-tally') as {
  TARGET: number;
  isInvisibleImage(image: { width: number; height: number; rendered: boolean }): boolean;
  tallyElementRule(input: { violations: AxeNode[]; incomplete: AxeNode[]; reported: Array<{ at: string; message: string }>; exempt?: Set<string> }): {
    counts: Counts;
    differences: string[];
  };
  tallyDocumentRule(input: { violations: AxeNode[]; incomplete: AxeNode[]; reported: boolean }): { counts: Counts; differences: string[] };
  addCounts(total: Partial<Counts>, part: Counts): Counts;
  judge(totals: Map<string, Counts>, target?: number): { rows: Array<{ rule: string; precision: number | null; recall: number | null }>; misses: string[] };
};
interface AxeNode {
  at: string | null;
  html: string;
  summary?: string;
}
interface Counts {
  tp: number;
  fp: number;
  fn: number;
  unmapped: number;
  review: number;
  reportedOnReview: number;
  exempt: number;
}

const node = (at: string | null): AxeNode => ({ at, html: `<img data-mp-src="${at}">`, summary: 'Fix: add alt' });
const issue = (at: string) => ({ at, message: 'missing alt' });

describe('check:a11y counting (scripts/lib/a11y-tally.js)', () => {
  describe('isInvisibleImage: the painted size decides', () => {
    it.each([
      [{ width: 1, height: 1, rendered: true }, true],
      [{ width: 600, height: 0, rendered: true }, true],
      [{ width: 1, height: 40, rendered: true }, true],
      [{ width: 120, height: 60, rendered: false }, true],
      [{ width: 2, height: 2, rendered: true }, false],
      [{ width: 16, height: 16, rendered: true }, false],
    ])('%j → %s', (image, expected) => {
      expect(tally.isInvisibleImage(image)).toBe(expected);
    });
  });

  describe('tallyElementRule', () => {
    it('matches by position: TP, FP and FN', () => {
      const { counts, differences } = tally.tallyElementRule({
        violations: [node('1:1'), node('2:1')],
        incomplete: [],
        reported: [issue('1:1'), issue('3:1')],
      });
      expect(counts).toMatchObject({ tp: 1, fp: 1, fn: 1, unmapped: 0 });
      expect(differences).toEqual(['FP at 3:1: missing alt', 'FN at 2:1: <img data-mp-src="2:1"> Fix: add alt']);
    });

    it('counts a violation without a source position as a miss instead of dropping it', () => {
      const { counts, differences } = tally.tallyElementRule({ violations: [node(null), node('1:1')], incomplete: [], reported: [issue('1:1')] });
      expect(counts).toMatchObject({ tp: 1, fn: 1, unmapped: 1 });
      expect(differences[0]).toMatch(/^FN without a source position/);
    });

    it("reports axe's incomplete nodes in their own column; an engine finding there is neither TP nor FP", () => {
      const { counts } = tally.tallyElementRule({ violations: [], incomplete: [node('4:1'), node('5:1'), node(null)], reported: [issue('4:1')] });
      expect(counts).toMatchObject({ tp: 0, fp: 0, fn: 0, review: 3, reportedOnReview: 1 });
    });

    it('counts exempt positions (images painted invisible) apart from misses, and only misses', () => {
      const { counts } = tally.tallyElementRule({
        violations: [node('6:1'), node('7:1')],
        incomplete: [],
        reported: [issue('7:1')],
        exempt: new Set(['6:1', '7:1']),
      });
      expect(counts).toMatchObject({ tp: 1, fn: 0, exempt: 1 });
    });
  });

  it('tallyDocumentRule: one verdict per email', () => {
    expect(tally.tallyDocumentRule({ violations: [node(null)], incomplete: [], reported: true }).counts).toMatchObject({ tp: 1, fp: 0, fn: 0 });
    expect(tally.tallyDocumentRule({ violations: [node(null)], incomplete: [], reported: false }).counts).toMatchObject({ tp: 0, fn: 1 });
    expect(tally.tallyDocumentRule({ violations: [], incomplete: [node(null)], reported: true }).counts).toMatchObject({ fp: 1, review: 1 });
  });

  it('judge: misses below the target, rules without a case are not judged', () => {
    const zero = { tp: 0, fp: 0, fn: 0, unmapped: 0, review: 0, reportedOnReview: 0, exempt: 0 };
    const totals = new Map<string, Counts>([
      ['low-contrast', { ...zero, tp: 96, fp: 4, fn: 2 }],
      ['img-missing-alt', { ...zero, tp: 97, fn: 3 }],
      ['button-no-accessible-name', zero],
    ]);
    const { rows, misses } = tally.judge(totals);
    expect(misses).toEqual(['low-contrast precision 0.960 < 0.97']);
    expect(rows.find((row) => row.rule === 'button-no-accessible-name')).toEqual({ rule: 'button-no-accessible-name', precision: null, recall: null });
    expect(tally.addCounts({}, totals.get('low-contrast')!)).toMatchObject({ tp: 96, fp: 4 });
  });
});
