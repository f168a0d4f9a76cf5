import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { displayPrefix, generateApiKey, hashApiKey, isWellFormedApiKey } from './api-key-secret';

describe('API key secrets', () => {
  it('generates mp_live_ keys with at least 32 random base62 characters that pass their own checksum', () => {
    const keys = Array.from({ length: 200 }, () => generateApiKey());
    for (const key of keys) {
      expect(key).toMatch(/^mp_live_[0-9A-Za-z]{38}$/);
      expect(isWellFormedApiKey(key)).toBe(true);
    }
    expect(new Set(keys).size).toBe(200);
  });

  it('refuses any single-character change', () => {
    const key = generateApiKey();
    fc.assert(
      fc.property(fc.integer({ min: 8, max: key.length - 1 }), fc.constantFrom(...'0123456789abcXYZ'), (index, char) => {
        fc.pre(key[index] !== char);
        const mutated = key.slice(0, index) + char + key.slice(index + 1);
        expect(isWellFormedApiKey(mutated)).toBe(false);
      }),
    );
  });

  it('refuses junk without throwing', () => {
    for (const junk of ['', 'mp_live_', 'mp_test_' + 'a'.repeat(38), 'Bearer x', 'mp_live_' + 'a'.repeat(200), 'mp_live_ä'.padEnd(46, 'a')]) {
      expect(isWellFormedApiKey(junk)).toBe(false);
    }
  });

  it('hashes with SHA-256 and shows 12 characters for display', () => {
    const key = generateApiKey();
    expect(hashApiKey(key)).toHaveLength(32);
    expect(displayPrefix(key)).toBe(key.slice(0, 12));
    expect(hashApiKey(key).equals(createHash('sha256').update(key, 'utf8').digest())).toBe(true);
  });
});
