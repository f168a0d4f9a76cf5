import { decodePreviewResult, type PreviewEntity } from '@mailproof/persistence';

export interface PreviewBody {
  body: Buffer;
  /** 'br' when the body is the stored Brotli bytes, sent as they are. */
  contentEncoding?: 'br';
}

/**
 * The preview response from the stored result (the complete response JSON, Brotli-compressed).
 * Clients that accept `br` get the stored bytes untouched; others get them decompressed. Only
 * when screenshots have arrived since is the JSON opened, to add them.
 */
export function previewBody(preview: Pick<PreviewEntity, 'result' | 'screenshots'>, acceptsBrotli: boolean): PreviewBody {
  const stored = preview.result ?? Buffer.alloc(0);
  const screenshots = preview.screenshots && Object.keys(preview.screenshots).length > 0 ? preview.screenshots : null;
  if (!screenshots && acceptsBrotli) return { body: stored, contentEncoding: 'br' };
  const json = decodePreviewResult(stored);
  if (!screenshots) return { body: json };
  const object = JSON.parse(json.toString('utf8')) as Record<string, unknown>;
  return { body: Buffer.from(JSON.stringify({ id: object.id, screenshots, ...object }), 'utf8') };
}

/** The stored analysis as an object (for the share page). */
export function previewObject<T>(preview: Pick<PreviewEntity, 'result'>): T {
  return JSON.parse(decodePreviewResult(preview.result ?? Buffer.alloc(0)).toString('utf8')) as T;
}
