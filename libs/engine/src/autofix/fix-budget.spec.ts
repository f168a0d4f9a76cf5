import * as ledgerModule from './finding-ledger';
import { MAX_FIX_ANALYSES, fixEmail } from './fix-email';

describe('fixEmail: bounded cost', () => {
  afterEach(() => jest.restoreAllMocks());

  it('rolls back 40 fixes that each introduce a finding with a bounded number of analyses, never one per fix', () => {
    // Each var() resolves to rgba(), which Outlook's Word engine does not support: every candidate fails verification.
    const paragraphs = Array.from({ length: 40 }, (_, index) => `<p style="--shade${index}: rgb(0 0 0 / 50%); color: var(--shade${index});">p${index}</p>`);
    const html = `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>t</title></head><body>${paragraphs.join('\n')}</body></html>`;
    const analyses = jest.spyOn(ledgerModule, 'buildFindingLedger');
    const result = fixEmail(html, { clients: ['outlook-windows-legacy', 'gmail-web'] });
    expect(result.applied.filter((fix) => fix.rule === 'static-css-values')).toEqual([]);
    expect(result.skipped.filter((skip) => skip.rule === 'static-css-values')).toHaveLength(40);
    expect(result.introduced).toEqual([]);
    // The first analysis, the one of all fixes together, and at most 16 for the failing rule's bisection, plus one per later pass.
    expect(analyses.mock.calls.length).toBeLessThanOrEqual(2 + 16 + 3);
    expect(analyses.mock.calls.length).toBeLessThanOrEqual(MAX_FIX_ANALYSES);
  });
});
