import { PNG } from 'pngjs';
import type { PaintedPage } from './render-pool';
import type { MeasuredElements } from './page-measurements';
import { PAINT_PROPERTIES, STYLE_SEPARATOR } from './page-measurements';
import type { RenderUnit } from './shot-plan';
import { PageComparisons } from './visual-divergence';

const WIDTH = 40;
const HEIGHT = 40;

/** A white picture with a black square at (x, y), 10 px wide. */
function picture(x: number, y: number): Buffer {
  const data = Buffer.alloc(WIDTH * HEIGHT * 4, 255);
  for (let row = y; row < y + 10; row++) for (let column = x; column < x + 10; column++) data.writeUInt32LE(0xff000000, (row * WIDTH + column) * 4);
  return PNG.sync.write({ width: WIDTH, height: HEIGHT, data } as PNG);
}

const style = PAINT_PROPERTIES.map((property) => (property === 'display' ? 'block' : property === 'background-color' ? 'rgba(0, 0, 0, 0)' : '0px')).join(
  STYLE_SEPARATOR,
);

/** The body and one div on `line`, boxed where the square is. */
function elements(line: number, x: number, y: number): MeasuredElements {
  return {
    rows: [
      [1, 'body', -1, 0, 0, WIDTH, HEIGHT, 0, '', ''],
      [line, 'div', 0, x, y, 10, 10, 0, '', 'square'],
    ],
    styles: [style],
  };
}

function shot(key: string, png: Buffer, measured: MeasuredElements, shots: RenderUnit['shots'] = []): { unit: RenderUnit; page: PaintedPage } {
  const unit: RenderUnit = {
    key,
    html: key,
    width: WIDTH,
    deviceScaleFactor: 1,
    colorScheme: 'light',
    mobile: false,
    viewport: 'wide',
    shots,
    references: [],
    measureElements: true,
  };
  const page: PaintedPage = {
    png,
    pixelWidth: WIDTH,
    pixelHeight: HEIGHT,
    cssHeight: HEIGHT,
    truncated: false,
    rasterImagesOnly: true,
    measurements: {
      viewportWidth: WIDTH,
      scrollWidth: WIDTH,
      scrollHeight: HEIGHT,
      contentHeight: HEIGHT,
      overflowing: [],
      texts: [],
      canvas: 'rgb(255, 255, 255)',
      elementsMeasured: 2,
      elementsTotal: 2,
      elements: measured,
    },
  };
  return { unit, page };
}

describe('PageComparisons', () => {
  const reference = shot('reference', picture(0, 0), elements(2, 0, 0));

  it('decodes pages of different markup that painted the same PNG once, and compares each with its own elements', () => {
    // Two client pages (different markup, so different units) paint the same picture: the square moved.
    const moved = picture(20, 20);
    const first = shot('client-a', Buffer.from(moved), elements(2, 20, 20));
    const second = shot('client-b', Buffer.from(moved), elements(7, 20, 20));
    const comparisons = new PageComparisons();
    expect(comparisons.decoded.atCssPx(first.unit, first.page)).toBe(comparisons.decoded.atCssPx(second.unit, second.page));
    const a = comparisons.compare(first, reference)!;
    const b = comparisons.compare(second, reference)!;
    expect(a.score).toBeGreaterThan(0);
    expect(b.score).toBe(a.score);
    expect(b.regions.map((region) => region.box)).toEqual(a.regions.map((region) => region.box));
    // The reference page is no client's page: visualReport.clients never takes these pairs, no row regions.
    expect(a.rowRegions).toBeNull();
    // The same pixels, but each pair is described with its own pages: the square is on line 2 in both pages
    // of the first pair (it moved), and missing from the second client page (its only div is on line 7).
    expect(a.regions[0].kind).toBe('layout');
    expect(a.regions.flatMap((region) => region.elements.map((element) => element.line))).toContain(2);
    expect(b.regions.some((region) => region.explained?.missing)).toBe(true);
    expect(a.regions.some((region) => region.explained?.missing)).toBe(false);
  });

  it("gives visualReport.clients' row regions when the reference page is also a client's page", () => {
    const referenceClient = shot('reference', picture(0, 0), elements(2, 0, 0), [{ id: 'superhuman-light', client: 'superhuman', mode: 'light' }]);
    const pair = new PageComparisons().compare(shot('client-d', picture(20, 20), elements(2, 20, 20)), referenceClient)!;
    expect(pair.rowRegions).toEqual([{ x: 0, y: 0, width: 30, height: 30 }]);
  });

  it('scores a page whose PNG is the reference PNG 0 without regions', () => {
    const same = shot('client-c', picture(0, 0), elements(2, 0, 0));
    expect(new PageComparisons().compare(same, reference)).toEqual({ score: 0, regions: [], changedPercent: 0, rowRegions: [] });
  });
});
