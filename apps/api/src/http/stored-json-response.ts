import { promisify } from 'node:util';
import { constants, gzip } from 'node:zlib';
import type { Request, Response } from 'express';
import { decodePreviewResult, type PreviewEntity } from '@mailproof/persistence';

const gzipAsync = promisify(gzip);
/** Smaller bodies are sent as they are: gzip would save little and cost a round through the thread pool. */
const GZIP_MIN_BYTES = 16 * 1024;

/** JSON bytes ready to send, and their encoding when they are not plain. */
export interface JsonBody {
  body: Buffer;
  /** 'br' when the body is the stored Brotli bytes, sent as they are; 'gzip' once sendJsonBody compressed it. */
  contentEncoding?: 'br' | 'gzip';
}

/** The parts of a stored preview the response is made of. */
export type StoredPreview = Pick<PreviewEntity, 'result' | 'screenshots' | 'renderedReports'>;

/**
 * Sends a JSON body. A large plain body goes gzip-compressed (level 1, in the libuv thread pool) to a
 * client that accepts gzip but not br, such as Node's fetch over http or Python's requests: a preview
 * result is ~700 KB of JSON and ~40 KB gzipped. Clients that ask for no encoding get it as it is.
 */
export async function sendJsonBody(req: Request, res: Response, status: number, payload: JsonBody): Promise<void> {
  let { body, contentEncoding } = payload;
  if (!contentEncoding && body.length >= GZIP_MIN_BYTES && req.acceptsEncodings('br', 'gzip') === 'gzip') {
    body = await gzipAsync(body, { level: constants.Z_BEST_SPEED });
    contentEncoding = 'gzip';
  }
  res.setHeader('Vary', 'Accept-Encoding');
  if (contentEncoding) res.setHeader('Content-Encoding', contentEncoding);
  res.status(status).type('application/json').send(body);
}

/**
 * The preview response from the stored result (the complete response JSON, Brotli-compressed).
 * Clients that accept `br` get the stored bytes untouched; others get them decompressed. Only
 * when rendering has added screenshots and the rendered reports since is the JSON opened, to add them.
 */
function storedPreviewBody(preview: StoredPreview, acceptsBrotli: boolean): JsonBody {
  const stored = preview.result ?? Buffer.alloc(0);
  const screenshots = preview.screenshots && Object.keys(preview.screenshots).length > 0 ? preview.screenshots : null;
  const rendered = preview.renderedReports ?? null;
  if (!screenshots && !rendered && acceptsBrotli) return { body: stored, contentEncoding: 'br' };
  const json = decodePreviewResult(stored);
  if (!screenshots && !rendered) return { body: json };
  const object = JSON.parse(json.toString('utf8')) as Record<string, unknown>;
  const renderedFields = rendered
    ? { overflowReport: rendered.overflowReport ?? null, visualReport: rendered.visualReport ?? null, mobileContrast: rendered.mobileContrast ?? null }
    : {};
  const notes = rendered?.screenshotNotes?.length ? { screenshotNotes: rendered.screenshotNotes } : {};
  return { body: Buffer.from(JSON.stringify({ id: object.id, ...(screenshots ? { screenshots } : {}), ...notes, ...object, ...renderedFields }), 'utf8') };
}

/** The preview response as plain JSON bytes (the share JSON splices its `share` into them). */
export function storedPreviewJson(preview: StoredPreview): Buffer {
  return storedPreviewBody(preview, false).body;
}

/** Sends a completed preview (200): the stored bytes as they are when the client takes `br`, else as JSON. */
export function sendStoredPreview(req: Request, res: Response, preview: StoredPreview): Promise<void> {
  return sendJsonBody(req, res, 200, storedPreviewBody(preview, req.acceptsEncodings('br') === 'br'));
}

/** Sends stored Brotli JSON as a 200 (a fix run's answer): the bytes as they are when the client takes `br`, else decompressed. */
export function sendStoredJson(req: Request, res: Response, stored: Buffer): Promise<void> {
  const body: JsonBody = req.acceptsEncodings('br') === 'br' ? { body: stored, contentEncoding: 'br' } : { body: decodePreviewResult(stored) };
  return sendJsonBody(req, res, 200, body);
}
