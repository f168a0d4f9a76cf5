import { pgSafe } from './pg-safe-text';

describe('pgSafe', () => {
  it('strips NUL and replaces lone surrogates in strings, arrays and plain objects (keys too)', () => {
    expect(pgSafe('a\u0000b')).toBe('ab');
    expect(pgSafe('\ud83d\ude00 \ud800 \udc00')).toBe('\ud83d\ude00 \ufffd \ufffd');
    expect(pgSafe({ 'k\u0000': ['x\u0000', { y: '\u0000' }], n: 1, z: null })).toEqual({ k: ['x', { y: '' }], n: 1, z: null });
  });

  it('leaves clean strings and anything that is not a plain object alone', () => {
    const text = 'clean';
    expect(pgSafe(text)).toBe(text);
    const date = new Date(0);
    const buffer = Buffer.from([0]);
    expect(pgSafe(date)).toBe(date);
    expect(pgSafe(buffer)).toBe(buffer);
    class Operator {
      constructor(readonly value: string) {}
    }
    const operator = new Operator('\u0000');
    expect(pgSafe(operator)).toBe(operator);
  });
});
