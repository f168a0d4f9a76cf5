import { checkPreviewPayload, previewAnalyzeJob } from './preview.job';

describe('preview.analyze', () => {
  it("carries a gate run's bulk: true as an option beside the id, never the source; the job id stays the preview's", () => {
    const plain = previewAnalyzeJob('prv_1');
    const bulk = previewAnalyzeJob('prv_1', { bulk: true });
    expect(plain.data).toEqual({ schemaVersion: 1, previewId: 'prv_1' });
    expect(bulk.data).toEqual({ schemaVersion: 1, previewId: 'prv_1', bulk: true });
    expect(previewAnalyzeJob('prv_1', { bulk: false }).data).toEqual(plain.data);
    expect(bulk.jobId).toBe(plain.jobId);
  });

  it('accepts bulk absent or true and refuses anything else', () => {
    expect(checkPreviewPayload({ schemaVersion: 1, previewId: 'prv_1' })).toBeUndefined();
    expect(checkPreviewPayload({ schemaVersion: 1, previewId: 'prv_1', bulk: true })).toBeUndefined();
    for (const bulk of [false, 'true', 1, null])
      expect(checkPreviewPayload({ schemaVersion: 1, previewId: 'prv_1', bulk })).toBe('bulk must be true when present');
    expect(checkPreviewPayload({ schemaVersion: 1 })).toBe('previewId must be a non-empty string');
  });

  it("carries a gate run's verdict options for the analysis to judge, and refuses malformed ones", () => {
    const gate = { threshold: 80, failOnError: false, checks: ['compatibility', 'content', 'regression'] as const };
    const job = previewAnalyzeJob('prv_1', { bulk: true, gate: { ...gate, checks: [...gate.checks] } });
    expect(job.data).toEqual({
      schemaVersion: 1,
      previewId: 'prv_1',
      bulk: true,
      gate: { threshold: 80, failOnError: false, checks: ['compatibility', 'content', 'regression'] },
    });
    expect(job.jobId).toBe(previewAnalyzeJob('prv_1').jobId);
    expect(checkPreviewPayload(job.data as unknown as Record<string, unknown>)).toBeUndefined();
    const payload = (value: unknown) => ({ schemaVersion: 1, previewId: 'prv_1', gate: value });
    expect(checkPreviewPayload(payload(null))).toBe('gate must be an object when present');
    expect(checkPreviewPayload(payload({ ...gate, threshold: 101 }))).toBe('gate.threshold must be a number from 0 to 100');
    expect(checkPreviewPayload(payload({ ...gate, threshold: '80' }))).toBe('gate.threshold must be a number from 0 to 100');
    expect(checkPreviewPayload(payload({ ...gate, failOnError: 'yes' }))).toBe('gate.failOnError must be a boolean');
    expect(checkPreviewPayload(payload({ ...gate, checks: ['compatibility', 'spelling'] }))).toBe('gate.checks must list gate check families');
  });
});
