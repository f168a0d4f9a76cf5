/**
 * A small fingerprint of a reference rendering (the email as written, painted without a client rewrite),
 * so that the gate's visual check can tell how much the design itself changed between two versions
 * without keeping either picture (docs/gate.md, "The visual check"). Pure: the caller decodes the PNG.
 *
 * The page is cut into square tiles of `VISUAL_FINGERPRINT_TILE_PX` CSS pixels; each tile keeps its mean
 * luminance (0-255), one byte, written as two hex digits, row by row. A 600 x 2,000 px email is 19 x 63
 * tiles, 2.4 KB. Coarse on purpose: it says which parts of the page changed and by how much, not what
 * they show (a 32 px square of an email averaged to one grey level shows no text or image).
 */

/** Side of a fingerprint tile, CSS px. */
export const VISUAL_FINGERPRINT_TILE_PX = 32;
/** Rows kept at most (the rest of a very tall page is left out of the comparison): 400 tiles of 32 px is 12,800 px. */
export const VISUAL_FINGERPRINT_MAX_ROWS = 400;
/** Two tiles whose mean luminance differs by more than this (of 255) count as changed. */
export const VISUAL_FINGERPRINT_TILE_DELTA = 6;

export interface ReferenceFingerprint {
  /** Tile side, CSS px. */
  tile: number;
  columns: number;
  rows: number;
  /** Mean luminance per tile, row by row, two hex digits each (`columns * rows * 2` characters). */
  cells: string;
}

/** Decoded pixels: RGBA, 4 bytes per pixel, row by row. */
export interface RgbaImage {
  width: number;
  height: number;
  data: Uint8Array;
}

/**
 * The fingerprint of a painted page. `scale` is the device pixels per CSS pixel the page was painted at
 * (the screenshots' deviceScaleFactor), so that the tiles are the same CSS size whatever the scale.
 */
export function referenceFingerprint(image: RgbaImage, scale = 1): ReferenceFingerprint {
  const tile = VISUAL_FINGERPRINT_TILE_PX;
  const side = Math.max(1, Math.round(tile * scale));
  const columns = Math.ceil(image.width / side);
  const rows = Math.min(VISUAL_FINGERPRINT_MAX_ROWS, Math.ceil(image.height / side));
  const sums = new Float64Array(columns * rows);
  const counts = new Uint32Array(columns * rows);
  const height = Math.min(image.height, rows * side);
  for (let y = 0; y < height; y++) {
    const rowBase = Math.floor(y / side) * columns;
    let offset = y * image.width * 4;
    for (let x = 0; x < image.width; x++, offset += 4) {
      const cell = rowBase + Math.floor(x / side);
      // Rec. 601 luma, as most perceptual hashes use; alpha is composited on white (a transparent page is white).
      const alpha = image.data[offset + 3] / 255;
      const luma = 0.299 * image.data[offset] + 0.587 * image.data[offset + 1] + 0.114 * image.data[offset + 2];
      sums[cell] += luma * alpha + 255 * (1 - alpha);
      counts[cell]++;
    }
  }
  let cells = '';
  for (let i = 0; i < sums.length; i++) {
    const mean = counts[i] === 0 ? 255 : Math.round(sums[i] / counts[i]);
    cells += mean.toString(16).padStart(2, '0');
  }
  return { tile, columns, rows, cells };
}

function cellAt(print: ReferenceFingerprint, column: number, row: number): number | null {
  if (column >= print.columns || row >= print.rows) return null;
  const index = (row * print.columns + column) * 2;
  return parseInt(print.cells.slice(index, index + 2), 16);
}

/**
 * How much of the page changed between two reference renderings, 0-100: the share of tiles (over the
 * larger of the two grids) whose mean luminance moved by more than `VISUAL_FINGERPRINT_TILE_DELTA`, a tile
 * only one page has counting as changed (the page grew or shrank). Two decimals. Fingerprints of
 * different tile sizes cannot be compared: 100.
 */
export function referenceChange(before: ReferenceFingerprint, after: ReferenceFingerprint): number {
  if (before.tile !== after.tile) return 100;
  const columns = Math.max(before.columns, after.columns);
  const rows = Math.max(before.rows, after.rows);
  if (columns * rows === 0) return 0;
  let changed = 0;
  for (let row = 0; row < rows; row++) {
    for (let column = 0; column < columns; column++) {
      const a = cellAt(before, column, row);
      const b = cellAt(after, column, row);
      if (a === null || b === null || Math.abs(a - b) > VISUAL_FINGERPRINT_TILE_DELTA) changed++;
    }
  }
  return Math.round((changed / (columns * rows)) * 10_000) / 100;
}

/** A fingerprint as stored is checked before it is compared (a baseline is read back from the database). */
export function isReferenceFingerprint(value: unknown): value is ReferenceFingerprint {
  if (typeof value !== 'object' || value === null) return false;
  const print = value as Partial<ReferenceFingerprint>;
  return (
    typeof print.tile === 'number' &&
    typeof print.columns === 'number' &&
    typeof print.rows === 'number' &&
    typeof print.cells === 'string' &&
    print.cells.length === print.columns * print.rows * 2 &&
    /^[0-9a-f]*$/.test(print.cells)
  );
}
