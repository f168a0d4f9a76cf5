import { loadConfig } from '@mailproof/config';
import { encodePreviewResult } from '@mailproof/persistence';
import { ANALYSIS_TTL_MS, PreviewAnalysisCache } from './preview-analysis.cache';

/** A stored result of about `kb` KB of JSON: one client's markup and its dark variant, plus a field the pages never read. */
function storedResult(id: string, kb: number, marker = 'hello', extra: Record<string, unknown> = {}) {
  const html = `<p>${marker}</p>${'x'.repeat(kb * 512)}`;
  const result = {
    overallScore: 91,
    compatibilityScores: { 'gmail-web': { score: 91, errors: 0, warnings: 3, info: 1 } },
    cssReport: [],
    transforms: [{ clientId: 'gmail-web', html }],
    darkMode: { 'gmail-web': { html: `${html}<!-- dark -->` } },
    spamReport: { score: 1 },
    ...extra,
  };
  return encodePreviewResult(id, result);
}

function completed(id: string, kb = 8, marker?: string) {
  return { id, status: 'completed' as const, completedAt: new Date('2026-11-26T10:00:00Z'), result: storedResult(id, kb, marker) };
}

const cacheOf = (megabytes: number) => new PreviewAnalysisCache(loadConfig({ PREVIEW_PAGE_CACHE_MB: String(megabytes) }));

describe('PreviewAnalysisCache', () => {
  it('decodes a completed preview once and keeps only what the pages show', () => {
    const cache = cacheOf(64);
    const preview = completed('prv_aaaaaaaaaaaaaaaaaaaaaaaa');
    const first = cache.analysisOf(preview);
    expect(first).toEqual({
      overallScore: 91,
      compatibilityScores: { 'gmail-web': { score: 91, errors: 0, warnings: 3, info: 1 } },
      cssReport: [],
      transforms: [{ clientId: 'gmail-web', html: expect.stringContaining('<p>hello</p>') }],
      darkMode: { 'gmail-web': { html: expect.stringContaining('<!-- dark -->') } },
      // A result stored before messages existed (or of another format) has none.
      messageReport: null,
    });
    // The same object again: not decoded a second time.
    expect(cache.analysisOf({ ...preview })).toBe(first);
    expect(cache.usage.entries).toBe(1);
    expect(cache.usage.bytes).toBeGreaterThan(8 * 1024);
  });

  it("keeps a whole message's report for the pages' message section", () => {
    const messageReport = { headers: { findings: [] }, parts: { findings: [] }, authentication: { findings: [] }, bulkSender: { bulk: true } };
    const id = 'prv_dddddddddddddddddddddddd';
    const preview = {
      id,
      status: 'completed' as const,
      completedAt: new Date('2026-11-26T10:00:00Z'),
      result: storedResult(id, 1, 'hello', { messageReport }),
    };
    expect(cacheOf(64).analysisOf(preview)?.messageReport).toEqual(messageReport);
  });

  it('has nothing for a preview that is queued or failed', () => {
    const cache = cacheOf(64);
    expect(cache.analysisOf({ id: 'prv_bbbbbbbbbbbbbbbbbbbbbbbb', status: 'queued', completedAt: null, result: null })).toBeNull();
    expect(cache.analysisOf({ id: 'prv_bbbbbbbbbbbbbbbbbbbbbbbb', status: 'failed', completedAt: new Date(), result: null })).toBeNull();
    expect(cache.usage.entries).toBe(0);
  });

  it('never serves an older entry for a result written again (another completion time or size)', () => {
    const cache = cacheOf(64);
    const id = 'prv_cccccccccccccccccccccccc';
    const before = cache.analysisOf(completed(id, 8, 'first'));
    const rewritten = { ...completed(id, 9, 'second'), completedAt: new Date('2026-11-26T11:00:00Z') };
    const after = cache.analysisOf(rewritten);
    expect(after).not.toBe(before);
    expect(after?.transforms[0].html).toContain('<p>second</p>');
  });

  it('keeps no more than PREVIEW_PAGE_CACHE_MB, dropping the least recently used first', () => {
    const cache = cacheOf(1);
    const ids = ['prv_dddddddddddddddddddddddd', 'prv_eeeeeeeeeeeeeeeeeeeeeeee', 'prv_ffffffffffffffffffffffff'];
    const previews = ids.map((id) => completed(id, 600)); // ~0.6 MB of JSON each: two do not fit
    const first = cache.analysisOf(previews[0]);
    cache.analysisOf(previews[1]);
    expect(cache.usage.entries).toBe(1);
    expect(cache.usage.bytes).toBeLessThanOrEqual(1024 * 1024);
    // previews[0] was dropped for previews[1]: decoded again, a new object.
    expect(cache.analysisOf(previews[0])).not.toBe(first);
    // An analysis larger than the whole cache is served but not kept.
    const huge = completed('prv_gggggggggggggggggggggggg', 1200);
    expect(cache.analysisOf(huge)?.overallScore).toBe(91);
    expect(cache.analysisOf(huge)).not.toBe(cache.analysisOf(huge));
  });

  it('with PREVIEW_PAGE_CACHE_MB=0 decodes on every request and keeps nothing', () => {
    const cache = cacheOf(0);
    const preview = completed('prv_hhhhhhhhhhhhhhhhhhhhhhhh');
    const first = cache.analysisOf(preview);
    expect(cache.analysisOf(preview)).toEqual(first);
    expect(cache.analysisOf(preview)).not.toBe(first);
    expect(cache.usage).toEqual({ entries: 0, bytes: 0 });
  });

  it('drops an analysis an hour after it was decoded, so a purged preview does not stay decrypted in memory', () => {
    jest.useFakeTimers();
    try {
      // The fake clock starts at 0, which lru-cache reads as "no start time": move it off 0 first.
      jest.advanceTimersByTime(1_000);
      const cache = cacheOf(64);
      cache.analysisOf(completed('prv_tttttttttttttttttttttttt'));
      expect(cache.usage.entries).toBe(1);
      jest.advanceTimersByTime(ANALYSIS_TTL_MS + 1_000);
      expect(cache.usage.entries).toBe(0);
    } finally {
      jest.useRealTimers();
    }
  });

  it('forgets everything on clear (an account was erased)', () => {
    const cache = cacheOf(64);
    cache.analysisOf(completed('prv_cccccccccccccccccccccccc'));
    cache.clear();
    expect(cache.usage).toEqual({ entries: 0, bytes: 0 });
  });
});
