import type { FieldError } from '@mailproof/contracts';

/** Deepest nesting of arrays and objects a request body may have (docs/errors.md). */
export const MAX_JSON_DEPTH = 64;

/** Keys that would reach an object's prototype machinery in some consumer: refused at any depth. */
const FORBIDDEN_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

/** At most this many field errors are listed for one body (a body full of NULs is one mistake). */
const MAX_FIELD_ERRORS = 20;

const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACE = 0x7d;
const CLOSE_BRACKET = 0x5d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

export type JsonBodyOutcome =
  | { ok: true; value: unknown }
  | { ok: false; code: 'invalid_json'; detail: string; message: string }
  | { ok: false; code: 'validation_failed'; errors: FieldError[] };

const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * The deepest nesting of `[` and `{` outside strings, stopping as soon as it passes `limit`.
 * One linear pass over the text, before any parser recursion: a 3 KB body nested 1,500 deep costs
 * nothing here, while JSON.parse and class-transformer would recurse once per level.
 */
export function exceedsJsonDepth(text: string, limit = MAX_JSON_DEPTH): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === BACKSLASH) i++;
      else if (c === QUOTE) inString = false;
    } else if (c === QUOTE) {
      inString = true;
    } else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      if (++depth > limit) return true;
    } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
      depth--;
    }
  }
  return false;
}

/**
 * Field errors of a parsed body: a key named __proto__, constructor or prototype anywhere, and a NUL
 * character (U+0000) in any string, key or value. Field paths are dotted like the validation pipe's
 * (`clients.0`). The depth is already bounded by MAX_JSON_DEPTH, so the recursion is too.
 */
export function hostileFields(value: unknown, path = '', errors: FieldError[] = []): FieldError[] {
  if (errors.length >= MAX_FIELD_ERRORS) return errors;
  if (typeof value === 'string') {
    if (value.includes('\u0000')) errors.push({ field: path || 'body', message: `${path || 'body'} must not contain the NUL character (U+0000)` });
  } else if (Array.isArray(value)) {
    value.forEach((item, index) => hostileFields(item, path ? `${path}.${index}` : String(index), errors));
  } else if (value !== null && typeof value === 'object') {
    for (const key of Object.keys(value)) {
      const field = path ? `${path}.${key}` : key;
      if (FORBIDDEN_KEYS.has(key)) errors.push({ field, message: `property ${key} should not exist` });
      else if (key.includes('\u0000'))
        errors.push({ field: field.replace(/\u0000/g, '\\u0000'), message: 'property names must not contain the NUL character (U+0000)' });
      else hostileFields((value as Record<string, unknown>)[key], field, errors);
      if (errors.length >= MAX_FIELD_ERRORS) break;
    }
  }
  return errors;
}

const FIRST_SIGNIFICANT = /^[\x20\x09\x0a\x0d]*([^\x20\x09\x0a\x0d])/;

/**
 * Decodes and parses a JSON request body, strictly: UTF-8 only (invalid bytes are refused, never
 * replaced), an object or array at the top, at most MAX_JSON_DEPTH levels, then no prototype keys
 * and no NUL characters. An empty body is `{}` (as body-parser had it).
 */
export function parseJsonBody(bytes: Buffer): JsonBodyOutcome {
  if (bytes.length === 0) return { ok: true, value: {} };
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    return {
      ok: false,
      code: 'invalid_json',
      detail: 'The request body is not valid UTF-8.',
      message: 'must be UTF-8 text (it holds bytes that are not valid UTF-8)',
    };
  }
  const first = FIRST_SIGNIFICANT.exec(text)?.[1];
  if (first !== '{' && first !== '[') {
    return { ok: false, code: 'invalid_json', detail: 'The request body is not valid JSON.', message: 'must be a JSON object or array' };
  }
  if (exceedsJsonDepth(text)) {
    return {
      ok: false,
      code: 'invalid_json',
      detail: `The request body nests arrays and objects deeper than ${MAX_JSON_DEPTH} levels.`,
      message: `must not nest arrays and objects more than ${MAX_JSON_DEPTH} levels deep`,
    };
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return {
      ok: false,
      code: 'invalid_json',
      detail: 'The request body is not valid JSON.',
      message: 'must be one valid JSON value (the parser stopped before its end)',
    };
  }
  const errors = hostileFields(value);
  return errors.length > 0 ? { ok: false, code: 'validation_failed', errors } : { ok: true, value };
}
