import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { renderClientViews } from '@mailproof/engine';
import { SsrfGuard } from '@mailproof/net-guard';
import { EmailImageLoader, RenderPool, planRenders, renderEmail, renderedReports } from '@mailproof/render';
import { pixelAt, solidPng, startRecordingServer } from '../utils/loopback-servers';

// Real headless Chromium (Debian's), in this process: what worker-render paints, without the queue.
const DARK_BOX_EMAIL = `<!doctype html>
<html><head>
<meta name="color-scheme" content="light dark">
<style>
  body { margin: 0; background: #ffffff; }
  .box { width: 200px; height: 100px; background: #ff0000; }
  @media (prefers-color-scheme: dark) { .box { background: #00ff00 !important; } }
</style>
</head><body>
<div class="box"></div>
<table cellpadding="0" cellspacing="0"><tr><td style="height:300px">Text</td></tr></table>
<script>document.body.style.background = '#ff00ff';</script>
</body></html>`;

function isRed([r, g, b]: [number, number, number]): boolean {
  return r > 200 && g < 60 && b < 60;
}
function isGreen([r, g, b]: [number, number, number]): boolean {
  return g > 200 && r < 60 && b < 60;
}
function isDark([r, g, b]: [number, number, number]): boolean {
  return r + g + b < 200;
}

describe('render pool (real Chromium)', () => {
  let pool: RenderPool;
  const noImages = () => new EmailImageLoader(null);

  beforeAll(async () => {
    pool = await RenderPool.launch({ concurrency: 2, pageTimeoutMs: 15_000, maxHeightPx: 2_000 });
  });
  afterAll(async () => {
    await pool?.close();
  });

  it('paints the dark media query in Apple Mail, keeps it red where the client ignores it, and inverts in a full-inversion client', async () => {
    const views = renderClientViews(DARK_BOX_EMAIL, { clients: ['apple-mail-macos', 'gmail-web', 'outlook-windows-legacy'] });
    const { painted, failed } = await renderEmail(pool, views, ['light', 'dark'], noImages());
    expect(failed).toEqual([]);
    const png = (id: string) => painted.get(id as never)!.page.png;
    // The box sits at the top left (200 x 100 CSS px); the body below it.
    expect(isRed(pixelAt(png('apple-mail-macos-light'), 50, 50))).toBe(true);
    expect(isGreen(pixelAt(png('apple-mail-macos-dark'), 50, 50))).toBe(true);
    expect(isRed(pixelAt(png('gmail-web-dark'), 50, 50))).toBe(true);
    // Outlook Classic inverts: the white body turns dark, the light view stays white.
    expect(pixelAt(png('outlook-windows-legacy-light'), 400, 300)).toEqual([255, 255, 255]);
    expect(isDark(pixelAt(png('outlook-windows-legacy-dark'), 400, 300))).toBe(true);
  });

  it("never runs the page's scripts (the body stays white, not magenta)", async () => {
    const views = renderClientViews(DARK_BOX_EMAIL, { clients: ['apple-mail-macos'] });
    const { painted } = await renderEmail(pool, views, ['light'], noImages());
    expect(pixelAt(painted.get('apple-mail-macos-light')!.page.png, 400, 300)).toEqual([255, 255, 255]);
  });

  it('paints mobile clients at 390 CSS px with device scale 2, desktop at 800', async () => {
    const views = renderClientViews(DARK_BOX_EMAIL, { clients: ['apple-mail-ios', 'apple-mail-macos'] });
    const { painted } = await renderEmail(pool, views, ['light'], noImages());
    const ios = painted.get('apple-mail-ios-light')!.page;
    const mac = painted.get('apple-mail-macos-light')!.page;
    expect([ios.pixelWidth, mac.pixelWidth]).toEqual([780, 800]);
    expect(readPngWidth(ios.png)).toBe(780);
    expect(ios.measurements.viewportWidth).toBe(390);
  });

  it('paints identical markup once for every client that shares it', () => {
    const views = renderClientViews(DARK_BOX_EMAIL);
    const units = planRenders(views, ['light', 'dark']);
    const shots = units.reduce((sum, unit) => sum + unit.shots.length, 0);
    expect(shots).toBe(42);
    expect(units.length).toBeLessThan(shots);
  });

  describe('network containment', () => {
    let canary: Awaited<ReturnType<typeof startRecordingServer>>;
    let images: Awaited<ReturnType<typeof startRecordingServer>>;
    const BLUE = solidPng(120, 60, [0, 0, 255]);

    beforeAll(async () => {
      canary = await startRecordingServer('127.0.0.1');
      images = await startRecordingServer('127.0.0.2', (req, res) => {
        if (req.url === '/to-canary') {
          res.writeHead(302, { location: `${canary.origin}/redirected` });
          return res.end();
        }
        res.writeHead(200, { 'content-type': 'image/png' });
        res.end(BLUE);
      });
    });
    afterAll(async () => {
      await canary?.close();
      await images?.close();
    });

    const guard = () => new SsrfGuard({ allowedAddresses: ['127.0.0.2'], allowedPorts: [80, 443, images.port] });

    it('shows an image from an allow-listed server, fetched by the worker through the SSRF guard', async () => {
      const email = `<!doctype html><html><body style="margin:0;background:#fff"><img src="${images.origin}/logo.png" width="120" height="60" style="display:block"><p>x</p></body></html>`;
      const views = renderClientViews(email, { clients: ['apple-mail-macos'] });
      const { painted } = await renderEmail(pool, views, ['light'], new EmailImageLoader(guard()));
      expect(pixelAt(painted.get('apple-mail-macos-light')!.page.png, 30, 30)).toEqual([0, 0, 255]);
      expect(images.hits).toContain('/logo.png');
    });

    it('leaves a loopback canary with zero hits from every fetch vector', async () => {
      const c = canary.origin;
      const vectors = [
        `<img src="${c}/img">`,
        `<img srcset="${c}/srcset 2x" src="data:image/gif;base64,R0lGODlhAQABAAAAACw=">`,
        `<picture><source srcset="${c}/source"><img src="data:image/gif;base64,R0lGODlhAQABAAAAACw="></picture>`,
        `<div style="background-image:url(${c}/css-background);height:10px"></div>`,
        `<table background="${c}/table-background"><tr><td>x</td></tr></table>`,
        `<style>@import url(${c}/import.css);</style>`,
        `<link rel="stylesheet" href="${c}/link.css">`,
        `<style>@font-face{font-family:Canary;src:url(${c}/font.woff)} p{font-family:Canary}</style><p>font</p>`,
        `<iframe src="${c}/iframe"></iframe>`,
        `<object data="${c}/object"></object>`,
        `<embed src="${c}/embed">`,
        `<video poster="${c}/poster" src="${c}/video"></video>`,
        `<audio src="${c}/audio" autoplay></audio>`,
        `<svg width="10" height="10"><image href="${c}/svg-image" width="10" height="10"/></svg>`,
        `<link rel="prefetch" href="${c}/prefetch"><link rel="preload" as="image" href="${c}/preload"><link rel="icon" href="${c}/icon">`,
        `<script src="${c}/script.js"></script>`,
        `<input type="image" src="${c}/input-image">`,
        `<ul style="list-style-image:url(${c}/list-image)"><li>x</li></ul><div style="border:4px solid;border-image:url(${c}/border-image) 1"></div>`,
        `<img src="http://localhost:${canary.port}/by-name">`,
        `<img src="http://2130706433:${canary.port}/decimal-address">`,
        `<img src="${images.origin}/to-canary">`,
      ];
      const headVectors = `<meta http-equiv="refresh" content="0;url=${c}/meta-refresh"><base href="${c}/base/">`;
      const email = `<!doctype html><html><head>${headVectors}</head><body>${vectors.join('\n')}<img src="relative-to-base.png"></body></html>`;
      const views = renderClientViews(email, { clients: ['apple-mail-macos', 'apple-mail-ios'] });
      const result = await renderEmail(pool, views, ['light', 'dark'], new EmailImageLoader(guard()));
      if (result.failed.length > 0) throw new Error(JSON.stringify(result.failed));
      // The allow-listed server was asked for its redirect; the guard refused to follow it into the canary.
      expect(images.hits).toContain('/to-canary');
      expect(vectors.length + 2).toBeGreaterThanOrEqual(19);
      expect(canary.hits).toEqual([]);
    });
  });

  it('cuts a 50,000 px tall email at the height limit and says so', async () => {
    const email = `<!doctype html><html><body style="margin:0"><div style="height:50000px;background:#00f"></div></body></html>`;
    const views = renderClientViews(email, { clients: ['apple-mail-macos'] });
    const result = await renderEmail(pool, views, ['light'], noImages());
    const page = result.painted.get('apple-mail-macos-light')!.page;
    expect(page.truncated).toBe(true);
    expect(page.cssHeight).toBeGreaterThanOrEqual(50_000);
    expect(page.pixelHeight).toBe(2_000);
    expect(result.notes.join(' ')).toMatch(/height limit/);
  });

  it('ends a page of 100,000 elements within its time limit, painted or failed with the limit as reason', async () => {
    const tight = await RenderPool.launch({ concurrency: 1, pageTimeoutMs: 4_000, maxHeightPx: 2_000 });
    try {
      // 100,000 elements within the 500 KB input limit: paragraphs closed by the next one.
      const email = `<!doctype html><html><body>${'<p>x'.repeat(100_000)}</body></html>`;
      const views = renderClientViews(email, { clients: ['apple-mail-macos'] });
      const result = await renderEmail(tight, views, ['light'], noImages());
      if (result.failed.length > 0) expect(result.failed[0].reason).toMatch(/within 4000 ms/);
      else expect(result.painted.get('apple-mail-macos-light')!.page.measurements.elementsMeasured).toBeLessThan(100_000);
      // The pool still paints afterwards.
      const after = await renderEmail(tight, renderClientViews(DARK_BOX_EMAIL, { clients: ['gmail-web'] }), ['light'], noImages());
      expect(after.failed).toEqual([]);
    } finally {
      await tight.close();
    }
  }, 120_000);

  it('measures overflow and mobile contrast in the page, with source lines, and compares clients pixel by pixel', async () => {
    const email = `<!doctype html>
<html><body style="margin:0;background:#ffffff">
<table width="700" style="width:700px"><tr><td>wide</td></tr></table>
<p style="color:#bbbbbb">low contrast</p>
<p style="color:#000000;display:flex">fine</p>
<div style="width:400px;height:200px;background-image:linear-gradient(#ff0000,#ff0000)">&nbsp;</div>
</body></html>`;
    // Outlook Classic paints no CSS gradient: its red box stays white, the change the visual report must find.
    const clients = ['apple-mail-ios', 'gmail-ios', 'apple-mail-macos', 'gmail-web', 'outlook-windows-legacy'] as const;
    const views = renderClientViews(email, { clients: [...clients] });
    const { painted } = await renderEmail(pool, views, ['light', 'dark'], noImages());
    const reports = renderedReports(painted, [...clients], ['light', 'dark']);
    const ios = reports.overflowReport!.clients.find((c) => c.clientId === 'apple-mail-ios')!;
    expect(ios.overflowPx).toBeGreaterThan(300);
    expect(ios.elements[0]).toMatchObject({ line: 3, tag: 'table' });
    expect(reports.overflowReport!.overflowing).not.toContain('apple-mail-macos');
    const contrast = reports.mobileContrast!.clients.find((c) => c.clientId === 'apple-mail-ios' && c.mode === 'light')!;
    expect(contrast.failures).toEqual([expect.objectContaining({ line: 4, sample: 'low contrast', required: 4.5 })]);
    expect(reports.mobileContrast!.clients.some((c) => c.clientId === 'apple-mail-macos')).toBe(false);
    const visual = reports.visualReport!;
    expect(visual.references).toEqual({ wide: 'apple-mail-macos', mobile: 'apple-mail-ios' });
    const visualOf = (clientId: string) => visual.clients.find((entry) => entry.clientId === clientId);
    // Clients given the same markup are the same render: 0% without a pixel compared.
    expect(visualOf('gmail-web')).toEqual({ clientId: 'gmail-web', reference: 'apple-mail-macos', changedPercent: 0, regions: [] });
    // Gmail for iOS is Apple's mobile render plus its word-spacing:1px on the body (email-bugs #80): only the
    // line of two words moves, a text-high region, nothing near the 400 x 200 px box.
    const gmailIos = visualOf('gmail-ios')!;
    expect(gmailIos.reference).toBe('apple-mail-ios');
    expect(gmailIos.changedPercent).toBeGreaterThan(0);
    expect(gmailIos.changedPercent).toBeLessThan(1);
    expect(gmailIos.regions.length).toBeGreaterThan(0);
    expect(gmailIos.regions.every((region) => region.height < 30 && region.width < 400)).toBe(true);
    // The missing red box: a changed share above 0 and a region around the whole 400 x 200 px box.
    const outlook = visualOf('outlook-windows-legacy')!;
    expect(outlook).toMatchObject({ reference: 'apple-mail-macos' });
    expect(outlook.changedPercent).toBeGreaterThan(0);
    expect(outlook.regions).toContainEqual(expect.objectContaining({ x: 0, width: 400 }));
    const box = outlook.regions.find((region) => region.width === 400)!;
    expect(box.height).toBeGreaterThanOrEqual(200);
    expect(visual.clients.map((entry) => entry.clientId).sort()).toEqual(['gmail-ios', 'gmail-web', 'outlook-windows-legacy']);
  });

  it('relaunches a browser killed in the middle of a page and paints the page again', async () => {
    const solo = await RenderPool.launch({ concurrency: 1, pageTimeoutMs: 20_000, maxHeightPx: 2_000 });
    try {
      await renderEmail(solo, renderClientViews(DARK_BOX_EMAIL, { clients: ['gmail-web'] }), ['light'], noImages());
      // A page that takes a while to lay out, and Chromium killed while it does.
      const email = `<!doctype html><html><body>${'<p>cell'.repeat(60_000)}</body></html>`;
      const rendering = renderEmail(solo, renderClientViews(email, { clients: ['apple-mail-macos'] }), ['light'], noImages());
      await new Promise((resolve) => setTimeout(resolve, 300));
      const browsers = chromiumPidsOf(process.pid);
      expect(browsers.length).toBeGreaterThan(0);
      for (const pid of browsers) process.kill(pid, 'SIGKILL');
      const result = await rendering;
      expect(result.failed).toEqual([]);
      expect(result.painted.has('apple-mail-macos-light')).toBe(true);
    } finally {
      await solo.close();
    }
  }, 120_000);

  it("keeps Chromium's memory bounded over 20 renders in a row", async () => {
    const rss: number[] = [];
    for (let i = 0; i < 20; i++) {
      const email = DARK_BOX_EMAIL.replace('Text', `Text ${i} ${'word '.repeat(200)}`);
      await renderEmail(pool, renderClientViews(email, { clients: ['apple-mail-macos', 'apple-mail-ios'] }), ['light', 'dark'], noImages());
      rss.push(treeRssMb(process.pid));
    }
    // Each page gets a fresh context that is closed after it: no growth beyond noise after warm-up.
    expect(rss[19]).toBeLessThan(rss[4] * 1.5 + 50);
  }, 180_000);
});

function readPngWidth(png: Buffer): number {
  return png.readUInt32BE(16);
}

/** Browser processes (the top chromium of each launch) started by `parent`. */
function chromiumPidsOf(parent: number): number[] {
  const out = execFileSync('ps', ['-eo', 'pid=,ppid=,comm='], { encoding: 'utf8' });
  return out
    .split('\n')
    .map((line) => line.trim().split(/\s+/))
    .filter(([, ppid, comm]) => Number(ppid) === parent && /chrom/.test(comm ?? ''))
    .map(([pid]) => Number(pid));
}

/** Resident memory of every process under `root` (Chromium's browser, renderers, GPU and utility processes), in MB. */
function treeRssMb(root: number): number {
  const out = execFileSync('ps', ['-eo', 'pid=,ppid=,rss='], { encoding: 'utf8' });
  const rows = out
    .split('\n')
    .map((line) => line.trim().split(/\s+/).map(Number))
    .filter((row) => row.length === 3);
  const children = new Map<number, number[]>();
  for (const [pid, ppid] of rows) children.set(ppid, [...(children.get(ppid) ?? []), pid]);
  const rssOf = new Map(rows.map(([pid, , rss]) => [pid, rss]));
  let total = 0;
  const stack = [...(children.get(root) ?? [])];
  while (stack.length > 0) {
    const pid = stack.pop()!;
    total += rssOf.get(pid) ?? 0;
    stack.push(...(children.get(pid) ?? []));
  }
  void readFileSync;
  return total / 1024;
}
