import { CompileError } from '../compile/compile-error';
import { MESSAGE_LIMITS } from '../limits';
import { structuredHeaderReader } from './postal-mime-internals';
import type { RawHeaderField } from '../parse/parsed-message';

/** Why a message is refused (CompileError.reason), one per bound or defect: docs/messages.md lists them. */
export type MessageRejection =
  | 'not_a_message'
  | 'broken_boundary'
  | 'too_many_parts'
  | 'nesting_too_deep'
  | 'too_many_header_fields'
  | 'too_many_encoded_words'
  | 'header_field_too_large'
  | 'too_many_dkim_signatures'
  | 'part_too_large'
  | 'no_html_part';

export function messageError(reason: MessageRejection, message: string): CompileError {
  return new CompileError({ message, format: 'eml', reason });
}

/** A MIME part as the scan found it, before any decoding. */
export interface ScannedPart {
  /** `1.2` style (RFC 3501); the top level of a single-part message is `1`, of a multipart ''. */
  path: string;
  /** Lower case `type/subtype` as postal-mime reads it (kept when malformed, as "image"); `text/plain` without a Content-Type (RFC 2045 5.2). */
  contentType: string;
  charset: string | null;
  transferEncoding: string | null;
  disposition: 'inline' | 'attachment' | null;
  headers: RawHeaderField[];
  multipart: boolean;
}

export interface MessageSkeleton {
  /** The top-level header fields, in order. */
  headers: RawHeaderField[];
  /** Every part in document order, containers included (the top level first). */
  parts: ScannedPart[];
}

interface OpenMultipart {
  path: string;
  type: string;
  depth: number;
  delimiter: string;
  close: string;
  children: number;
}

// RFC 5322 2.2: a field name is printable US-ASCII except the colon.
const FIELD = /^([!-9;-~]+)[ \t]*:(.*)$/;
const ENCODED_WORD = /=\?[^?\s]+\?[bBqQ]\?/g;

/**
 * Reads the structure of a raw message in one linear pass, before the MIME parser sees it: the header
 * blocks, each multipart's boundary delimiters, and every bound of MESSAGE_LIMITS. The parser itself
 * tolerates broken messages (a missing close delimiter, parts that never start) and has no bound on parts
 * or encoded words; this scan refuses them with a CompileError naming the defect, so that a bomb costs one
 * pass over the text and the parser only ever sees a well-formed, bounded message.
 */
export function scanMessage(raw: string): MessageSkeleton {
  const lines = raw.split(/\r?\n/);
  const counts = { fields: 0, encodedWords: 0 };
  let index = 0;
  // An mbox export starts with its "From sender date" separator line, which is not a header field.
  if (lines[0].startsWith('From ') && !FIELD.test(lines[0])) index = 1;
  if (index >= lines.length || !FIELD.test(lines[index])) {
    throw messageError(
      'not_a_message',
      'This is not a message: it must start with a header block (fields such as "From: ..." and "Subject: ...", then an empty line, then the body).',
    );
  }
  const parts: ScannedPart[] = [];
  const open: OpenMultipart[] = [];

  const startPart = (path: string, depth: number, parentType: string | null): void => {
    const block = readHeaderBlock(lines, index, counts);
    index = block.next;
    const part = describePart(path, block.fields, parentType);
    parts.push(part);
    if (parts.length > MESSAGE_LIMITS.maxParts) {
      throw messageError('too_many_parts', `The message has more than ${MESSAGE_LIMITS.maxParts} MIME parts (the limit).`);
    }
    if (!part.multipart) return;
    if (depth + 1 > MESSAGE_LIMITS.maxNestingDepth) {
      throw messageError('nesting_too_deep', `The message nests multipart parts deeper than ${MESSAGE_LIMITS.maxNestingDepth} levels (the limit).`);
    }
    const boundary = boundaryOf(part);
    open.push({ path, type: part.contentType, depth: depth + 1, delimiter: `--${boundary}`, close: `--${boundary}--`, children: 0 });
  };

  startPart('', 0, null);
  const signatures = parts[0].headers.filter((field) => field.name === 'dkim-signature').length;
  if (signatures > MESSAGE_LIMITS.maxDkimSignatures) {
    throw messageError(
      'too_many_dkim_signatures',
      `The message has ${signatures} DKIM-Signature fields; the limit is ${MESSAGE_LIMITS.maxDkimSignatures} (a sending system signs once or twice).`,
    );
  }
  if (open.length === 0) {
    parts[0].path = '1';
    return { headers: parts[0].headers, parts };
  }
  while (index < lines.length && open.length > 0) {
    const line = lines[index++];
    if (!line.startsWith('--')) continue;
    const trimmed = trimTrailingBlanks(line);
    const inner = open[open.length - 1];
    if (trimmed === inner.delimiter) {
      inner.children++;
      startPart(inner.path === '' ? String(inner.children) : `${inner.path}.${inner.children}`, inner.depth, inner.type);
    } else if (trimmed === inner.close) {
      if (inner.children === 0) throw brokenBoundary(inner, 'closes before any part starts');
      open.pop();
    } else if (open.slice(0, -1).some((outer) => trimmed === outer.delimiter || trimmed === outer.close)) {
      throw brokenBoundary(inner, 'is never closed before its enclosing part continues');
    }
  }
  if (open.length > 0) {
    const inner = open[open.length - 1];
    throw brokenBoundary(inner, inner.children === 0 ? 'never starts a part' : 'is never closed (no final delimiter)');
  }
  return { headers: parts[0].headers, parts };
}

/** Trailing spaces and tabs removed by hand: `/[ \t]+$/` backtracks quadratically over a long inner run of blanks. */
function trimTrailingBlanks(line: string): string {
  let end = line.length;
  while (end > 0 && (line[end - 1] === ' ' || line[end - 1] === '\t')) end--;
  return line.slice(0, end);
}

function brokenBoundary(part: OpenMultipart, what: string): CompileError {
  const name = part.path === '' ? 'the top-level multipart' : `multipart part ${part.path}`;
  return messageError('broken_boundary', `Broken MIME boundary: ${name} ${what} ("${part.delimiter.slice(2, 82)}").`);
}

/** Reads one header block from `start` to its empty line (or the end); counts fields and encoded words against the limits. */
function readHeaderBlock(lines: string[], start: number, counts: { fields: number; encodedWords: number }): { fields: RawHeaderField[]; next: number } {
  const fields: RawHeaderField[] = [];
  let index = start;
  for (; index < lines.length; index++) {
    const line = lines[index];
    if (line === '') return { fields, next: index + 1 };
    if ((line[0] === ' ' || line[0] === '\t') && fields.length > 0) {
      const field = fields[fields.length - 1];
      field.value += line;
      if (field.value.length > MESSAGE_LIMITS.maxHeaderFieldCharacters) throw fieldTooLarge(field.name, index);
    } else {
      const match = FIELD.exec(line);
      if (!match) {
        throw messageError('not_a_message', `Line ${index + 1} is inside a header block but is not a header field ("Name: value") or its continuation.`);
      }
      if (++counts.fields > MESSAGE_LIMITS.maxHeaderFields) {
        throw messageError('too_many_header_fields', `The message has more than ${MESSAGE_LIMITS.maxHeaderFields} header fields (the limit).`);
      }
      fields.push({ name: match[1].toLowerCase(), value: match[2] });
      if (match[2].length > MESSAGE_LIMITS.maxHeaderFieldCharacters) throw fieldTooLarge(match[1], index);
    }
    counts.encodedWords += (line.match(ENCODED_WORD) ?? []).length;
    if (counts.encodedWords > MESSAGE_LIMITS.maxEncodedWords) {
      throw messageError('too_many_encoded_words', `The message's headers have more than ${MESSAGE_LIMITS.maxEncodedWords} encoded words (the limit).`);
    }
  }
  return { fields, next: index };
}

function fieldTooLarge(name: string, index: number): CompileError {
  return messageError(
    'header_field_too_large',
    `The header field ${name.slice(0, 80)} (line ${index + 1}) is longer than ${MESSAGE_LIMITS.maxHeaderFieldCharacters} characters (the limit).`,
  );
}

function describePart(path: string, fields: RawHeaderField[], parentType: string | null): ScannedPart {
  // RFC 2046 5.1.5: a part of a multipart/digest defaults to message/rfc822, as postal-mime reads it.
  const contentType = parseStructured(headerValue(fields, 'content-type') ?? (parentType === 'multipart/digest' ? 'message/rfc822' : 'text/plain'));
  // The type as postal-mime takes it, even when it is no type/subtype ("image"): such a part is an attachment there too.
  const type = contentType.value;
  const disposition = parseStructured(headerValue(fields, 'content-disposition') ?? '').value;
  const encoding = headerValue(fields, 'content-transfer-encoding')?.trim().toLowerCase();
  return {
    path,
    contentType: type,
    charset: contentType.params.charset?.toLowerCase() ?? null,
    transferEncoding: encoding || null,
    disposition: disposition === 'inline' || disposition === 'attachment' ? disposition : null,
    headers: fields,
    multipart: /^multipart\//.test(type),
  };
}

function boundaryOf(part: ScannedPart): string {
  const written = headerValue(part.headers, 'content-type') ?? '';
  const boundary = parseStructured(written).params.boundary;
  const name = part.path === '' ? 'The top-level multipart' : `Multipart part ${part.path}`;
  if (parameterCount(written, 'boundary') > 1)
    throw messageError('broken_boundary', `Broken MIME boundary: ${name} gives its boundary parameter more than once.`);
  if (!boundary) throw messageError('broken_boundary', `Broken MIME boundary: ${name} has no boundary parameter.`);
  if (boundary.length > 200) throw messageError('broken_boundary', `Broken MIME boundary: ${name} has a boundary longer than 200 characters.`);
  return boundary;
}

/** The first field of that name (lower case); undefined when absent. */
export function headerValue(fields: readonly RawHeaderField[], name: string): string | undefined {
  return fields.find((field) => field.name === name)?.value;
}

/** postal-mime's own reader of structured fields, so the scan reads each Content-Type exactly as the parser will (postal-mime-internals.ts). */
const STRUCTURED = structuredHeaderReader();

/** `value; name=token; name="quoted"` (RFC 2045 5.1) as postal-mime reads it: the value and parameter names in lower case. */
export function parseStructured(text: string): { value: string; params: Record<string, string> } {
  const parsed = STRUCTURED.parseStructuredHeader(text);
  return { value: parsed.value.trim().toLowerCase(), params: parsed.params };
}

/** How many times a parameter is given (postal-mime keeps the first; for a boundary a repeat is refused as ambiguous). */
function parameterCount(text: string, name: string): number {
  return text
    .toLowerCase()
    .split(';')
    .filter((segment) => segment.trim().startsWith(`${name}=`) || segment.trim().startsWith(`${name}*`)).length;
}
