import pixelmatch from 'pixelmatch';
import { PNG } from 'pngjs';
import type { VisualReport } from '@mailproof/contracts';

/**
 * `mailproof screenshots`' diff images (docs/cli.md): each client's screenshot against the reference
 * rendering of its viewport and scheme, painted in this process, compared here with pixelmatch and pngjs
 * (dependencies of the package already, for the visual report): no server round trip, no extra package.
 */

/** The comparison the divergence score is built on (libs/render's visual divergence): YIQ threshold 0.1, anti-aliasing detected. */
const MATCH_OPTIONS = {
  threshold: 0.1,
  includeAA: false,
  alpha: 0.25,
  diffColor: [230, 0, 60] as [number, number, number],
  aaColor: [255, 200, 0] as [number, number, number],
};

/**
 * The image on a canvas `width` × `height`, continued with its own bottom-left colour (the page's background)
 * where it does not reach, as the divergence pads (libs/render): a page that is only longer differs where the
 * longer page has content, not everywhere below the shorter one.
 */
function padTo(image: PNG, width: number, height: number): Buffer {
  if (image.width === width && image.height === height) return image.data;
  const data = Buffer.alloc(width * height * 4);
  const last = image.height > 0 ? (image.height - 1) * image.width * 4 : -1;
  const fill = last >= 0 ? image.data.readUInt32LE(last) : 0xffffffff;
  for (let offset = 0; offset < data.length; offset += 4) data.writeUInt32LE(fill, offset);
  for (let row = 0; row < image.height; row++) image.data.copy(data, row * width * 4, row * image.width * 4, (row + 1) * image.width * 4);
  return data;
}

export interface DiffImage {
  /** The diff PNG: the reference faded, pixels that differ in red, anti-aliasing differences in yellow. */
  png: Buffer;
  width: number;
  height: number;
  /** Device pixels that differ (anti-aliasing excluded). */
  changed: number;
}

/** The reference and a client screenshot (PNG bytes) compared pixel by pixel from the top left corner. */
export function diffImage(reference: Buffer, client: Buffer): DiffImage {
  const a = PNG.sync.read(reference);
  const b = PNG.sync.read(client);
  const width = Math.max(a.width, b.width);
  const height = Math.max(a.height, b.height);
  const out = new PNG({ width, height });
  const changed = pixelmatch(padTo(a, width, height), padTo(b, width, height), out.data, width, height, MATCH_OPTIONS);
  return { png: PNG.sync.write(out), width, height, changed };
}

/** The lines `mailproof screenshots` prints: clients most divergent first, each scheme's score and its diff file. */
export function divergenceLines(divergence: VisualReport['divergence'], diffs: Record<string, string>): string[] {
  if (!divergence) return [];
  const rows = Object.entries(divergence)
    .map(([clientId, schemes]) => ({
      clientId,
      schemes: (['light', 'dark'] as const).filter((scheme) => schemes?.[scheme]).map((scheme) => ({ scheme, divergence: schemes![scheme]! })),
    }))
    .filter((row) => row.schemes.length > 0)
    .map((row) => ({ ...row, worst: Math.max(...row.schemes.map((s) => s.divergence.score)) }))
    .sort((a, b) => b.worst - a.worst || (a.clientId < b.clientId ? -1 : 1));
  if (rows.length === 0) return [];
  const width = Math.max(...rows.map((row) => row.clientId.length));
  const lines = ['divergence from the email as written (0 = identical, 100 = nothing in common), most different first:'];
  for (const row of rows) {
    const scores = row.schemes.map(({ scheme, divergence: d }) => `${scheme} ${d.score.toFixed(1).padStart(5)}`).join('  ');
    const files = row.schemes
      .map(({ scheme }) => diffs[`${row.clientId}-${scheme}`])
      .filter((file): file is string => Boolean(file))
      .join(', ');
    lines.push(`  ${row.clientId.padEnd(width)}  ${scores}${files ? `  (${files})` : ''}`);
    const top = row.schemes
      .flatMap(({ scheme, divergence: d }) => d.regions.map((region) => ({ scheme, region })))
      .find(({ region }) => region.cause !== undefined);
    if (top) {
      const element = top.region.elements[0];
      lines.push(`  ${' '.repeat(width)}  ${top.scheme} ${top.region.kind}: ${top.region.cause!.message}${element?.line ? ` (line ${element.line})` : ''}`);
    }
  }
  return lines;
}
