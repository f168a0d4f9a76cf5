import type { CssFinding } from '@mailproof/engine';
import { analyzeEmailResult, auditEmailResult, diffEmailsResult, type AnalysisLike } from './tool-results';
import { REPORT_FIELDS } from './tool-outputs';

function finding(client: string, property: string, severity: CssFinding['severity'], extra: Partial<CssFinding> = {}): CssFinding {
  return {
    client,
    property,
    severity,
    rule: `rule-${property}`,
    message: `${property} in ${client}`,
    suggestion: `avoid ${property}`,
    occurrences: 1,
    ...extra,
  } as CssFinding;
}

const result: AnalysisLike = {
  overallScore: 85,
  compatibilityScores: {
    'gmail-web': { score: 90, errors: 1, warnings: 0, info: 1 },
    'outlook-windows-legacy': { score: 80, errors: 1, warnings: 1, info: 0 },
  },
  cssReport: [
    finding('gmail-web', '<svg>', 'error', { line: 3, column: 5 }),
    finding('outlook-windows-legacy', '<svg>', 'error', {
      line: 3,
      column: 5,
      fix: { before: '<svg>', after: '<img>', language: 'html', description: 'use an image' },
    }),
    finding('outlook-windows-legacy', 'border-radius', 'warning'),
    finding('gmail-web', 'gap', 'info'),
  ],
  sizeReport: { bytes: 100, clippingRisk: false },
};

describe('analyzeEmailResult', () => {
  it('groups a problem once across the clients it hits; summary leaves info notes out', () => {
    const summary = analyzeEmailResult(result, 'prv_1', 'summary');
    expect(summary.findings).toEqual([
      {
        severity: 'error',
        property: '<svg>',
        rule: 'rule-<svg>',
        line: 3,
        column: 5,
        clients: ['gmail-web', 'outlook-windows-legacy'],
        suggestion: 'avoid <svg>',
      },
      { severity: 'warning', property: 'border-radius', rule: 'rule-border-radius', clients: ['outlook-windows-legacy'], suggestion: 'avoid border-radius' },
    ]);
    expect(summary.counts).toEqual({ error: 1, warning: 1, info: 1 });
    expect(summary.worstClient).toBe('outlook-windows-legacy');
    expect(summary.clients.map((client) => client.name)).toEqual(['Gmail', 'Outlook Classic (Word engine)']);
  });

  it('full keeps info notes, with the message and the first fix any client of the group has', () => {
    const full = analyzeEmailResult(result, null, 'full');
    expect(full.findings.map((group) => group.severity)).toEqual(['error', 'warning', 'info']);
    expect(full.findings[0]).toMatchObject({ message: '<svg> in gmail-web', fix: { after: '<img>' } });
    expect(full.findings[1].fix).toBeUndefined();
  });
});

describe('auditEmailResult', () => {
  it('has every report field, null where the result has none', () => {
    const audit = auditEmailResult(result, 'prv_1');
    for (const field of REPORT_FIELDS) expect(audit).toHaveProperty(field);
    expect(audit.sizeReport).toEqual({ bytes: 100, clippingRisk: false });
    expect(audit.spamReport).toBeNull();
    expect(audit.messageReport).toBeNull();
  });

  it("carries a message's report (format eml) as the result has it", () => {
    const messageReport = { headers: { findings: [] }, parts: { findings: [] }, authentication: { status: 'pass' }, bulkSender: { bulk: false } };
    expect(auditEmailResult({ ...result, messageReport }, 'prv_1').messageReport).toBe(messageReport);
  });
});

describe('diffEmailsResult', () => {
  it('reports fixed and introduced findings and score deltas per client, and which side is which', () => {
    const after: AnalysisLike = {
      ...result,
      overallScore: 95,
      compatibilityScores: { ...result.compatibilityScores, 'outlook-windows-legacy': { score: 97, errors: 0, warnings: 1, info: 0 } },
      cssReport: result.cssReport.filter((f) => !(f.client === 'outlook-windows-legacy' && f.property === '<svg>')),
    };
    const diff = diffEmailsResult({ result, previewId: 'a' }, { result: after, previewId: 'b' });
    expect(diff.before).toEqual({ previewId: 'a', overallScore: 85 });
    expect(diff.after).toEqual({ previewId: 'b', overallScore: 95 });
    const legacy = diff.clients.find((client) => client.clientId === 'outlook-windows-legacy')!;
    expect(legacy.scoreDelta).toBe(17);
    expect(legacy.fixed.map((f) => f.property)).toEqual(['<svg>']);
    expect(legacy.introduced).toEqual([]);
    expect(diff.summary.improved).toEqual(['outlook-windows-legacy']);
  });
});
