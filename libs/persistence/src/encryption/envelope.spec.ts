import { randomBytes, randomUUID } from 'node:crypto';
import { DataKeyring } from './data-keyring';
import { DataKeyringError } from './encryption.errors';
import { isSealed, open, seal, sealedKeyId, type SealContext } from './envelope';
import { encodePreviewResult } from '../preview-result.codec';

const context: SealContext = { table: 'previews', column: 'source', rowId: 'prv_a', accountId: '00000000-0000-4000-8000-000000000001' };

describe('the encryption envelope (AES-256-GCM, version 1)', () => {
  const dataKey = { id: randomUUID(), key: randomBytes(32) };

  it('opens what it sealed, names its data key, and hides the plaintext', () => {
    const plain = Buffer.from('<p>Your receipt, Jane Doe</p>');
    const sealed = seal(plain, dataKey, context);
    expect(isSealed(sealed)).toBe(true);
    expect(sealedKeyId(sealed)).toBe(dataKey.id);
    expect(sealed.includes(plain)).toBe(false);
    expect(open(sealed, dataKey, context).equals(plain)).toBe(true);
  });

  it('seals the same plaintext differently each time (a fresh IV)', () => {
    const plain = Buffer.from('same');
    expect(seal(plain, dataKey, context).equals(seal(plain, dataKey, context))).toBe(false);
  });

  it.each([
    ['another row', { ...context, rowId: 'prv_b' }],
    ['another column', { ...context, column: 'files' }],
    ['another table', { ...context, table: 'fix_runs' }],
    ['another account', { ...context, accountId: '00000000-0000-4000-8000-000000000002' }],
    ['an anonymous row', { ...context, accountId: null }],
  ])('does not open on %s (the AAD binds the ciphertext to its place)', (_name, elsewhere) => {
    expect(() => open(seal(Buffer.from('x'), dataKey, context), dataKey, elsewhere)).toThrow();
  });

  it('does not open a changed byte, header included', () => {
    const sealed = seal(Buffer.from('hello world'), dataKey, context);
    for (const index of [3, 10, 25, 40, sealed.length - 1]) {
      const changed = Buffer.from(sealed);
      changed[index] ^= 1;
      expect(() => open(changed, dataKey, context)).toThrow();
    }
  });

  it('never mistakes a stored preview result (Brotli) for an envelope', () => {
    for (const result of [{}, { a: 'x'.repeat(100_000) }, { html: randomBytes(20_000).toString('hex') }]) {
      expect(isSealed(encodePreviewResult('prv_x', result))).toBe(false);
    }
  });
});

describe('DataKeyring', () => {
  const k1 = { id: 'k1', key: randomBytes(32) };
  const k2 = { id: 'k2', key: randomBytes(32) };

  it('wraps with its first key and unwraps with any of its keys', () => {
    const dataKey = randomBytes(32);
    const wrapped = new DataKeyring([k1]).wrap('dk', 'owner', dataKey);
    expect(wrapped.kekId).toBe('k1');
    expect(new DataKeyring([k2, k1]).unwrap('dk', 'owner', wrapped.kekId, wrapped.wrapped).equals(dataKey)).toBe(true);
  });

  it('says which key is missing when the ring lacks the one that wrapped', () => {
    const wrapped = new DataKeyring([k1]).wrap('dk', 'owner', randomBytes(32));
    expect(() => new DataKeyring([k2]).unwrap('dk', 'owner', 'k1', wrapped.wrapped)).toThrow(DataKeyringError);
    expect(() => new DataKeyring([k2]).unwrap('dk', 'owner', 'k1', wrapped.wrapped)).toThrow(/wrapped by key "k1", which MAILPROOF_DATA_KEYS does not hold/);
  });

  it('refuses a wrapped key moved to another owner or another id, and a changed key under the same id', () => {
    const ring = new DataKeyring([k1]);
    const { wrapped } = ring.wrap('dk', 'owner', randomBytes(32));
    expect(() => ring.unwrap('dk', 'other-owner', 'k1', wrapped)).toThrow(/does not unwrap/);
    expect(() => ring.unwrap('dk2', 'owner', 'k1', wrapped)).toThrow(/does not unwrap/);
    expect(() => new DataKeyring([{ id: 'k1', key: randomBytes(32) }]).unwrap('dk', 'owner', 'k1', wrapped)).toThrow(/does not unwrap/);
  });
});
