import { analyzeEmail, renderEmailViews, type ClientId } from '@mailproof/engine';
import type { DivergenceRegion, VisualReport } from '@mailproof/contracts';
import { SsrfGuard } from '@mailproof/net-guard';
import {
  EmailImageLoader,
  RenderPool,
  referenceShotId,
  renderEmail,
  renderedReports,
  viewportOf,
  type PaintedPage,
  type RenderEmailResult,
  type RenderUnit,
  type ScreenshotMode,
} from '@mailproof/render';
import { pixelAt, startRecordingServer } from '../utils/loopback-servers';

// Real headless Chromium: the reference rendering (the email as written) and each client's divergence from it.
// Lines: body 12, the heading 13, the flex row 14, the button's table 15, the background-image block 16.
const EMAIL = `<!doctype html>
<html><head>
<meta name="color-scheme" content="light dark">
<style>
  body { margin: 0; background: #ffffff; font-family: Arial, sans-serif; }
  .row { display: flex; width: 600px; }
  .col { width: 300px; height: 120px; }
  .left { background: #2255cc; }
  .right { background: #22aa55; }
  @media (prefers-color-scheme: dark) { body { background: #111111 !important; } .title { color: #eeeeee !important; } }
</style>
</head><body>
<h1 class="title" style="margin:20px;font-size:28px">Hello</h1>
<div class="row"><div class="col left">&nbsp;</div><div class="col right">&nbsp;</div></div>
<table cellpadding="0" cellspacing="0" style="margin:30px"><tr><td class="cta" style="background:#cc2255;border-radius:12px;padding:16px 32px"><a href="https://example.com" style="color:#ffffff;text-decoration:none;font-size:18px">Buy now</a></td></tr></table>
<div style="width:400px;height:150px;background-image:linear-gradient(#ff8800,#ff8800)">&nbsp;</div>
</body></html>`;

const CLIENTS: ClientId[] = ['superhuman', 'apple-mail-ios', 'gmail-web', 'gmail-android', 'outlook-windows-legacy'];

const isOrange = ([r, g, b]: [number, number, number]) => r > 240 && g > 120 && g < 150 && b < 20;
const isGreen = ([r, g, b]: [number, number, number]) => r < 60 && g > 150 && b < 110;

/** The region whose box covers the point (x, y), CSS px. */
function regionAt(regions: readonly DivergenceRegion[], x: number, y: number): DivergenceRegion | undefined {
  return regions.find((region) => region.box.x <= x && x < region.box.x + region.box.width && region.box.y <= y && y < region.box.y + region.box.height);
}

describe('visual divergence (real Chromium)', () => {
  let pool: RenderPool;
  let result: RenderEmailResult;
  let divergence: NonNullable<VisualReport['divergence']>;

  beforeAll(async () => {
    pool = await RenderPool.launch({ concurrency: 2, pageTimeoutMs: 15_000, maxHeightPx: 2_000 });
    const views = renderEmailViews(EMAIL, { clients: CLIENTS });
    result = await renderEmail(pool, views.clients, ['light', 'dark'], new EmailImageLoader(null), views.reference);
    divergence = renderedReports(result.painted, CLIENTS, ['light', 'dark'], { references: result.references, comparisons: result.comparisons }).visualReport!
      .divergence!;
  });
  afterAll(async () => {
    await pool?.close();
  });

  it("paints the author's page once per viewport and scheme: the columns side by side, the gradient shown", () => {
    expect(result.failed).toEqual([]);
    expect([...result.references.keys()].sort()).toEqual(['reference-mobile-dark', 'reference-mobile-light', 'reference-wide-dark', 'reference-wide-light']);
    const wide = result.references.get('reference-wide-light')!;
    expect(wide.page.pixelWidth).toBe(800);
    expect(result.references.get('reference-mobile-light')!.page.pixelWidth).toBe(780);
    // The right column at x 300-600 beside the left one (a flex row), the orange block below the button.
    expect(isGreen(pixelAt(wide.page.png, 450, 130))).toBe(true);
    expect(isOrange(pixelAt(wide.page.png, 200, 380))).toBe(true);
    // Outlook Classic stacks the columns: its pixel there is not the green column.
    expect(isGreen(pixelAt(result.painted.get('outlook-windows-legacy-light')!.page.png, 450, 130))).toBe(false);
  });

  it("applies the email's own dark rules in the dark reference", () => {
    expect(pixelAt(result.references.get('reference-wide-light')!.page.png, 700, 20)).toEqual([255, 255, 255]);
    expect(pixelAt(result.references.get('reference-wide-dark')!.page.png, 700, 20)).toEqual([17, 17, 17]);
    expect(pixelAt(result.references.get('reference-mobile-dark')!.page.png, 700, 20)).toEqual([17, 17, 17]);
    // Gmail's web app paints its light page in dark mode: the whole page departs, and the cause says why.
    const gmailDark = divergence['gmail-web']!.dark!;
    expect(gmailDark.score).toBeGreaterThan(50);
    expect(gmailDark.regions[0].cause).toMatchObject({ property: 'prefers-color-scheme', message: expect.stringContaining('gmail-web does not apply') });
  });

  it('measures the elements of the references and of every client page whose picture differs from its reference', () => {
    for (const reference of result.references.values()) expect(reference.page.measurements.elements?.rows.length).toBeGreaterThan(0);
    const differing = [...result.painted].filter(([id, shot]) => {
      const mode = id.endsWith('-dark') ? 'dark' : 'light';
      const reference = result.references.get(referenceShotId(viewportOf(id.slice(0, -mode.length - 1) as ClientId), mode))!;
      return !shot.page.png.equals(reference.page.png);
    });
    // Outlook Classic and Gmail (light and dark) at least; a page that paints its reference's very picture may skip the measuring.
    expect(differing.length).toBeGreaterThanOrEqual(4);
    for (const [, shot] of differing) expect(shot.page.measurements.elements?.rows.length).toBeGreaterThan(0);
  });

  it("scores 0 for a client whose markup is the author's, light and dark, sharing the reference's page", () => {
    expect(divergence['superhuman']).toEqual({ light: { score: 0, regions: [] }, dark: { score: 0, regions: [] } });
    expect(divergence['apple-mail-ios']).toEqual({ light: { score: 0, regions: [] }, dark: { score: 0, regions: [] } });
    expect(result.painted.get('superhuman-light')!.unit).toBe(result.references.get('reference-wide-light')!.unit);
  });

  it('finds the stacked columns as a layout region on the flex row, caused by display:flex removed', () => {
    const outlook = divergence['outlook-windows-legacy']!.light!;
    expect(outlook.score).toBeGreaterThan(10);
    const columns = regionAt(outlook.regions, 450, 130)!;
    expect(columns).toBeDefined();
    expect(columns.kind).toBe('layout');
    expect(columns.elements[0]).toEqual({ selector: 'body > div.row', line: 14 });
    expect(columns.cause).toEqual({
      message: '`display:flex` is removed from the block by outlook-windows-legacy, so its children stack',
      property: 'display',
    });
  });

  it("ties the button's region to its cell and the dropped border-radius", () => {
    const outlook = divergence['outlook-windows-legacy']!.light!;
    const button = outlook.regions.find((region) => region.cause?.property === 'border-radius')!;
    expect(button).toBeDefined();
    expect(button.elements[0]).toEqual({ selector: 'body > table > tbody > tr > td.cta', line: 15 });
    expect(button.cause!.message).toBe("the button's `border-radius` is dropped by outlook-windows-legacy");
    // The button sat at x 30, y ~222 in the reference.
    expect(button.box.x).toBeLessThanOrEqual(30);
    expect(button.box.y).toBeLessThanOrEqual(225);
  });

  it("names the client's finding on that property as the behaviour when the findings are given", () => {
    const findings = analyzeEmail(EMAIL, { clients: CLIENTS }).cssReport;
    const withFindings = renderedReports(result.painted, CLIENTS, ['light'], { references: result.references, findings, comparisons: result.comparisons });
    const regions = withFindings.visualReport!.divergence!['outlook-windows-legacy']!.light!.regions;
    const radius = findings.find((finding) => finding.client === 'outlook-windows-legacy' && finding.property === 'border-radius')!;
    expect(radius).toBeDefined();
    expect(regions.find((region) => region.cause?.property === 'border-radius')!.cause).toEqual({
      message: "the button's `border-radius` is dropped by outlook-windows-legacy",
      property: 'border-radius',
      behaviour: radius.rule,
    });
  });

  it("reuses the divergence's comparison for visualReport.clients when the reference client paints the author's page", () => {
    const modes = ['light', 'dark'] as const;
    const alone = renderedReports(result.painted, CLIENTS, [...modes]).visualReport!;
    const shared = renderedReports(result.painted, CLIENTS, [...modes], { references: result.references, comparisons: result.comparisons }).visualReport!;
    expect(shared.references).toEqual(alone.references);
    const outlook = (report: VisualReport) => report.clients.find((entry) => entry.clientId === 'outlook-windows-legacy')!;
    expect(outlook(shared).regions[0]).toEqual(outlook(alone).regions[0]);
    expect(Math.abs(outlook(shared).changedPercent - outlook(alone).changedPercent)).toBeLessThan(outlook(alone).changedPercent * 0.05);
  });

  it('finds a dropped background image as a colour region over its block', () => {
    const gmail = divergence['gmail-android']!.light!;
    const block = regionAt(gmail.regions, 200, 380)!;
    expect(block).toMatchObject({ kind: 'color', elements: [{ selector: 'body > div', line: 16 }] });
    expect(block.box).toEqual({ x: 0, y: expect.any(Number), width: 390, height: 150 });
    expect(block.cause).toEqual({ message: "the block's background image is dropped by gmail-android", property: 'background-image' });
    expect(gmail.regions).toHaveLength(1);
  });
});

describe('the dark reference of an email without dark rules (real Chromium)', () => {
  // EMAIL without its colour-scheme meta and its dark media query: nothing in it follows the scheme.
  const NO_DARK_RULES = EMAIL.replace('<meta name="color-scheme" content="light dark">', '').replace(/ {2}@media \(prefers-color-scheme: dark\)[^\n]*\n/, '');
  const SVG_WITH_DARK_RULE =
    '<svg xmlns="http://www.w3.org/2000/svg" width="100" height="50"><style>rect{fill:#00ff00} @media (prefers-color-scheme: dark){rect{fill:#ff00ff}}</style><rect width="100" height="50"/></svg>';
  let pool: RenderPool;
  let images: Awaited<ReturnType<typeof startRecordingServer>>;

  beforeAll(async () => {
    pool = await RenderPool.launch({ concurrency: 2, pageTimeoutMs: 15_000, maxHeightPx: 2_000 });
    // An SVG image at an address that does not say so: only its bytes tell.
    images = await startRecordingServer('127.0.0.2', (_req, res) => {
      res.writeHead(200, { 'content-type': 'image/svg+xml' });
      res.end(SVG_WITH_DARK_RULE);
    });
  });
  afterAll(async () => {
    await pool?.close();
    await images?.close();
  });

  const render = (html: string, loader = new EmailImageLoader(null)) => {
    const views = renderEmailViews(html, { clients: CLIENTS });
    return renderEmail(pool, views.clients, ['light', 'dark'], loader, views.reference);
  };

  it('is the light reference page, and gives the very divergence a painted dark reference gives', async () => {
    expect(NO_DARK_RULES).not.toMatch(/color-scheme/);
    const result = await render(NO_DARK_RULES);
    expect(result.failed).toEqual([]);
    for (const viewport of ['wide', 'mobile'] as const)
      expect(result.references.get(referenceShotId(viewport, 'dark'))!.page).toBe(result.references.get(referenceShotId(viewport, 'light'))!.page);

    // Paint every dark page that took its light twin's page, as before, and compare everything.
    const pageOf = (unit: RenderUnit) => (unit.shots[0] ? result.painted.get(unit.shots[0].id) : result.references.get(unit.references[0].id))!.page;
    const lightPages = new Set(result.units.filter((unit) => unit.colorScheme === 'light').map(pageOf));
    const reused = result.units.filter((unit) => unit.colorScheme === 'dark' && lightPages.has(pageOf(unit)));
    expect(reused.length).toBeGreaterThanOrEqual(2);
    const repainted = new Map(await Promise.all(reused.map(async (unit) => [unit.key, await pool.paint(unit, new EmailImageLoader(null))] as const)));
    const swap = <K>(map: Map<K, { unit: RenderUnit; page: PaintedPage }>) =>
      new Map([...map].map(([id, shot]) => [id, repainted.has(shot.unit.key) ? { unit: shot.unit, page: repainted.get(shot.unit.key)! } : shot]));
    for (const unit of reused) {
      const page = repainted.get(unit.key)!;
      const twin = pageOf(unit);
      expect(page.png.equals(twin.png)).toBe(true);
      // The light page measured its elements only when some page it stands for needs them (a picture unlike its reference's).
      expect({ ...page.measurements, elements: undefined }).toEqual({ ...twin.measurements, elements: undefined });
      if (twin.measurements.elements) expect(page.measurements.elements).toEqual(twin.measurements.elements);
    }
    const modes: ScreenshotMode[] = ['light', 'dark'];
    const withReuse = renderedReports(result.painted, CLIENTS, modes, { references: result.references, comparisons: result.comparisons });
    const withPainted = renderedReports(swap(result.painted), CLIENTS, modes, { references: swap(result.references) });
    expect(withReuse).toEqual(withPainted);
    expect(withReuse.visualReport!.divergence!['outlook-windows-legacy']!.dark!.score).toBeGreaterThan(10);
  });

  it('is painted under the dark scheme when the email has dark rules', async () => {
    const result = await render(EMAIL);
    expect(result.references.get('reference-wide-dark')!.page).not.toBe(result.references.get('reference-wide-light')!.page);
  });

  it('is painted under the dark scheme when an image served to the light page is SVG, which follows the scheme', async () => {
    const html = NO_DARK_RULES.replace('<h1 ', `<img src="${images.origin}/logo" width="100" height="50" style="display:block"><h1 `);
    const guard = new SsrfGuard({ allowedAddresses: ['127.0.0.2'], allowedPorts: [80, 443, images.port] });
    try {
      const result = await render(html, new EmailImageLoader(guard));
      expect(result.failed).toEqual([]);
      const light = result.references.get('reference-wide-light')!.page;
      const dark = result.references.get('reference-wide-dark')!.page;
      expect(light.rasterImagesOnly).toBe(false);
      expect(dark).not.toBe(light);
      // Chromium paints the SVG image's own dark rule in the dark page: the pictures differ.
      expect(pixelAt(light.png, 50, 25)).toEqual([0, 255, 0]);
      expect(pixelAt(dark.png, 50, 25)).toEqual([255, 0, 255]);
    } finally {
      await guard.close();
    }
  });
});
