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
