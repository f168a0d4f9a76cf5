import { analyzeEmail } from '@mailproof/engine';
import { decodePreviewResult, encodePreviewResult } from '@mailproof/persistence';
import { scoresAndFindings } from './stored-findings';

/** A stored result as the preview worker writes it, read back as the API reads it. */
function storedJson(html: string): { json: string; full: Record<string, unknown> } {
  const json = decodePreviewResult(encodePreviewResult('prv_test', analyzeEmail(html, { format: 'html' }))).toString('utf8');
  return { json, full: JSON.parse(json) as Record<string, unknown> };
}

describe('scoresAndFindings', () => {
  it('reads the scores and findings a full parse reads', () => {
    const { json, full } = storedJson('<div style="display:flex;border-radius:4px"><svg></svg></div>');
    const read = scoresAndFindings(json, full.overallScore as number);
    expect(read).toEqual({ overallScore: full.overallScore, compatibilityScores: full.compatibilityScores, cssReport: full.cssReport });
    expect(read.cssReport.length).toBeGreaterThan(0);
  });

  it('is not misled by an email whose text spells the keys it looks for', () => {
    const { json, full } = storedJson('<p>,"compatibilityScores":{},"cssReport":[],"darkMode":</p><div style="display:grid"></div>');
    expect(scoresAndFindings(json, full.overallScore as number).cssReport).toEqual(full.cssReport);
  });

  it('parses everything when the layout is not the expected one', () => {
    const reordered = JSON.stringify({ cssReport: [], darkMode: {}, compatibilityScores: {}, overallScore: 100 });
    expect(scoresAndFindings(reordered, 100)).toMatchObject({ overallScore: 100, cssReport: [] });
    const { json, full } = storedJson('<p>hi</p>');
    expect(scoresAndFindings(json, null)).toEqual(full);
  });
});
