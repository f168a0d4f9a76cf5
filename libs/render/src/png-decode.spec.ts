import { PNG } from 'pngjs';
import { decodePng, downscale } from './png-decode';

/** A 37 x 23 image with gradients and noise, so every scanline filter has work to do. */
function testImage(alpha: boolean): PNG {
  const png = new PNG({ width: 37, height: 23, colorType: alpha ? 6 : 2, inputHasAlpha: true });
  let seed = 7;
  for (let i = 0; i < 37 * 23; i++) {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    const x = i % 37;
    const y = Math.floor(i / 37);
    png.data.set([(x * 7) & 0xff, (y * 11 + x) & 0xff, seed & 0xff, alpha ? (seed >> 8) & 0xff : 255], i * 4);
  }
  return png;
}

describe('decodePng', () => {
  for (const alpha of [false, true]) {
    for (const filterType of [0, 1, 2, 3, 4, -1]) {
      it(`decodes ${alpha ? 'RGBA' : 'RGB'} scanlines of filter ${filterType === -1 ? 'adaptive' : filterType} exactly as pngjs`, () => {
        const image = testImage(alpha);
        const encoded = PNG.sync.write(image, { colorType: alpha ? 6 : 2, filterType });
        const reference = PNG.sync.read(encoded);
        const decoded = decodePng(encoded);
        expect({ width: decoded.width, height: decoded.height }).toEqual({ width: 37, height: 23 });
        expect(decoded.data.equals(reference.data)).toBe(true);
        // A 2x page averaged down while decoding: the same as averaging the decoded page.
        const halved = decodePng(encoded, 2);
        const expected = downscale({ width: reference.width, height: reference.height, data: reference.data }, 2);
        expect({ width: halved.width, height: halved.height }).toEqual({ width: 18, height: 11 });
        expect(halved.data.equals(expected.data)).toBe(true);
      });
    }
  }

  it('hands other PNGs (palette, 16-bit) to pngjs', () => {
    const image = testImage(false);
    const encoded = PNG.sync.write(image, { colorType: 6, bitDepth: 16, inputHasAlpha: true } as never);
    const decoded = decodePng(encoded);
    expect(decoded.width).toBe(37);
    expect(decoded.data.subarray(0, 4)).toEqual(PNG.sync.read(encoded).data.subarray(0, 4));
  });
});
