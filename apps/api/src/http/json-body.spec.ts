import fc from 'fast-check';
import { MAX_JSON_DEPTH, exceedsJsonDepth, hostileFields, parseJsonBody } from './json-body';

function depthOf(value: unknown): number {
  if (Array.isArray(value)) return 1 + Math.max(0, ...value.map(depthOf));
  if (value !== null && typeof value === 'object') return 1 + Math.max(0, ...Object.values(value).map(depthOf));
  return 0;
}

describe('parseJsonBody', () => {
  it('measures nesting outside strings only, exactly as deep as the parsed value', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 8 }), fc.integer({ min: 0, max: 10 }), (value, limit) => {
        const text = JSON.stringify(value);
        expect(exceedsJsonDepth(text, limit)).toBe(depthOf(value) > limit);
      }),
      { seed: 14, numRuns: 500 },
    );
    expect(exceedsJsonDepth('{"a":"[[[[\\"[[[["}', 1)).toBe(false);
  });

  it('never throws, whatever the bytes', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), (bytes) => {
        parseJsonBody(Buffer.from(bytes));
      }),
      { seed: 14, numRuns: 2000 },
    );
  });

  it('refuses invalid UTF-8, non-containers and depth past the limit as invalid_json', () => {
    expect(parseJsonBody(Buffer.from([0x7b, 0xff, 0x7d]))).toMatchObject({ ok: false, code: 'invalid_json' });
    expect(parseJsonBody(Buffer.from('"just a string"'))).toMatchObject({ ok: false, code: 'invalid_json' });
    expect(parseJsonBody(Buffer.from('['.repeat(MAX_JSON_DEPTH) + ']'.repeat(MAX_JSON_DEPTH)))).toMatchObject({ ok: true });
    expect(parseJsonBody(Buffer.from('['.repeat(MAX_JSON_DEPTH + 1) + ']'.repeat(MAX_JSON_DEPTH + 1)))).toMatchObject({ ok: false, code: 'invalid_json' });
    expect(parseJsonBody(Buffer.alloc(0))).toEqual({ ok: true, value: {} });
    // A BOM is not content.
    expect(parseJsonBody(Buffer.from('\ufeff{"a":1}'))).toEqual({ ok: true, value: { a: 1 } });
  });

  it('names NUL characters and prototype keys as field errors', () => {
    expect(hostileFields(JSON.parse('{"__proto__":1,"a":[{"b":"x\\u0000"}],"c\\u0000":2,"d":{"constructor":{}}}'))).toEqual([
      { field: '__proto__', message: 'property __proto__ should not exist' },
      { field: 'a.0.b', message: 'a.0.b must not contain the NUL character (U+0000)' },
      { field: 'c\\u0000', message: 'property names must not contain the NUL character (U+0000)' },
      { field: 'd.constructor', message: 'property constructor should not exist' },
    ]);
    expect(hostileFields(JSON.parse(JSON.stringify({ a: Array(100).fill('\u0000') }))).length).toBe(20);
  });
});
