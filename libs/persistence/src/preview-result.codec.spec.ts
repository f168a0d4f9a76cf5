import fc from 'fast-check';
import { decodePreviewResult, encodePreviewResult, encodeSharedPreviewResult, isSharedPreviewResult, parsePreviewResult } from './preview-result.codec';

/** The stored bytes as they were made before the result was written in pieces: the JSON of the result with the id in front. */
const joined = (id: string, result: unknown) => {
  const json = JSON.stringify(result);
  return Buffer.from(json.length > 2 ? `{"id":${JSON.stringify(id)},${json.slice(1)}` : `{"id":${JSON.stringify(id)}}`, 'utf8');
};

/** A result: any keys but the id, any values. */
const resultOf = (key: fc.Arbitrary<string>, value: fc.Arbitrary<unknown>) =>
  fc.dictionary(
    key.filter((name) => name !== 'id'),
    value,
  );

describe('the stored preview result', () => {
  it('decodes to the response JSON: the id first, then every field of the result', () => {
    fc.assert(
      fc.property(
        fc.string(),
        fc.dictionary(
          fc.string().filter((key) => key !== 'id' && !/^\d+$/.test(key)),
          fc.jsonValue(),
        ),
        (id, result) => {
          const decoded = JSON.parse(decodePreviewResult(encodePreviewResult(id, result)).toString('utf8'));
          // Compared with what JSON itself round-trips (-0 comes back as 0).
          expect(decoded).toEqual(JSON.parse(JSON.stringify({ id, ...result })));
          expect(Object.keys(decoded)[0]).toBe('id');
        },
      ),
    );
  });

  it('keeps non-ASCII text byte for byte', () => {
    const result = { html: '<p>Grüße — 你好 — 🙂</p>' };
    expect(decodePreviewResult(encodePreviewResult('prv_1', result)).toString('utf8')).toBe(`{"id":"prv_1","html":"<p>Grüße — 你好 — 🙂</p>"}`);
  });

  it('stores exactly the bytes of JSON.stringify, whatever the result holds (undefined, functions, toJSON, class instances, boxed values, integer keys, any text)', () => {
    const text = fc.string({
      unit: fc.oneof(fc.constantFrom('\ud800', '\udfff', '\u00e9', '\u4f60', '\ud83d\ude42', '"', '\\', '\u2028'), fc.string({ unit: 'binary', maxLength: 1 })),
    });
    const odd = fc.constantFrom<unknown>(
      undefined,
      () => 1,
      Symbol('s'),
      new Date(0),
      { toJSON: () => undefined },
      { toJSON: (key: string) => `key ${key}` },
      new Map([[1, 2]]),
      Object.assign(Object.create(null) as object, { a: 1 }),
      new (class Point {
        x = 1;
      })(),
      Object(5),
      Object('s'),
      -0,
      NaN,
      Infinity,
      [undefined, () => 1],
    );
    const value = fc.letrec((tie) => ({
      node: fc.oneof(
        { depthSize: 'small' },
        fc.jsonValue({ maxDepth: 1 }),
        odd,
        text,
        fc.array(tie('node'), { maxLength: 4 }),
        fc.dictionary(text, tie('node'), { maxKeys: 4 }),
      ),
    })).node;
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), resultOf(text, value), (id, result) => {
        expect(decodePreviewResult(encodePreviewResult(id, result)).equals(joined(id, result))).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it('stores a result too large for the kept buffer, and a small one after it, byte for byte', () => {
    const large = { html: 'Grüße 你好 🙂 '.repeat(400_000), clients: [{ html: 'x'.repeat(5_000_000) }] }; // up to 29 MB of UTF-8
    expect(decodePreviewResult(encodePreviewResult('prv_1', large)).equals(joined('prv_1', large))).toBe(true);
    expect(decodePreviewResult(encodePreviewResult('prv_2', { a: 1 })).toString('utf8')).toBe('{"id":"prv_2","a":1}');
  });

  it('stores an empty result as the id alone', () => {
    expect(decodePreviewResult(encodePreviewResult('prv_1', {})).toString('utf8')).toBe('{"id":"prv_1"}');
  });

  it('parses the stored result back to the object, id first', () => {
    const parsed = parsePreviewResult(encodePreviewResult('prv_1', { overallScore: 93 }));
    expect(parsed).toEqual({ id: 'prv_1', overallScore: 93 });
  });
});

describe('the stored preview result with shared pieces (version 2)', () => {
  const names = { 'gmail-web': 'Gmail', aol: 'AOL Mail', 'outlook-web': 'Outlook.com / 365 web', odd: 'a"b\\c\u0001' };
  const text = fc.string({
    unit: fc.oneof(
      fc.constantFrom('\ud800', '\u00e9', '\ud83d\ude42', '"', '\\', '\u0000', '\u0001', '\u0002', ':', 'Gmail', 'AOL Mail', 'gmail-web', 'odd', 'a"b'),
      fc.string({ unit: 'binary', maxLength: 1 }),
    ),
  });
  const finding = fc.record(
    {
      severity: fc.constantFrom('error', 'warning'),
      client: fc.constantFrom('gmail-web', 'aol', 'outlook-web', 'odd', 'unnamed', ''),
      message: text,
      line: fc.integer(),
    },
    { requiredKeys: ['client'] },
  );
  const value = fc.letrec((tie) => ({
    node: fc.oneof(
      { depthSize: 'small' },
      fc.jsonValue({ maxDepth: 1 }),
      fc.constantFrom<unknown>(undefined, () => 1, new Date(0), { toJSON: (key: string) => `key ${key}` }, -0, NaN, [undefined]),
      text,
      finding,
      fc.array(fc.oneof(finding, tie('node')), { maxLength: 5 }),
      fc.dictionary(text, tie('node'), { maxKeys: 4 }),
    ),
  })).node;

  it('decodes to exactly the bytes of JSON.stringify, whatever is shared (long strings, findings naming their client)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), resultOf(text, value), fc.integer({ min: 1, max: 8 }), (id, result, shareMinChars) => {
        const stored = encodeSharedPreviewResult(id, result, names, shareMinChars);
        expect(isSharedPreviewResult(stored)).toBe(true);
        expect(decodePreviewResult(stored).equals(joined(id, result))).toBe(true);
      }),
      { numRuns: 400 },
    );
  });

  it('stores a document repeated for many clients once, and one finding per client as one piece', () => {
    const html = `<table><tr><td>${'Grüße 🙂 '.repeat(2_000)}</td></tr></table>`;
    const clients = ['gmail-web', 'aol', 'outlook-web'];
    const result = {
      transforms: clients.map((clientId) => ({ clientId, html, warnings: [{ client: clientId, message: `${names[clientId as 'aol']} strips it.` }] })),
      cssReport: clients.map((client) => ({ severity: 'warning', client, property: 'gap', message: `gap is not supported in ${names[client as 'aol']}.` })),
    };
    const shared = encodeSharedPreviewResult('prv_1', result, names);
    expect(decodePreviewResult(shared).equals(joined('prv_1', result))).toBe(true);
    expect(shared.length).toBeLessThan(encodePreviewResult('prv_1', { html }).length + 200);
    expect(parsePreviewResult(shared)).toEqual(JSON.parse(joined('prv_1', result).toString('utf8')));
  });

  it('reads a result stored before shared pieces (version 1) as it always did', () => {
    const old = encodePreviewResult('prv_old', { overallScore: 80, transforms: [{ clientId: 'aol', html: 'x'.repeat(5_000) }] });
    expect(isSharedPreviewResult(old)).toBe(false);
    expect(decodePreviewResult(old).toString('utf8')).toBe(
      `{"id":"prv_old","overallScore":80,"transforms":[{"clientId":"aol","html":"${'x'.repeat(5_000)}"}]}`,
    );
  });
});
