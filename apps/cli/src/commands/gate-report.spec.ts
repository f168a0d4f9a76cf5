import { formatGateResult, gateCheckReport, type GateFileResult } from './gate-report';
import type { GateVerdictResponse } from './gate-client';

const verdict: GateVerdictResponse = {
  passed: false,
  overallScore: 96,
  worstClient: 'outlook-windows-legacy',
  baseline: { ref: 'emails/news.html', comparedTo: '2026-12-01T10:00:00.000Z' },
  failures: [
    {
      family: 'visual',
      check: 'divergence',
      clientId: 'outlook-windows-legacy',
      scheme: 'light',
      score: 31.5,
      baselineScore: 2,
      threshold: 5,
      referenceChange: 0.8,
      regions: [
        {
          box: { x: 100, y: 262, width: 600, height: 288 },
          kind: 'layout',
          elements: [
            { selector: 'div.cols-flex', line: 8 },
            { selector: 'div.col', line: null },
          ],
          cause: { message: 'the two columns stack: `display:flex` is removed', property: 'display:flex' },
        },
      ],
    },
  ],
  notes: [
    {
      family: 'visual',
      check: 'divergence',
      clientId: 'gmail-web',
      scheme: 'dark',
      reason: 'divergence grew by 9 points, but 40% of the reference rendering changed too: taken as a design change',
    },
  ],
  checks: ['compatibility', 'visual'],
  links: { resolved: false, checked: 0, unchecked: [] },
  runId: 'gtr_x',
  previewId: 'prv_y',
};
const result: GateFileResult = { file: 'emails/news.html', format: 'html', ref: 'emails/news.html', outcome: 'failed', verdict };

describe('the gate reporters with a visual failure', () => {
  it('text: one [divergence] line naming the client, the scores, the region, its elements and cause; the note with its client', () => {
    const lines = formatGateResult(result, false);
    expect(lines[1]).toBe(
      '  - [divergence] outlook-windows-legacy (light) departs further from the design: divergence 2 -> 31.5 (allowed +5, the design itself changed 0.8%); regions: layout at 100,262 600x288 over div.cols-flex (line 8), div.col; the two columns stack: `display:flex` is removed',
    );
    expect(lines[2]).toBe(
      '  note: [divergence gmail-web dark] divergence grew by 9 points, but 40% of the reference rendering changed too: taken as a design change',
    );
  });

  it('code hosts: an error gate/divergence for the client at the first element line, the note not blocking', () => {
    const [file] = gateCheckReport([result], 1, false).files;
    expect(file.problems[0]).toMatchObject({
      severity: 'error',
      ruleId: 'gate/divergence',
      title: 'divergence in outlook-windows-legacy',
      line: 8,
      clients: ['outlook-windows-legacy'],
      blocking: true,
    });
    expect(file.problems[1]).toMatchObject({ severity: 'note', ruleId: 'gate/divergence', title: 'gmail-web dark', blocking: false });
  });
});
