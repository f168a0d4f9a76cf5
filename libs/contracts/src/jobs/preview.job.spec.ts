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
});
