import { inflateSync } from 'node:zlib';
import { PNG } from 'pngjs';

/** An image as RGBA bytes, row after row. */
export interface RgbaImage {
  width: number;
  height: number;
  data: Buffer;
}

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/**
 * Decodes a PNG to RGBA, averaged down by an integer `scale` (2: each 2x2 block of a phone's 2x screenshot
 * becomes one pixel, the page at CSS px). Chromium's screenshots (8-bit RGB or RGBA, not interlaced) take
 * a direct path: the IDAT stream inflated by Node's zlib, each scanline unfiltered and folded into the
 * output as it comes, so a 2x page never exists at full size; several times faster than pngjs's general
 * decoder, which stays the path for every other kind of PNG.
 */
export function decodePng(png: Buffer, scale = 1): RgbaImage {
  const direct = decodeChromiumPng(png, Math.max(1, Math.round(scale)));
  if (direct) return direct;
  const decoded = PNG.sync.read(png);
  return downscale({ width: decoded.width, height: decoded.height, data: decoded.data }, Math.max(1, Math.round(scale)));
}

function decodeChromiumPng(png: Buffer, scale: number): RgbaImage | null {
  if (png.length < 33 || !png.subarray(0, 8).equals(SIGNATURE)) return null;
  let offset = 8;
  let width = 0;
  let height = 0;
  let channels = 0;
  const idat: Buffer[] = [];
  while (offset + 8 <= png.length) {
    const length = png.readUInt32BE(offset);
    const type = png.toString('latin1', offset + 4, offset + 8);
    const data = png.subarray(offset + 8, offset + 8 + length);
    offset += 12 + length;
    if (type === 'IHDR') {
      width = data.readUInt32BE(0);
      height = data.readUInt32BE(4);
      const [bitDepth, colorType, interlace] = [data[8], data[9], data[12]];
      if (bitDepth !== 8 || interlace !== 0 || (colorType !== 2 && colorType !== 6)) return null;
      channels = colorType === 6 ? 4 : 3;
    } else if (type === 'IDAT') idat.push(data);
    else if (type === 'IEND') break;
  }
  if (width === 0 || height === 0 || channels === 0) return null;
  const raw = inflateSync(idat.length === 1 ? idat[0] : Buffer.concat(idat));
  const stride = width * channels;
  if (raw.length < (stride + 1) * height) return null;
  const outWidth = Math.floor(width / scale);
  const outHeight = Math.floor(height / scale);
  const out = Buffer.alloc(outWidth * outHeight * 4);
  const out32 = new Uint32Array(out.buffer, out.byteOffset, outWidth * outHeight);
  // Scanlines are unfiltered in 4-byte-aligned rows (room for whole words), so the common "Up" filter runs a word at a time.
  const words = Math.ceil(stride / 4);
  let previous = new Uint8Array(words * 4);
  let current = new Uint8Array(words * 4);
  let previousWords = new Uint32Array(previous.buffer);
  let currentWords = new Uint32Array(current.buffer);
  const area = scale * scale;
  const sums = scale > 2 ? new Uint32Array(outWidth * 4) : null;
  for (let y = 0; y < outHeight * scale; y++) {
    const start = y * (stride + 1);
    const filter = raw[start];
    if (filter === 2) {
      // "Up", Chromium's usual filter: four byte-wise additions per 32-bit word (no carry between bytes).
      current.set(raw.subarray(start + 1, start + 1 + stride));
      for (let i = 0; i < words; i++) {
        const x = currentWords[i];
        const z = previousWords[i];
        currentWords[i] = ((x & 0x7f7f7f7f) + (z & 0x7f7f7f7f)) ^ ((x ^ z) & 0x80808080);
      }
    } else unfilter(filter, raw.subarray(start + 1, start + 1 + stride), current, previous, channels);
    if (scale === 1) {
      // One pixel per pixel: RGB(A) widened to RGBA words (little-endian: R in the low byte).
      const row = y * outWidth;
      if (channels === 3)
        for (let x = 0, i = 0; x < outWidth; x++, i += 3) out32[row + x] = (current[i] | (current[i + 1] << 8) | (current[i + 2] << 16) | 0xff000000) >>> 0;
      else out.set(current.subarray(0, stride), row * 4);
    } else if (scale === 2) {
      // A phone's 2x page: on every second line, each 2x2 block (this line and the one above) averaged.
      if (y % 2 === 1) {
        const row = ((y - 1) / 2) * outWidth;
        const step = channels * 2;
        for (let x = 0, i = 0; x < outWidth; x++, i += step) {
          const j = i + channels;
          const r = (previous[i] + previous[j] + current[i] + current[j] + 2) >> 2;
          const g = (previous[i + 1] + previous[j + 1] + current[i + 1] + current[j + 1] + 2) >> 2;
          const b = (previous[i + 2] + previous[j + 2] + current[i + 2] + current[j + 2] + 2) >> 2;
          const alpha = channels === 4 ? (previous[i + 3] + previous[j + 3] + current[i + 3] + current[j + 3] + 2) >> 2 : 255;
          out32[row + x] = (r | (g << 8) | (b << 16) | (alpha << 24)) >>> 0;
        }
      }
    } else if (sums) {
      for (let x = 0, i = 0; x < outWidth * scale; x++, i += channels) {
        const cell = Math.floor(x / scale) * 4;
        sums[cell] += current[i];
        sums[cell + 1] += current[i + 1];
        sums[cell + 2] += current[i + 2];
        sums[cell + 3] += channels === 4 ? current[i + 3] : 255;
      }
      if (y % scale === scale - 1) {
        const target = Math.floor(y / scale) * outWidth * 4;
        for (let i = 0; i < sums.length; i++) out[target + i] = Math.round(sums[i] / area);
        sums.fill(0);
      }
    }
    [previous, current] = [current, previous];
    [previousWords, currentWords] = [currentWords, previousWords];
  }
  return { width: outWidth, height: outHeight, data: out };
}

/** PNG's five scanline filters (RFC 2083, 6.2) reversed into `out`, `previous` being the line above (zeros for the first). */
function unfilter(filter: number, line: Uint8Array, out: Uint8Array, previous: Uint8Array, bpp: number): void {
  const length = line.length;
  switch (filter) {
    case 0:
      out.set(line);
      return;
    case 1:
      for (let i = 0; i < length; i++) out[i] = line[i] + (i >= bpp ? out[i - bpp] : 0);
      return;
    case 2:
      for (let i = 0; i < length; i++) out[i] = line[i] + previous[i];
      return;
    case 3:
      for (let i = 0; i < length; i++) out[i] = line[i] + (((i >= bpp ? out[i - bpp] : 0) + previous[i]) >> 1);
      return;
    case 4:
      for (let i = 0; i < length; i++) {
        const a = i >= bpp ? out[i - bpp] : 0;
        const b = previous[i];
        const c = i >= bpp ? previous[i - bpp] : 0;
        const p = a + b - c;
        const pa = Math.abs(p - a);
        const pb = Math.abs(p - b);
        const pc = Math.abs(p - c);
        out[i] = line[i] + (pa <= pb && pa <= pc ? a : pb <= pc ? b : c);
      }
      return;
    default:
      throw new Error(`PNG scanline filter ${filter} is not defined`);
  }
}

/** A device-pixel image averaged down by an integer `scale` (2x2 blocks at scale 2): the page at CSS px. */
export function downscale(image: RgbaImage, scale: number): RgbaImage {
  if (scale <= 1) return image;
  const width = Math.floor(image.width / scale);
  const height = Math.floor(image.height / scale);
  const out = Buffer.alloc(width * height * 4);
  const area = scale * scale;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      let r = 0;
      let g = 0;
      let b = 0;
      let a = 0;
      for (let dy = 0; dy < scale; dy++) {
        let source = ((y * scale + dy) * image.width + x * scale) * 4;
        for (let dx = 0; dx < scale; dx++, source += 4) {
          r += image.data[source];
          g += image.data[source + 1];
          b += image.data[source + 2];
          a += image.data[source + 3];
        }
      }
      const target = (y * width + x) * 4;
      out[target] = Math.round(r / area);
      out[target + 1] = Math.round(g / area);
      out[target + 2] = Math.round(b / area);
      out[target + 3] = Math.round(a / area);
    }
  }
  return { width, height, data: out };
}
