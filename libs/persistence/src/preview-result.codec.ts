import { brotliCompressSync, brotliDecompressSync, constants } from 'node:zlib';
import type { PreviewResult } from '@mailproof/contracts';

/**
 * How a preview result is stored: the complete response JSON (id included) compressed with
 * Brotli at quality 1. A result is ~700 KB of similar HTML (21 documents and 21 dark variants);
 * quality 1 takes ~1 ms and shrinks it ~25x, so PostgreSQL moves kilobytes instead of megabytes
 * and the API can hand the stored bytes to clients that accept `br` without touching them.
 *
 * The bytes are `{"id":<id>,` followed by the result's fields exactly as `JSON.stringify(result)`
 * writes them (same key order, same escapes), made without ever holding the whole JSON as one string:
 * see `JsonScratchWriter`. Measured in an analysis thread on the median corpus email (busy machine):
 * 1-2 ms from the result object to the UTF-8 bytes, against ~11 ms for `Buffer.from(JSON.stringify())`.
 */
export function encodePreviewResult(id: string, result: object): Buffer {
  const out = new JsonScratchWriter();
  out.write(`{"id":${JSON.stringify(id)}`);
  for (const key of Object.keys(result)) writeMember(out, key, (result as Record<string, unknown>)[key], SPLIT_DEPTH - 1, false);
  out.write('}');
  return brotliCompressSync(out.bytes(), {
    params: { [constants.BROTLI_PARAM_QUALITY]: 1, [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT },
  });
}

/**
 * How many levels of plain objects and arrays are written member by member; below that, each value is
 * one `JSON.stringify`. Two levels cut a result into a few thousand strings of at most tens of KB.
 */
const SPLIT_DEPTH = 2;
/** A result whose UTF-8 would need more than this is written into a buffer of its own (an email at the size limit). */
const SCRATCH_MAX_BYTES = 16 * 1024 * 1024;
/** The buffer this thread writes results into before compressing them: kept, as the sizes repeat. */
let scratch: Buffer | null = null;

/**
 * Writes JSON text as UTF-8 into the thread's scratch buffer (valid until the next result; compressed
 * at once). Why not `Buffer.from(JSON.stringify(result))`: V8 builds a large JSON string as a tree of
 * parts, and the first read of its characters copies it into one flat ~1.4 MB two-byte string, which
 * measured ~9 ms per result, more than a third of the analysis; `Buffer.from` of it then takes a slow
 * path, and every new 1-2 MB buffer is external memory that pushes V8 towards a full collection. Written
 * as a few thousand small strings into a kept buffer of the largest size they can need (3 bytes per
 * UTF-16 unit), none of that happens. Lone surrogates never reach it: JSON.stringify escapes them.
 */
class JsonScratchWriter {
  private buffer: Buffer;
  private length = 0;

  constructor() {
    if (!scratch) scratch = Buffer.allocUnsafeSlow(4 * 1024 * 1024);
    this.buffer = scratch;
  }

  write(text: string): void {
    const needed = this.length + text.length * 3;
    if (needed > this.buffer.length) {
      const grown = Buffer.allocUnsafeSlow(Math.max(needed, this.buffer.length * 2));
      this.buffer.copy(grown, 0, 0, this.length);
      this.buffer = grown;
      if (grown.length <= SCRATCH_MAX_BYTES) scratch = grown;
    }
    this.length += this.buffer.write(text, this.length, 'utf8');
  }

  bytes(): Buffer {
    return this.buffer.subarray(0, this.length);
  }
}

function isSplittable(value: unknown): value is object {
  if (value === null || typeof value !== 'object' || typeof (value as { toJSON?: unknown }).toJSON === 'function') return false;
  if (Array.isArray(value)) return true;
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

/** `,"key":value` (no comma for an object's first member); nothing where JSON.stringify leaves the member out. */
function writeMember(out: JsonScratchWriter, key: string, value: unknown, depth: number, first: boolean): boolean {
  const name = `${first ? '' : ','}${JSON.stringify(key)}:`;
  if (depth > 0 && isSplittable(value)) {
    out.write(name);
    writeSplit(out, value, depth);
    return true;
  }
  const json = leafJson(key, value);
  if (json === undefined) return false;
  out.write(name + json);
  return true;
}

/**
 * The JSON of one member or element, as JSON.stringify writes it inside its parent. Only a toJSON
 * sees the difference (it is called with the member's key, or the element's index); such values,
 * rare, are serialized inside a one-member object, so that toJSON gets its key.
 */
function leafJson(key: string, value: unknown): string | undefined {
  if (value === null || value === undefined || typeof (value as { toJSON?: unknown }).toJSON !== 'function') return JSON.stringify(value) as string | undefined;
  const wrapped = JSON.stringify({ [key]: value });
  const prefix = JSON.stringify(key).length + 2; // {"key":
  return wrapped.length > 2 ? wrapped.slice(prefix, -1) : undefined;
}

/** A plain object or array, member by member, as JSON.stringify writes it. */
function writeSplit(out: JsonScratchWriter, value: object, depth: number): void {
  if (Array.isArray(value)) {
    out.write('[');
    for (let i = 0; i < value.length; i++) {
      if (i > 0) out.write(',');
      const item: unknown = value[i];
      if (depth > 1 && isSplittable(item)) writeSplit(out, item, depth - 1);
      else out.write(leafJson(String(i), item) ?? 'null');
    }
    out.write(']');
    return;
  }
  out.write('{');
  let first = true;
  for (const key of Object.keys(value)) if (writeMember(out, key, (value as Record<string, unknown>)[key], depth - 1, first)) first = false;
  out.write('}');
}

/** The stored result as UTF-8 JSON bytes. */
export function decodePreviewResult(stored: Buffer): Buffer {
  return brotliDecompressSync(stored);
}

/** The stored result as the object it encodes (screenshots are stored apart, beside it). */
export function parsePreviewResult(stored: Buffer): PreviewResult {
  return JSON.parse(decodePreviewResult(stored).toString('utf8')) as PreviewResult;
}
