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
  length = 0;

  constructor() {
    if (!scratch) scratch = Buffer.allocUnsafeSlow(4 * 1024 * 1024);
    this.buffer = scratch;
  }

  /** Writes the text; returns how many bytes it took. */
  write(text: string): number {
    const needed = this.length + text.length * 3;
    if (needed > this.buffer.length) {
      const grown = Buffer.allocUnsafeSlow(Math.max(needed, this.buffer.length * 2));
      this.buffer.copy(grown, 0, 0, this.length);
      this.buffer = grown;
      if (grown.length <= SCRATCH_MAX_BYTES) scratch = grown;
    }
    const written = this.buffer.write(text, this.length, 'utf8');
    this.length += written;
    return written;
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

/**
 * The stored result as UTF-8 JSON bytes: the response exactly as `JSON.stringify` writes it, whichever way it
 * was stored (a shared-piece result is reassembled; a result stored before them is the JSON itself).
 */
export function decodePreviewResult(stored: Buffer): Buffer {
  return isSharedPreviewResult(stored) ? reassemble(brotliDecompressSync(stored.subarray(SHARED_MAGIC.length))) : brotliDecompressSync(stored);
}

/*
 * Version 2, shared pieces (issue 40): a result repeats itself. Of the median corpus email's ~740 KB of JSON,
 * 350 KB are 26 distinct documents among the 42 rewritten and dark documents (clients whose rewrite is the same
 * share it), and most of the 130 KB of findings are one finding per client that differs from the others only by
 * the client's id and name. Stored once each, the result is ~440 KB before compression and about half as many
 * bytes after; docs/benchmarks.md has the figures.
 *
 * Layout: SHARED_MAGIC, then Brotli of `<header JSON>\n<skeleton><piece 0><piece 1>...`. The skeleton is the
 * response JSON with every shared value replaced by a reference `\0<piece>\0`, or `\0<piece>:<client>\0` for a
 * finding, whose piece is its JSON with the client's id literal written \x01 and its name \x02. JSON text never
 * holds a raw control character (JSON.stringify escapes them all), so these bytes cannot be confused with the
 * text, and reassembling is splicing bytes: nothing is parsed or serialized again.
 */

/** Opens a shared-piece result. Its first byte, 0, cannot open a version 1 result (Brotli with a 4 MB window opens with 0x?b). */
const SHARED_MAGIC = Buffer.from([0x00, 0x6d, 0x70, 0x02]);
/** Strings at least this long are stored once however often the result holds them (the documents). */
const SHARE_MIN_CHARS = 1024;
/** How many levels the writer goes into before writing a value whole, as encodePreviewResult; deeper only where something is shared. */
const SHARED_DEPTH = SPLIT_DEPTH;
/**
 * Brotli quality of a shared-piece result: 5 on ~440 KB measured 2.1 ms of CPU (quality 1 of the old ~740 KB: 0.6
 * ms) for 16.2 KB instead of 24.2 KB at quality 1 (the old format: 33.6 KB), median corpus email.
 */
const SHARED_QUALITY = 5;

/** Names the finding texts spell out per client, by client id: what a finding's piece leaves out beside the id. */
export type ClientNames = Readonly<Record<string, string>>;

/** Whether stored bytes are a shared-piece result (version 2) rather than the whole JSON (version 1). */
export function isSharedPreviewResult(stored: Buffer): boolean {
  return stored.length > SHARED_MAGIC.length && stored.subarray(0, SHARED_MAGIC.length).equals(SHARED_MAGIC);
}

/**
 * The stored form of a preview result, version 2: decodes (decodePreviewResult) to exactly the bytes
 * `encodePreviewResult` stores, with each long string and each client's finding stored once. `clientNames`
 * lets findings that name their client share a piece; `shareMinChars` is for tests.
 */
export function encodeSharedPreviewResult(id: string, result: object, clientNames: ClientNames = {}, shareMinChars = SHARE_MIN_CHARS): Buffer {
  const out = new JsonScratchWriter();
  const pieces = new SharedPieces(clientNames, shareMinChars);
  out.write(`{"id":${JSON.stringify(id)}`);
  for (const key of Object.keys(result)) writeSharedMember(out, pieces, key, (result as Record<string, unknown>)[key], SHARED_DEPTH - 1, false);
  out.write('}');
  const skeletonBytes = out.length;
  const pieceBytes = pieces.texts.map((text) => out.write(text));
  const header = Buffer.from(`${JSON.stringify({ skeleton: skeletonBytes, pieces: pieceBytes, clients: pieces.clients })}\n`, 'utf8');
  const payload = Buffer.concat([header, out.bytes()]);
  const compressed = brotliCompressSync(payload, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: SHARED_QUALITY,
      [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
      [constants.BROTLI_PARAM_SIZE_HINT]: payload.length,
    },
  });
  return Buffer.concat([SHARED_MAGIC, compressed]);
}

/** The pieces a result shares, each stored once, and the clients its findings name. */
class SharedPieces {
  readonly texts: string[] = [];
  /** Per client a finding named: its id's JSON literal and its name as JSON writes it inside a string (null: no name known). */
  readonly clients: Array<[string, string | null]> = [];
  private readonly pieceIndex = new Map<string, number>();
  private readonly stringIndex = new Map<string, number>();
  private readonly clientIndex = new Map<string, number>();

  constructor(
    private readonly names: ClientNames,
    readonly minChars: number,
  ) {}

  /**
   * The reference to a long string stored once. Keyed by the string itself, not its JSON: clients that share a
   * document share the string, whose hash V8 computes once, and only the first sight of it is escaped.
   */
  piece(value: string): string {
    let index = this.stringIndex.get(value);
    if (index === undefined) {
      index = this.texts.length;
      this.texts.push(JSON.stringify(value));
      this.stringIndex.set(value, index);
    }
    return `\u0000${index}\u0000`;
  }

  /** The reference to a finding's JSON (which names `client`) stored once for every client it reads the same for. */
  finding(json: string, client: string): string {
    let index = this.clientIndex.get(client);
    if (index === undefined) {
      index = this.clients.length;
      const name = Object.prototype.hasOwnProperty.call(this.names, client) ? JSON.stringify(this.names[client]).slice(1, -1) : '';
      this.clients.push([JSON.stringify(client), name === '' ? null : name]);
      this.clientIndex.set(client, index);
    }
    const [idLiteral, name] = this.clients[index];
    const withoutId = json.replaceAll(idLiteral, '\x01');
    return `\u0000${this.indexOf(name === null ? withoutId : withoutId.replaceAll(name, '\x02'))}:${index}\u0000`;
  }

  private indexOf(text: string): number {
    let index = this.pieceIndex.get(text);
    if (index === undefined) {
      index = this.texts.length;
      this.texts.push(text);
      this.pieceIndex.set(text, index);
    }
    return index;
  }
}

/** A plain object naming its client (a finding, a warning): stored as one piece per distinct text. */
function isClientFinding(value: unknown): value is { client: string } {
  return isSplittable(value) && !Array.isArray(value) && typeof (value as { client?: unknown }).client === 'string';
}

/** A plain object or array that holds, one level down, a string to share or findings to store by client: it is written in parts. */
function holdsShared(value: object, minChars: number): boolean {
  const holds = (member: unknown) =>
    (typeof member === 'string' && member.length >= minChars) || (Array.isArray(member) && member.length > 0 && isClientFinding(member[0]));
  if (Array.isArray(value)) return value.length > 0 && holds(value);
  for (const key in value) if (holds((value as Record<string, unknown>)[key])) return true;
  return false;
}

/**
 * A value's JSON where it stands (undefined where JSON.stringify leaves it out), its reference, or null once it was
 * written in parts. Values are written whole below `depth` (as encodePreviewResult does), except those that
 * hold something to share: a document, a list of findings.
 */
function sharedValue(out: JsonScratchWriter, pieces: SharedPieces, key: string, value: unknown, depth: number, inArray: boolean): string | undefined | null {
  if (typeof value === 'string') return value.length >= pieces.minChars ? pieces.piece(value) : JSON.stringify(value);
  if (inArray && isClientFinding(value)) return pieces.finding(JSON.stringify(value), value.client);
  if (isSplittable(value) && (depth > 0 || holdsShared(value, pieces.minChars))) {
    writeSharedSplit(out, pieces, value, depth);
    return null;
  }
  return leafJson(key, value);
}

function writeSharedMember(out: JsonScratchWriter, pieces: SharedPieces, key: string, value: unknown, depth: number, first: boolean): boolean {
  const name = `${first ? '' : ','}${JSON.stringify(key)}:`;
  if (isSplittable(value) && (depth > 0 || holdsShared(value, pieces.minChars))) {
    out.write(name);
    writeSharedSplit(out, pieces, value, depth);
    return true;
  }
  const json = sharedValue(out, pieces, key, value, 0, false);
  if (json === undefined || json === null) return false;
  out.write(name + json);
  return true;
}

function writeSharedSplit(out: JsonScratchWriter, pieces: SharedPieces, value: object, depth: number): void {
  if (Array.isArray(value)) {
    out.write('[');
    for (let i = 0; i < value.length; i++) {
      if (i > 0) out.write(',');
      const json = sharedValue(out, pieces, String(i), value[i], depth - 1, true);
      if (json !== null) out.write(json ?? 'null');
    }
    out.write(']');
    return;
  }
  out.write('{');
  let first = true;
  for (const key of Object.keys(value)) if (writeSharedMember(out, pieces, key, (value as Record<string, unknown>)[key], depth - 1, first)) first = false;
  out.write('}');
}

/** The response JSON of a shared-piece result's payload (decompressed): the skeleton with every reference filled in. */
function reassemble(payload: Buffer): Buffer {
  const newline = payload.indexOf(0x0a);
  const header = JSON.parse(payload.toString('utf8', 0, newline)) as { skeleton: number; pieces: number[]; clients: Array<[string, string | null]> };
  let offset = newline + 1;
  const skeleton = payload.subarray(offset, offset + header.skeleton);
  offset += header.skeleton;
  const pieces = header.pieces.map((length) => {
    const piece = payload.subarray(offset, offset + length);
    offset += length;
    return piece;
  });
  const filled = new Map<string, Buffer>();
  const fill = (reference: string): Buffer => {
    const colon = reference.indexOf(':');
    if (colon < 0) return pieces[Number(reference)];
    let bytes = filled.get(reference);
    if (!bytes) {
      const [idLiteral, name] = header.clients[Number(reference.slice(colon + 1))];
      const text = pieces[Number(reference.slice(0, colon))].toString('utf8');
      bytes = Buffer.from((name === null ? text : text.split('\x02').join(name)).split('\x01').join(idLiteral), 'utf8');
      filled.set(reference, bytes);
    }
    return bytes;
  };
  const parts: Buffer[] = [];
  let at = 0;
  for (;;) {
    const open = skeleton.indexOf(0, at);
    if (open < 0) break;
    const close = skeleton.indexOf(0, open + 1);
    parts.push(skeleton.subarray(at, open), fill(skeleton.toString('latin1', open + 1, close)));
    at = close + 1;
  }
  parts.push(skeleton.subarray(at));
  return Buffer.concat(parts);
}

/** The stored result as the object it encodes (screenshots are stored apart, beside it). */
export function parsePreviewResult(stored: Buffer): PreviewResult {
  return JSON.parse(decodePreviewResult(stored).toString('utf8')) as PreviewResult;
}
