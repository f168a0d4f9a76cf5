/**
 * Reads the size of a DKIM public key from its base64 `p=` value without any crypto module:
 * a DER SubjectPublicKeyInfo (what RFC 6376 prescribes) or a bare PKCS#1 RSAPublicKey (which
 * some signers publish). Returns null when the bytes are not a key we can read.
 */
export function decodeBase64(text: string): Uint8Array | null {
  const clean = text.replace(/\s+/g, '');
  if (clean === '' || !/^[A-Za-z0-9+/]*={0,2}$/.test(clean) || clean.length % 4 === 1) return null;
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
  const body = clean.replace(/=+$/, '');
  const bytes = new Uint8Array(Math.floor((body.length * 3) / 4));
  let buffer = 0;
  let bits = 0;
  let index = 0;
  for (const char of body) {
    buffer = (buffer << 6) | alphabet.indexOf(char);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      bytes[index++] = (buffer >> bits) & 0xff;
    }
  }
  return bytes.subarray(0, index);
}

interface DerElement {
  tag: number;
  start: number;
  end: number;
}

function readElement(bytes: Uint8Array, offset: number): DerElement | null {
  if (offset + 2 > bytes.length) return null;
  const tag = bytes[offset];
  let length = bytes[offset + 1];
  let start = offset + 2;
  if (length & 0x80) {
    const count = length & 0x7f;
    if (count === 0 || count > 4 || start + count > bytes.length) return null;
    length = 0;
    for (let i = 0; i < count; i++) length = length * 256 + bytes[start + i];
    start += count;
  }
  const end = start + length;
  return end <= bytes.length ? { tag, start, end } : null;
}

const SEQUENCE = 0x30;
const INTEGER = 0x02;
const BIT_STRING = 0x03;

/** Bits of the first INTEGER of an RSAPublicKey SEQUENCE (the modulus). */
function rsaModulusBits(bytes: Uint8Array, offset: number): number | null {
  const sequence = readElement(bytes, offset);
  if (!sequence || sequence.tag !== SEQUENCE) return null;
  const modulus = readElement(bytes, sequence.start);
  if (!modulus || modulus.tag !== INTEGER) return null;
  let start = modulus.start;
  while (start < modulus.end && bytes[start] === 0) start++;
  if (start === modulus.end) return null;
  return (modulus.end - start - 1) * 8 + (32 - Math.clz32(bytes[start]));
}

export function rsaKeyBits(bytes: Uint8Array): number | null {
  const outer = readElement(bytes, 0);
  if (!outer || outer.tag !== SEQUENCE) return null;
  const first = readElement(bytes, outer.start);
  if (!first) return null;
  if (first.tag === INTEGER) return rsaModulusBits(bytes, 0); // PKCS#1
  if (first.tag !== SEQUENCE) return null;
  const bitString = readElement(bytes, first.end);
  if (!bitString || bitString.tag !== BIT_STRING) return null;
  // The BIT STRING starts with a count of unused bits (0 for keys).
  return rsaModulusBits(bytes, bitString.start + 1);
}
