import type { StoredRenderedReports, VisualDivergence } from '@mailproof/contracts';
import { mergeRenderedReports } from './rendered-reports';
import { diffRegions, divergenceScore } from './visual-divergence';

const entry = (score: number): VisualDivergence => ({ score, regions: [] });

function reportsWith(divergence: NonNullable<StoredRenderedReports['visualReport']>['divergence']): StoredRenderedReports {
  return { overflowReport: null, mobileContrast: null, visualReport: { references: { wide: null, mobile: null }, clients: [], divergence } };
}

describe('divergenceScore', () => {
  it('is 0 for no changed pixel, 100 for all, and the square root of the share between', () => {
    expect(divergenceScore(0, 1000)).toBe(0);
    expect(divergenceScore(1000, 1000)).toBe(100);
    expect(divergenceScore(10, 1000)).toBe(10);
    expect(divergenceScore(250, 1000)).toBe(50);
    // A single pixel of a large page still reads as a difference.
    expect(divergenceScore(1, 10_000_000)).toBe(0.1);
  });
});

describe('diffRegions', () => {
  function maskWith(width: number, height: number, boxes: Array<[number, number, number, number]>): Buffer {
    const mask = Buffer.alloc(width * height * 4);
    for (const [x0, y0, w, h] of boxes) for (let y = y0; y < y0 + h; y++) for (let x = x0; x < x0 + w; x++) mask.writeUInt32LE(0xff0000ff, (y * width + x) * 4);
    return mask;
  }

  it('groups changed pixels into boxes in CSS px, joins changes closer than 16 px and keeps far ones apart', () => {
    const mask = maskWith(200, 300, [
      [10, 10, 30, 20],
      [45, 12, 10, 10],
      [100, 200, 50, 40],
    ]);
    const regions = diffRegions(mask, 200, 300, 1);
    expect(regions.map((region) => region.box)).toEqual([
      { x: 100, y: 200, width: 50, height: 40 },
      { x: 10, y: 10, width: 45, height: 20 },
    ]);
  });

  it('divides device pixels by the scale and drops specks of fewer than 4 pixels', () => {
    const mask = maskWith(200, 200, [
      [20, 40, 60, 20],
      [180, 180, 1, 1],
    ]);
    expect(diffRegions(mask, 200, 200, 2).map((region) => region.box)).toEqual([{ x: 10, y: 20, width: 30, height: 10 }]);
  });
});

/**
 * diffRegions as it was before its scan read the mask cell by cell (every changed pixel written into the grid on
 * its own): the faster scan must give the very same regions, boxes and pixel counts, in the same order.
 */
function pixelByPixelRegions(mask: Buffer, width: number, height: number, scale: number, bands: ReadonlyArray<readonly [number, number]>) {
  const cell = Math.max(1, Math.round(8 * scale));
  const columns = Math.ceil(width / cell);
  const rows = Math.ceil(height / cell);
  const count = new Uint32Array(columns * rows);
  const minX = new Int32Array(columns * rows).fill(width);
  const minY = new Int32Array(columns * rows).fill(height);
  const maxX = new Int32Array(columns * rows).fill(-1);
  const maxY = new Int32Array(columns * rows).fill(-1);
  const mask32 = new Uint32Array(mask.buffer, mask.byteOffset, width * height);
  for (const [from, to] of bands)
    for (let y = from; y < to; y++)
      for (let x = 0; x < width; x++) {
        if (mask32[y * width + x] === 0) continue;
        const index = Math.floor(y / cell) * columns + Math.floor(x / cell);
        count[index]++;
        minX[index] = Math.min(minX[index], x);
        maxX[index] = Math.max(maxX[index], x);
        minY[index] = Math.min(minY[index], y);
        maxY[index] = Math.max(maxY[index], y);
      }
  const seen = new Uint8Array(columns * rows);
  const regions: Array<{ box: { x: number; y: number; width: number; height: number }; pixels: number }> = [];
  for (let start = 0; start < count.length; start++) {
    if (count[start] === 0 || seen[start]) continue;
    const stack = [start];
    seen[start] = 1;
    let pixels = 0;
    let [left, top, right, bottom] = [width, height, -1, -1];
    while (stack.length > 0) {
      const index = stack.pop()!;
      pixels += count[index];
      [left, right, top, bottom] = [Math.min(left, minX[index]), Math.max(right, maxX[index]), Math.min(top, minY[index]), Math.max(bottom, maxY[index])];
      const cx = index % columns;
      const cy = (index - cx) / columns;
      for (let ny = Math.max(0, cy - 2); ny <= Math.min(rows - 1, cy + 2); ny++)
        for (let nx = Math.max(0, cx - 2); nx <= Math.min(columns - 1, cx + 2); nx++) {
          const next = ny * columns + nx;
          if (count[next] > 0 && !seen[next]) {
            seen[next] = 1;
            stack.push(next);
          }
        }
    }
    if (pixels < 4) continue;
    const x = Math.floor(left / scale);
    const y = Math.floor(top / scale);
    regions.push({ box: { x, y, width: Math.ceil((right + 1) / scale) - x, height: Math.ceil((bottom + 1) / scale) - y }, pixels });
  }
  return regions.sort((a, b) => b.pixels - a.pixels);
}

describe('diffRegions: the cell-by-cell scan gives what the pixel-by-pixel one gave', () => {
  /** A small deterministic generator (mulberry32), so a failure names its seed. */
  function random(seed: number): () => number {
    let state = seed >>> 0;
    return () => {
      state = (state + 0x6d2b79f5) >>> 0;
      let t = Math.imul(state ^ (state >>> 15), 1 | state);
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
      return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
    };
  }

  /** Text-like specks, solid blocks, whole rows, single pixels on cell edges and the last column, as pixelmatch writes them (and other non-zero values). */
  function randomMask(next: () => number, width: number, height: number): Buffer {
    const mask = Buffer.alloc(width * height * 4);
    const pixels = new Uint32Array(mask.buffer, mask.byteOffset, width * height);
    const set = (x: number, y: number) => (pixels[y * width + x] = next() < 0.9 ? 0xff0000ff : 1 + Math.floor(next() * 0xfffffffe));
    const shapes = 1 + Math.floor(next() * 12);
    for (let shape = 0; shape < shapes; shape++) {
      const kind = next();
      const x0 = Math.floor(next() * width);
      const y0 = Math.floor(next() * height);
      const w = Math.max(1, Math.floor(next() * (kind < 0.3 ? width : 60)));
      const h = Math.max(1, Math.floor(next() * (kind < 0.3 ? 8 : 80)));
      const density = kind < 0.5 ? 1 : next();
      for (let y = y0; y < Math.min(height, y0 + h); y++) for (let x = x0; x < Math.min(width, x0 + w); x++) if (next() < density) set(x, y);
    }
    for (let speck = Math.floor(next() * 6); speck > 0; speck--)
      set(next() < 0.5 ? width - 1 : 8 * Math.floor((next() * width) / 8), Math.floor(next() * height));
    return mask;
  }

  /** Ascending row ranges [from, to) that cover part of the page, as the band comparison gives them. */
  function randomBands(next: () => number, height: number): Array<[number, number]> {
    if (next() < 0.3) return [[0, height]];
    const bands: Array<[number, number]> = [];
    for (let y = Math.floor(next() * 20); y < height;) {
      const end = Math.min(height, y + 1 + Math.floor(next() * 120));
      bands.push([y, end]);
      y = end + Math.floor(next() * 60);
    }
    return bands;
  }

  const SEEDS = 120;

  it('gives the same regions, boxes, pixel counts and order on 120 random masks, at scale 1 and 2, over bands and whole pages', () => {
    let compared = 0;
    let withRegions = 0;
    for (let seed = 1; seed <= SEEDS; seed++) {
      const next = random(seed);
      const width = [390, 800, 780, 7, 17][Math.floor(next() * 5)];
      const height = 1 + Math.floor(next() * 400);
      const scale = next() < 0.7 ? 1 : 2;
      const mask = randomMask(next, width, height);
      const bands = randomBands(next, height);
      const expected = pixelByPixelRegions(mask, width, height, scale, bands);
      expect({ seed, regions: diffRegions(mask, width, height, scale, bands) }).toEqual({ seed, regions: expected });
      compared++;
      if (expected.length > 0) withRegions++;
    }
    expect(compared).toBe(SEEDS);
    // The masks are not all empty: most give regions to compare.
    expect(withRegions).toBeGreaterThan(SEEDS * 0.8);
  });

  it('reads a mask that is a view into a larger buffer (the reused diff mask) at its offset', () => {
    const next = random(7);
    const mask = randomMask(next, 800, 300);
    const inside = Buffer.alloc(mask.length + 64);
    mask.copy(inside, 32);
    const view = inside.subarray(32, 32 + mask.length);
    expect(diffRegions(view, 800, 300, 1, [[0, 300]])).toEqual(pixelByPixelRegions(mask, 800, 300, 1, [[0, 300]]));
  });
});

describe('mergeRenderedReports with divergence', () => {
  it("keeps earlier clients' and schemes' entries and replaces those rendered again", () => {
    const first = reportsWith({ 'gmail-web': { light: entry(10), dark: entry(20) }, 'apple-mail-macos': { light: entry(0) } });
    const second = reportsWith({ 'gmail-web': { light: entry(12) }, 'outlook-windows-legacy': { light: entry(40) } });
    expect(mergeRenderedReports(first, second).visualReport!.divergence).toEqual({
      'gmail-web': { light: entry(12), dark: entry(20) },
      'apple-mail-macos': { light: entry(0) },
      'outlook-windows-legacy': { light: entry(40) },
    });
  });

  it('keeps the stored reference clients when a later render compared none (dark only)', () => {
    const first: StoredRenderedReports = {
      ...reportsWith({ 'gmail-web': { light: entry(10) } }),
      visualReport: {
        references: { wide: 'apple-mail-macos', mobile: null },
        clients: [{ clientId: 'gmail-web', reference: 'apple-mail-macos', changedPercent: 1, regions: [] }],
        divergence: { 'gmail-web': { light: entry(10) } },
      },
    };
    const darkOnly = reportsWith({ 'gmail-web': { dark: entry(30) } });
    const merged = mergeRenderedReports(first, darkOnly).visualReport!;
    expect(merged.references).toEqual({ wide: 'apple-mail-macos', mobile: null });
    expect(merged.clients).toHaveLength(1);
    expect(merged.divergence).toEqual({ 'gmail-web': { light: entry(10), dark: entry(30) } });
  });

  it('keeps a stored divergence when a later render has none, and stays without one when neither has it', () => {
    const first = reportsWith({ 'gmail-web': { light: entry(10) } });
    expect(mergeRenderedReports(first, { overflowReport: null, mobileContrast: null, visualReport: null }).visualReport!.divergence).toEqual({
      'gmail-web': { light: entry(10) },
    });
    expect(mergeRenderedReports(null, { overflowReport: null, mobileContrast: null, visualReport: null }).visualReport).toBeNull();
  });
});
