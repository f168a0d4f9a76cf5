import { Injectable } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import { MailproofConfig } from '@mailproof/config';
import type { PreviewResult } from '@mailproof/contracts';
import type { MessageReport } from '@mailproof/engine';
import { decodePreviewResult, type PreviewEntity } from '@mailproof/persistence';

/** What the share page, the dashboard's preview page and their client views read of a stored result. */
export type StoredAnalysis = Pick<PreviewResult, 'overallScore' | 'compatibilityScores' | 'cssReport' | 'transforms' | 'darkMode'> & {
  /** A whole message's report (format eml); null for other formats and results stored before it existed. */
  messageReport: MessageReport | null;
};

/**
 * How long an analysis is kept after it was decoded: the longest interval of the retention sweep
 * (PREVIEW_CLEANUP_EVERY_MINUTES is at most 60), so decrypted content of a preview past its retention, whose
 * purge this process is not told of, leaves memory within about two intervals of its time (docs/privacy.md).
 */
export const ANALYSIS_TTL_MS = 60 * 60_000;

/** Heap bytes an analysis takes per byte of its JSON (measured: see `analysisOf`). */
const HEAP_BYTES_PER_JSON_BYTE = 1.25;

/**
 * The analyses that share pages and the dashboard's preview pages show, decoded once and kept in the
 * API's memory (least recently used first out, PREVIEW_PAGE_CACHE_MB in all).
 *
 * Why: a stored result is the whole analysis, 21 rewritten documents and 21 dark variants (~0.7 MB of
 * JSON for a 13 KB email, 4.5 MB for a 90 KB one), and every page view and every client the viewer's
 * picker opens decoded and parsed all of it: 4-47 ms per request on this machine depending on the email
 * (docs/benchmarks.md, "The share page"). A share link is opened by the people it was sent to, each of
 * whom may click through several clients, so the same result is read again and again.
 *
 * A completed preview's result never changes; the key still carries its completion time and stored size,
 * so a result written again (a preview reanalysed) is never served from an older entry. Everything that
 * does change (status, screenshots, rendered reports, a share's expiry or revocation) comes from the row
 * read on each request, never from here.
 */
@Injectable()
export class PreviewAnalysisCache {
  private readonly entries: LRUCache<string, StoredAnalysis> | null;

  constructor(config: MailproofConfig) {
    const maxSize = config.dashboard.previewCacheBytes;
    // ttlAutopurge: an expired entry is dropped on its (unref'd) timer, not only when read again. The clock is read
    // through the global at each call (lru-cache keeps the one it found at load otherwise), so tests can move it.
    const perf = { now: () => performance.now() };
    this.entries = maxSize > 0 ? new LRUCache<string, StoredAnalysis>({ maxSize, ttl: ANALYSIS_TTL_MS, ttlAutopurge: true, perf }) : null;
  }

  /** The analysis of a completed preview (decoded now, or kept from an earlier request); null before it completed or when it failed. */
  analysisOf(preview: Pick<PreviewEntity, 'id' | 'status' | 'completedAt' | 'result'>): StoredAnalysis | null {
    if (preview.status !== 'completed' || !preview.result) return null;
    const key = `${preview.id}:${preview.completedAt?.getTime() ?? 0}:${preview.result.length}`;
    const kept = this.entries?.get(key);
    if (kept) return kept;
    const json = decodePreviewResult(preview.result);
    const parsed = JSON.parse(json.toString('utf8')) as PreviewResult & { messageReport?: MessageReport | null };
    const { overallScore, compatibilityScores, cssReport, transforms, darkMode } = parsed;
    const analysis: StoredAnalysis = { overallScore, compatibilityScores, cssReport, transforms, darkMode, messageReport: parsed.messageReport ?? null };
    // Its size in memory, estimated from the JSON's bytes: the strings are most of it, one byte per character
    // for most markup and two for a document with characters past Latin-1. Measured over the 51 corpus HTML
    // emails: 51.7 MB of JSON took 63.1 MB of heap once parsed, hence the factor. An analysis larger than the
    // whole cache is served but not kept (lru-cache refuses it).
    this.entries?.set(key, analysis, { size: Math.ceil(json.length * HEAP_BYTES_PER_JSON_BYTE) });
    return analysis;
  }

  /** Forgets every analysis: an account was erased (AccountRevocations), and entries are keyed by preview, not account. */
  clear(): void {
    this.entries?.clear();
  }

  /** What is kept now: entries and their estimated bytes in memory (GET /metrics, tests). */
  get usage(): { entries: number; bytes: number } {
    return { entries: this.entries?.size ?? 0, bytes: this.entries?.calculatedSize ?? 0 };
  }
}
