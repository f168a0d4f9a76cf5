import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { Request, Response } from 'express';
import { decodePreviewResult, isSharedPreviewResult, type PreviewEntity } from '@mailproof/persistence';

const gzipAsync = promisify(gzip);
const brotliAsync = promisify(brotliCompress);
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
 * Sends a JSON body. A large plain body goes compressed (in the libuv thread pool) to a client that accepts
 * it: Brotli at quality 1 where br is accepted (a preview result: ~740 KB of JSON, ~34 KB, ~1 ms), else gzip
 * at level 1 (Node's fetch over http, Python's requests: ~58 KB). Clients that ask for no encoding get it as it is.
 */
export async function sendJsonBody(req: Request, res: Response, status: number, payload: JsonBody): Promise<void> {
  let { body, contentEncoding } = payload;
  const accepted = !contentEncoding && body.length >= GZIP_MIN_BYTES ? req.acceptsEncodings('br', 'gzip') : false;
  if (accepted === 'br') {
    body = await brotliAsync(body, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: 1,
        [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
        [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
      },
    });
    contentEncoding = 'br';
  } else if (accepted === 'gzip') {
    body = await gzipAsync(body, { level: constants.Z_BEST_SPEED });
    contentEncoding = 'gzip';
  }
  res.setHeader('Vary', 'Accept-Encoding');
  if (contentEncoding) res.setHeader('Content-Encoding', contentEncoding);
  res.status(status).type('application/json').send(body);
}

/**
 * The preview response from the stored result. A result stored as the complete response JSON, Brotli-compressed
 * (version 1, before shared pieces) goes untouched to clients that accept `br`. A result stored with shared pieces
 * is reassembled (bytes spliced, nothing parsed) and sendJsonBody compresses it for the client. Only when rendering
 * has added screenshots and the rendered reports since is the JSON opened, to add them.
 */
function storedPreviewBody(preview: StoredPreview, acceptsBrotli: boolean): JsonBody {
  const stored = preview.result ?? Buffer.alloc(0);
  const screenshots = preview.screenshots && Object.keys(preview.screenshots).length > 0 ? preview.screenshots : null;
  const rendered = preview.renderedReports ?? null;
  if (!screenshots && !rendered && acceptsBrotli && !isSharedPreviewResult(stored)) return { body: stored, contentEncoding: 'br' };
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

/** Sends a completed preview (200): version 1 bytes as they are when the client takes `br`, else as JSON (compressed as the client accepts). */
export function sendStoredPreview(req: Request, res: Response, preview: StoredPreview): Promise<void> {
  return sendJsonBody(req, res, 200, storedPreviewBody(preview, req.acceptsEncodings('br') === 'br'));
}

/** Sends stored Brotli JSON as a 200 (a fix run's answer): the bytes as they are when the client takes `br`, else decompressed. */
export function sendStoredJson(req: Request, res: Response, stored: Buffer): Promise<void> {
  const body: JsonBody = req.acceptsEncodings('br') === 'br' ? { body: stored, contentEncoding: 'br' } : { body: decodePreviewResult(stored) };
  return sendJsonBody(req, res, 200, body);
}
