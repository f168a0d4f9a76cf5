import { PNG } from 'pngjs';
import type { VisualReport } from '@mailproof/contracts';
import { diffImage, divergenceLines } from './divergence-images';

/** A PNG `width` × `height` of one colour, with an optional block of another colour. */
function png(
  width: number,
  height: number,
  rgb: [number, number, number],
  block?: { x: number; y: number; w: number; h: number; rgb: [number, number, number] },
): Buffer {
  const image = new PNG({ width, height });
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const inside = block && x >= block.x && x < block.x + block.w && y >= block.y && y < block.y + block.h;
      const color = inside ? block.rgb : rgb;
      const offset = (y * width + x) * 4;
      image.data.set([...color, 255], offset);
    }
  }
  return PNG.sync.write(image);
}

const WHITE: [number, number, number] = [255, 255, 255];
const BLUE: [number, number, number] = [0, 90, 255];

describe("mailproof screenshots' diff images", () => {
  it('marks exactly the pixels that differ from the reference, in the diff colour, over a faded reference', () => {
    const reference = png(80, 60, WHITE);
    expect(diffImage(reference, png(80, 60, WHITE)).changed).toBe(0);
    const diff = diffImage(reference, png(80, 60, WHITE, { x: 10, y: 20, w: 30, h: 10, rgb: BLUE }));
    expect(diff.changed).toBe(300);
    const image = PNG.sync.read(diff.png);
    expect([image.width, image.height]).toEqual([80, 60]);
    const at = (x: number, y: number) => Array.from(image.data.subarray((y * 80 + x) * 4, (y * 80 + x) * 4 + 3));
    expect(at(20, 25)).toEqual([230, 0, 60]);
    // Outside the block: the reference, faded (white stays white).
    expect(at(60, 5)).toEqual([255, 255, 255]);
  });

  it("compares a longer page's extra rows with the shorter page's background: only what is painted there counts", () => {
    const longer = png(40, 50, WHITE, { x: 0, y: 40, w: 40, h: 5, rgb: BLUE });
    const diff = diffImage(png(40, 30, WHITE), longer);
    expect([diff.width, diff.height]).toEqual([40, 50]);
    expect(diff.changed).toBe(40 * 5);
  });

  it('prints the clients most divergent first, with their diff files and the first cause', () => {
    const divergence: VisualReport['divergence'] = {
      'gmail-web': { light: { score: 3.25, regions: [] } },
      'outlook-windows-legacy': {
        light: {
          score: 48,
          regions: [
            {
              box: { x: 0, y: 0, width: 10, height: 10 },
              kind: 'layout',
              elements: [{ selector: 'div.row', line: 7 }],
              cause: { message: 'the two columns stack: display:flex is removed', property: 'display' },
            },
          ],
        },
        dark: { score: 50.04, regions: [] },
      },
    };
    const lines = divergenceLines(divergence, {
      'outlook-windows-legacy-light': 'out/outlook-windows-legacy-light.diff.png',
      'gmail-web-light': 'out/gmail-web-light.diff.png',
    });
    expect(lines).toEqual([
      'divergence from the email as written (0 = identical, 100 = nothing in common), most different first:',
      '  outlook-windows-legacy  light  48.0  dark  50.0  (out/outlook-windows-legacy-light.diff.png)',
      '                          light layout: the two columns stack: display:flex is removed (line 7)',
      '  gmail-web               light   3.3  (out/gmail-web-light.diff.png)',
    ]);
    expect(divergenceLines(undefined, {})).toEqual([]);
  });
});
