import fc from 'fast-check';
import { gateResultOf, gateSummary } from './gate-summary';
import { gateSnapshot } from './gate-snapshot';
import { gateVerdict, type GateCheckFamily } from './gate-verdict';
import { analyze, email } from './testing/gate-fixtures';

/** Emails that exercise every input the verdict reads: findings, links going nowhere, missing alt, size. */
const EMAILS = [
  email(),
  email('<div style="display:flex;border-radius:8px">flex</div><a href="#">nowhere</a><a href="javascript:void(0)">js</a>'),
  email('<img src="https://acme.test/no-alt.png" width="300" height="200"><img src="https://acme.test/p.gif" width="1" height="1">'),
  email(`<style>.x{color:red}</style><p class="x">${'<span>padding text </span>'.repeat(4000)}</p>`),
];

describe('gateSummary', () => {
  const results = EMAILS.map((html) => JSON.parse(JSON.stringify(analyze(html))));

  it('gives the same snapshot and verdict as the whole result, for every option', () => {
    const families: GateCheckFamily[] = ['compatibility', 'content', 'regression', 'message'];
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: results.length - 1 }),
        fc.integer({ min: 0, max: results.length - 1 }),
        fc.integer({ min: 0, max: 100 }),
        fc.subarray(families, { minLength: 1 }),
        fc.boolean(),
        (index, baselineIndex, threshold, checks, failOnError) => {
          const result = results[index];
          const summary = gateResultOf(JSON.parse(JSON.stringify(gateSummary(result))));
          expect(gateSnapshot(summary)).toEqual(gateSnapshot(result));
          const baseline = { snapshot: gateSnapshot(results[baselineIndex]), createdAt: '2026-11-01T00:00:00.000Z' };
          const options = { threshold, checks, failOnError };
          expect(gateVerdict({ result: summary, options, baseline })).toEqual(gateVerdict({ result, options, baseline }));
        },
      ),
      { numRuns: 60 },
    );
  });

  it('is a small fraction of the result it summarizes', () => {
    for (const result of results) expect(JSON.stringify(gateSummary(result)).length).toBeLessThan(JSON.stringify(result).length / 5);
  });

  it('keeps only blocking findings', () => {
    const summary = gateSummary(results[1]);
    expect(summary.cssReport.length).toBeGreaterThan(0);
    expect(summary.cssReport.every((finding) => finding.severity === 'error' || finding.severity === 'warning')).toBe(true);
  });
});
