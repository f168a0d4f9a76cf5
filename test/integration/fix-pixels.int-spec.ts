import pixelmatch from 'pixelmatch';
import { PNG } from 'pngjs';
import { fixEmail, renderClientViews, type ClientId } from '@mailproof/engine';
import { EmailImageLoader, RenderPool, renderEmail, type ScreenshotMode } from '@mailproof/render';

// The safe tier changes no pixel where it should not (issue 30): small emails of our own, each with what a
// safe rule fixes, painted in real headless Chromium (Debian's; CHROMIUM_PATH overrides it) through
// libs/render as worker-render paints them, in the Apple Mail and Gmail views, light and dark, before and
// after fixEmail. Every screenshot differs by at most 0.1% of its pixels (pixelmatch, the threshold the visual
// report uses). A fixture may name screenshots its fix is meant to change, in a client the fix helps (Gmail
// keeping a <style> block it used to drop, Apple Mail applying the email's own dark rules), and say why;
// there the change itself is checked instead.

const CLIENTS: ClientId[] = ['apple-mail-macos', 'apple-mail-ios', 'gmail-web', 'gmail-ios', 'gmail-android'];
const MODES: ScreenshotMode[] = ['light', 'dark'];
const MAX_CHANGED_SHARE = 0.001;
const SHOTS = CLIENTS.flatMap((client) => MODES.map((mode) => `${client}-${mode}`));

type Rgb = [number, number, number];

interface Decoded {
  width: number;
  height: number;
  data: Buffer;
}

/** A screenshot the fix is meant to change, why, and what must be true of it after the fix. */
interface ExpectedChange {
  shots: string[];
  why: string;
  check(before: Decoded, after: Decoded, shot: string): void;
}

interface Fixture {
  name: string;
  html: string;
  /** Safe rules the fixture is written to exercise: each must be applied, else the comparison proves nothing. */
  rules: string[];
  changes?: ExpectedChange[];
}

/** Device pixels within `tolerance` of `rgb` on every channel. */
function countColor(image: Decoded, rgb: Rgb, tolerance = 6): number {
  let count = 0;
  for (let offset = 0; offset < image.data.length; offset += 4) {
    if (
      Math.abs(image.data[offset] - rgb[0]) <= tolerance &&
      Math.abs(image.data[offset + 1] - rgb[1]) <= tolerance &&
      Math.abs(image.data[offset + 2] - rgb[2]) <= tolerance
    )
      count++;
  }
  return count;
}

/** The image on a canvas `height` rows tall; rows it does not have are transparent, so they count as changed. */
function padTo(image: Decoded, height: number): Buffer {
  if (image.height === height) return image.data;
  const data = Buffer.alloc(image.width * height * 4);
  image.data.copy(data);
  return data;
}

/** Share of pixels that differ between two screenshots (a different width or height counts every pixel outside the overlap). */
function changedShare(a: Decoded, b: Decoded): number {
  if (a.width !== b.width) return 1;
  const height = Math.max(a.height, b.height);
  const changed = pixelmatch(padTo(a, height), padTo(b, height), null, a.width, height, { threshold: 0.1 });
  return changed / (a.width * height);
}

const GMAIL_SHOTS = SHOTS.filter((shot) => shot.startsWith('gmail-'));

/**
 * The check of a change a fix is meant to make: a color the screenshot lacked before the fix covers at least
 * `cssPixels` after it (in light mode: Gmail's dark variants recolor it), and the screenshot changed.
 */
function paintsOnlyAfter(rgb: Rgb, cssPixels: number): ExpectedChange['check'] {
  return (before, after, shot) => {
    expect(countColor(before, rgb)).toBe(0);
    expect(changedShare(before, after)).toBeGreaterThan(MAX_CHANGED_SHARE);
    if (shot.endsWith('-light')) expect(countColor(after, rgb)).toBeGreaterThanOrEqual(cssPixels);
  };
}

// Every fixture is a whole document with colors written out for light and dark, so a fix that changed what a
// client paints would show. Images are data: URIs (the render fetches no remote image here).
const TRANSPARENT_GIF = 'data:image/gif;base64,R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7';
const RED_PNG = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==';

const page = (head: string, body: string) => `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Fixture</title>
${head}
</head>
<body style="margin:0;padding:0;background-color:#ffffff;color:#222222">
${body}
</body>
</html>`;

const FIXTURES: Fixture[] = [
  {
    name: 'layout tables (nested) and a data table beside them',
    rules: ['layout-table-role'],
    html: page(
      '',
      `<table width="600" cellpadding="0" cellspacing="0" border="0" style="width:600px;background-color:#f4f4f4">
<tr><td style="padding:20px;font:16px/24px Arial,sans-serif;color:#222222">
<table width="100%" cellpadding="0" cellspacing="0" border="0"><tr>
<td width="50%" style="background-color:#dddddd;padding:10px;font:16px/24px Arial,sans-serif">Left column</td>
<td width="50%" style="background-color:#bbbbbb;padding:10px;font:16px/24px Arial,sans-serif">Right column</td>
</tr></table>
<table cellpadding="4" cellspacing="0" border="1" style="margin-top:20px;font:14px/20px Arial,sans-serif">
<tr><th scope="col">Item</th><th scope="col">Price</th></tr><tr><td>Tea</td><td>3.00</td></tr>
</table>
</td></tr>
</table>`,
    ),
  },
  {
    name: 'a spacer image and a tracking pixel without alt, beside a content image that keeps its alt',
    rules: ['decorative-image-alt'],
    html: page(
      '',
      `<div style="font:16px/24px Arial,sans-serif;color:#222222;padding:10px">Above the spacer</div>
<img src="${TRANSPARENT_GIF}" width="1" height="30" style="display:block;width:1px;height:30px;border:0">
<div style="font:16px/24px Arial,sans-serif;color:#222222;padding:10px">Below the spacer</div>
<img src="${RED_PNG}" width="120" height="40" alt="A red bar" style="display:block;width:120px;height:40px;border:0">
<img src="${TRANSPARENT_GIF}" width="1" height="1" style="display:block;width:1px;height:1px;border:0">`,
    ),
  },
  {
    name: '3-digit hex colors in CSS and in attributes',
    rules: ['six-digit-hex'],
    html: page(
      '<style>.note{color:#c00;background-color:#ffe;border:2px solid #06c;padding:10px;font:16px/24px Arial,sans-serif}</style>',
      `<table role="presentation" cellpadding="0" cellspacing="0" border="0" bgcolor="#eee" style="width:400px">
<tr><td style="padding:16px;color:#333;font:16px/24px Arial,sans-serif"><font color="#06c">Colored text</font></td></tr>
</table>
<p class="note">A note with short hex colors</p>`,
    ),
  },
  {
    name: 'font stacks without a generic family (fonts this machine has)',
    rules: ['generic-font-family'],
    html: page(
      '<style>h1{font-family:"Helvetica Neue",Arial;font-size:28px;color:#111111;margin:10px}</style>',
      `<h1>A heading in a stack without a generic family</h1>
<p style="font-family:Georgia,'Times New Roman';font-size:18px;color:#333333;margin:10px">A serif paragraph whose stack ends without a generic family.</p>
<p style="font-family:'Courier New',Courier;font-size:16px;color:#333333;margin:10px">A monospaced line</p>`,
    ),
  },
  {
    name: 'a gradient without a fallback color',
    rules: ['gradient-fallback-color'],
    html: page(
      '',
      `<table role="presentation" cellpadding="0" cellspacing="0" border="0" style="width:400px">
<tr><td height="120" style="height:120px;background-image:linear-gradient(#336699,#6699cc);color:#ffffff;font:20px/24px Arial,sans-serif;padding:0 20px">On a gradient</td></tr>
</table>`,
    ),
    // gradient-fallback-color helps the clients whose models drop the gradient (Outlook's Word engine among them);
    // Apple Mail and Gmail on the web and iOS keep it, and it paints over the fallback there.
    changes: [
      {
        shots: ['gmail-android-light', 'gmail-android-dark'],
        why: "Gmail's Android app ignores a gradient written inline in background-image (caniemail's note, 2025-04; email-bugs #135): the fallback color is what it paints",
        check: paintsOnlyAfter([0x33, 0x66, 0x99], 300 * 100),
      },
    ],
  },
  {
    name: "var(), calc() and oklch() written as static values from the email's own definitions",
    rules: ['static-css-values'],
    html: page(
      '<style>:root{--brand:#0066cc;--gap:8px}.panel{background-color:var(--brand);padding:calc(var(--gap) * 2);border-bottom:6px solid oklch(0.6 0.2 30);color:#ffffff;font:18px/24px Arial,sans-serif;width:300px}</style>',
      '<div class="panel">A panel in the brand color</div>',
    ),
    changes: [
      {
        // static-css-values helps Gmail: Gmail's views drop the declarations that use var() (no support for
        // custom properties), so before the fix the panel had no brand background; after it the static value
        // paints as it does in Apple Mail, whose views stay as they were.
        shots: GMAIL_SHOTS,
        why: 'Gmail drops declarations with var(); written as static values, Gmail paints them',
        check: paintsOnlyAfter([0x00, 0x66, 0xcc], 300 * 40),
      },
    ],
  },
  {
    name: 'escaped class names (Tailwind-style) that Gmail would drop',
    rules: ['safe-class-names'],
    html: page(
      '<style>.w-1\\/2{width:300px;height:60px;background-color:#cc3300}.sm\\:p-4{padding:16px}</style>',
      '<div class="w-1/2 sm:p-4" style="font:16px/20px Arial,sans-serif;color:#ffffff">A half-width box</div>',
    ),
    changes: [
      {
        // safe-class-names helps Gmail: it removes a whole <style> block with an escaped character in a
        // selector, so before the fix Gmail painted no box; with the classes renamed it keeps the block.
        shots: GMAIL_SHOTS,
        why: 'Gmail drops a style block with an escaped selector; with safe class names it keeps it',
        check: paintsOnlyAfter([0xcc, 0x33, 0x00], 300 * 60),
      },
    ],
  },
  {
    name: 'dark-mode rules without the color-scheme meta',
    rules: ['color-scheme-meta'],
    html: page(
      `<style>
.card{background-color:#ffffff;color:#111111;padding:20px;font:18px/26px Arial,sans-serif}
@media (prefers-color-scheme: dark){
  body,.card{background-color:#1b1b1b !important;color:#f2f2f2 !important}
}
</style>`,
      `<div class="card">A card with dark-mode rules of its own</div>
<div class="card" style="border-top:4px solid #0066cc">A second card</div>`,
    ),
    changes: [
      {
        // color-scheme-meta helps Apple Mail: without the meta its model shows the email as written in dark mode
        // (the light cards); with it, Apple Mail applies the email's own prefers-color-scheme rules, which is what
        // the author wrote them for. Light mode and Gmail's views stay as they were (checked like every shot).
        shots: ['apple-mail-macos-dark', 'apple-mail-ios-dark'],
        why: "Apple Mail applies the email's own dark-mode rules once the color-scheme meta says they are meant",
        check(before, after) {
          const darkShare = (image: Decoded) => countColor(image, [0x1b, 0x1b, 0x1b]) / (image.width * image.height);
          // Before: light cards (a few antialiased text pixels may come near the dark color); after: the dark
          // cards cover most of the page (the rest is their text and the blue rule).
          expect(darkShare(before)).toBeLessThan(0.01);
          expect(darkShare(after)).toBeGreaterThan(0.5);
        },
      },
    ],
  },
  {
    name: '!IMPORTANT in a style block',
    rules: ['normalize-important'],
    html: page(
      '<style>.box{background-color:#00aa00 !IMPORTANT;width:200px;height:100px}</style>',
      `<div class="box" style="width:200px;height:100px"></div>
<p style="font:16px/24px Arial,sans-serif;color:#222222;margin:10px">Text under the box</p>`,
    ),
    changes: [
      {
        // normalize-important helps Gmail: it drops a whole <style> block with an uppercase !IMPORTANT in it, so
        // before the fix Gmail painted no green box; after it Gmail keeps the block and paints the box as Apple Mail does.
        shots: GMAIL_SHOTS,
        why: 'Gmail drops a style block with !IMPORTANT in it; written in lower case, Gmail keeps the block',
        check: paintsOnlyAfter([0x00, 0xaa, 0x00], 200 * 100),
      },
    ],
  },
];

describe('the safe tier changes no pixel where it should not (real Chromium)', () => {
  let pool: RenderPool;

  beforeAll(async () => {
    pool = await RenderPool.launch({ chromiumPath: process.env.CHROMIUM_PATH, concurrency: 2, pageTimeoutMs: 30_000, maxHeightPx: 2_000 });
  });
  afterAll(async () => {
    await pool?.close();
  });

  /** Every Apple Mail and Gmail screenshot of `html`, light and dark, decoded; each must be painted. */
  async function paint(html: string): Promise<Map<string, Decoded>> {
    const { painted, failed } = await renderEmail(pool, renderClientViews(html, { clients: CLIENTS }), MODES, new EmailImageLoader(null));
    expect(failed).toEqual([]);
    const shots = new Map<string, Decoded>();
    for (const shot of SHOTS) {
      const entry = painted.get(shot as never);
      if (!entry) throw new Error(`no screenshot ${shot}`);
      const png = PNG.sync.read(entry.page.png);
      shots.set(shot, { width: png.width, height: png.height, data: png.data });
    }
    return shots;
  }

  it.each(FIXTURES.map((fixture) => [fixture.name, fixture] as const))(
    '%s',
    async (_name, fixture) => {
      const result = fixEmail(fixture.html);
      expect(result.introduced).toEqual([]);
      const appliedRules = new Set(result.applied.map((fix) => fix.rule));
      for (const rule of fixture.rules) expect(appliedRules).toContain(rule);

      const [before, after] = [await paint(fixture.html), await paint(result.html)];
      const expected = new Map((fixture.changes ?? []).flatMap((change) => change.shots.map((shot) => [shot, change] as const)));
      const unexpected: string[] = [];
      for (const shot of SHOTS) {
        const share = changedShare(before.get(shot) as Decoded, after.get(shot) as Decoded);
        const change = expected.get(shot);
        if (change) {
          try {
            change.check(before.get(shot) as Decoded, after.get(shot) as Decoded, shot);
          } catch (error) {
            // Say which expected change did not happen, and why it was expected.
            throw new Error(`${shot}, expected to change because ${change.why}: ${(error as Error).message}`, { cause: error });
          }
        } else if (share > MAX_CHANGED_SHARE) unexpected.push(`${shot}: ${(share * 100).toFixed(3)}% of pixels changed (at most ${MAX_CHANGED_SHARE * 100}%)`);
      }
      expect(unexpected).toEqual([]);
    },
    180_000,
  );
});
