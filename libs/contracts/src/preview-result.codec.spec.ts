import fc from 'fast-check';
import { decodePreviewResult, encodePreviewResult, parsePreviewResult } from './preview-result.codec';

describe('the stored preview result', () => {
  it('decodes to the response JSON: the id first, then every field of the result', () => {
    fc.assert(
      fc.property(fc.string(), fc.dictionary(fc.string().filter((key) => key !== 'id' && !/^\d+$/.test(key)), fc.jsonValue()), (id, result) => {
        const decoded = JSON.parse(decodePreviewResult(encodePreviewResult(id, JSON.stringify(result))).toString('utf8'));
        // Compared with what JSON itself round-trips (-0 comes back as 0).
        expect(decoded).toEqual(JSON.parse(JSON.stringify({ id, ...result })));
        expect(Object.keys(decoded)[0]).toBe('id');
      }),
    );
  });

  it('keeps non-ASCII text byte for byte', () => {
    const result = { html: '<p>Grüße — 你好 — 🙂</p>' };
    expect(decodePreviewResult(encodePreviewResult('prv_1', JSON.stringify(result))).toString('utf8')).toBe(`{"id":"prv_1","html":"<p>Grüße — 你好 — 🙂</p>"}`);
  });

  it('stores an empty result as the id alone', () => {
    expect(decodePreviewResult(encodePreviewResult('prv_1', '{}')).toString('utf8')).toBe('{"id":"prv_1"}');
  });

  it('parses the stored result back to the object, id first', () => {
    const parsed = parsePreviewResult(encodePreviewResult('prv_1', JSON.stringify({ overallScore: 93 })));
    expect(parsed).toEqual({ id: 'prv_1', overallScore: 93 });
  });
});
