import type { HTTPRequest, Page } from 'puppeteer-core';
import puppeteer from 'puppeteer-core';
import { Cluster } from 'puppeteer-cluster';
import { LINE_ATTRIBUTE, type ClientId } from '@mailproof/engine';
import { chromiumLaunchOptions, RENDER_PAGE_URL } from './chromium';
import { retirePage, ReusedPageBrowser } from './reused-page-browser';
import type { EmailImageLoader } from './image-loader';
import { MEASURE_ARGS, MEASURE_ELEMENTS_ARGS, measureElements, measurePage, type PageMeasurements } from './page-measurements';
import { isRasterImage } from './scheme-dependence';
import type { RenderUnit, ScreenshotMode } from './shot-plan';

export interface RenderPoolOptions {
  /** CHROMIUM_PATH; default Debian's /usr/bin/chromium. */
  chromiumPath?: string;
  /** Pages painted at once, each in a browser of its own (WORKER_RENDER_CONCURRENCY). */
  concurrency: number;
  /** Time for one page: loading it (images included), measuring and the screenshot. */
  pageTimeoutMs: number;
  /** Screenshots are cut at this many CSS px of height (the report says so). */
  maxHeightPx: number;
}

export const RENDER_POOL_DEFAULTS = { pageTimeoutMs: 15_000, maxHeightPx: 6_000 } as const;

/** One painted page. */
export interface PaintedPage {
  png: Buffer;
  /** Size of the PNG in device pixels. */
  pixelWidth: number;
  pixelHeight: number;
  /** The page's full height in CSS px, and whether the screenshot stops short of it. */
  cssHeight: number;
  truncated: boolean;
  measurements: PageMeasurements;
  /**
   * Every image served to the page was a raster image (isRasterImage): none could carry a colour-scheme
   * query of its own, so with markup of no scheme dependence (schemeDependence) the page paints the same
   * picture under either scheme.
   */
  rasterImagesOnly: boolean;
}

/** A page could not be painted (time limit, a page the browser gave up on); `reason` is shown to users. */
export class PaintError extends Error {
  constructor(
    readonly reason: string,
    /** The browser's own message, for logs (never shown to users). */
    readonly detail?: string,
  ) {
    super(detail ? `${reason}: ${detail}` : reason);
    this.name = 'PaintError';
  }
}

/**
 * The document gets its own Content-Security-Policy as a third line of defense (JavaScript is already off
 * and every request intercepted): no scripts, frames, objects, media, connections or external styles.
 */
const PAGE_CSP =
  "default-src 'none'; img-src http: https: data: blob:; style-src 'unsafe-inline'; font-src data:; script-src 'none'; frame-src 'none'; object-src 'none'; media-src 'none'; connect-src 'none'; form-action 'none'";
const BROWSER_GONE = /Target closed|Session closed|disconnected|Protocol error|detached|crash|Connection closed|Unable to get browser page/i;

interface PaintJob {
  unit: RenderUnit;
  images: EmailImageLoader;
  needsElements?: (png: Buffer) => boolean;
  /** Cleared when an image served to the page is not a raster image. */
  rasterImagesOnly?: boolean;
}

/**
 * Headless Chromium pages through puppeteer-cluster: `concurrency` browsers (one page each, so every page
 * is in front and painted at full speed; a crash takes one browser down, not the others), reused across
 * jobs with a fresh incognito context per page, and relaunched by the cluster when a browser dies.
 */
export class RenderPool {
  private readonly jobs = new Map<number, PaintJob>();
  private nextJob = 0;

  private constructor(
    private readonly cluster: Cluster<{ job: number }, PaintedPage>,
    private readonly options: RenderPoolOptions,
  ) {}

  static async launch(options: RenderPoolOptions): Promise<RenderPool> {
    const cluster: Cluster<{ job: number }, PaintedPage> = await Cluster.launch({
      puppeteer,
      concurrency: ReusedPageBrowser,
      maxConcurrency: options.concurrency,
      puppeteerOptions: chromiumLaunchOptions(options.chromiumPath),
      // The page's own limit (paintOn) fires first and replaces the page; this one is a backstop.
      timeout: options.pageTimeoutMs + 10_000,
      retryLimit: 0,
      monitor: false,
    });
    const pool = new RenderPool(cluster, options);
    await cluster.task(({ page, data }) => pool.paintOn(page, data.job));
    // Task errors are handled per call (execute rejects); the cluster's own event has nothing to add.
    cluster.on('taskerror', () => undefined);
    return pool;
  }

  /**
   * Paints one distinct page. A browser that died under it (killed, crashed) is relaunched by the cluster
   * and the page is painted once more; any other failure is a PaintError with a reason.
   * `needsElements`, for a unit that measures elements, is asked with the screenshot's PNG whether the
   * elements are needed after all (a page that painted its reference's very picture is not compared).
   */
  async paint(unit: RenderUnit, images: EmailImageLoader, needsElements?: (png: Buffer) => boolean): Promise<PaintedPage> {
    for (let attempt = 1; ; attempt++) {
      const job = this.nextJob++;
      this.jobs.set(job, { unit, images, needsElements });
      try {
        return await this.cluster.execute({ job });
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        if (attempt < 2 && BROWSER_GONE.test(message)) continue;
        if (error instanceof PaintError) throw error;
        if (/Timeout hit/.test(message)) throw new PaintError(`the page did not finish painting within ${this.options.pageTimeoutMs} ms`);
        throw new PaintError(BROWSER_GONE.test(message) ? 'the browser stopped while painting this page' : 'the page could not be painted', message);
      } finally {
        this.jobs.delete(job);
      }
    }
  }

  async close(): Promise<void> {
    await this.cluster.idle();
    await this.cluster.close();
  }

  /** How each page routes its requests: set up once per page, pointed at the current job's email. */
  private readonly routes = new WeakMap<Page, { current: PaintJob | null; served: boolean }>();

  private async paintOn(page: Page, jobNumber: number): Promise<PaintedPage> {
    const job = this.jobs.get(jobNumber);
    if (!job) throw new PaintError('the page was withdrawn');
    let timer: NodeJS.Timeout | undefined;
    const limit = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new PaintError(`the page did not finish painting within ${this.options.pageTimeoutMs} ms`)), this.options.pageTimeoutMs);
    });
    try {
      return await Promise.race([this.paintPage(page, job), limit]);
    } catch (error) {
      // Whatever the page was doing (a layout that never ends) goes with it: the next job gets a fresh page.
      retirePage(page);
      void page.close().catch(() => undefined);
      throw error;
    } finally {
      clearTimeout(timer);
      const route = this.routes.get(page);
      if (route) route.current = null;
    }
  }

  private async preparePage(page: Page): Promise<{ current: PaintJob | null; served: boolean }> {
    const route = this.routes.get(page);
    if (route) return route;
    const created: { current: PaintJob | null; served: boolean } = { current: null, served: false };
    this.routes.set(page, created);
    await page.setJavaScriptEnabled(false);
    await page.setRequestInterception(true);
    page.on('request', (request) => {
      void this.route(page, created, request).catch(() => undefined);
    });
    return created;
  }

  private async route(page: Page, route: { current: PaintJob | null; served: boolean }, request: HTTPRequest): Promise<void> {
    const url = request.url();
    const job = route.current;
    if (job && !route.served && url === RENDER_PAGE_URL && request.isNavigationRequest() && request.frame() === page.mainFrame()) {
      route.served = true;
      return request.respond({ status: 200, contentType: 'text/html; charset=utf-8', headers: { 'content-security-policy': PAGE_CSP }, body: job.unit.html });
    }
    // A later navigation of the page (<meta http-equiv=refresh>, a <base>-relative redirect) is answered
    // with 204, which browsers never commit: the email stays on screen and nothing leaves the browser.
    if (request.isNavigationRequest() && request.frame() === page.mainFrame()) return request.respond({ status: 204, body: '' });
    // Images (img, srcset, CSS backgrounds, SVG <image>, video posters) come through the SSRF guard;
    // everything else (styles, fonts, frames, objects, media, prefetches, navigations, file:) is refused.
    if (job && request.resourceType() === 'image' && /^https?:\/\//i.test(url)) {
      const image = await job.images.load(url);
      if (image.ok) {
        if (!isRasterImage(image.body)) job.rasterImagesOnly = false;
        return request.respond({ status: 200, contentType: image.contentType, body: image.body });
      }
    }
    return request.abort('blockedbyclient');
  }

  private async paintPage(page: Page, job: PaintJob): Promise<PaintedPage> {
    const { unit } = job;
    const route = await this.preparePage(page);
    await page.setViewport({ width: unit.width, height: 800, deviceScaleFactor: unit.deviceScaleFactor });
    await page.emulateMediaFeatures([{ name: 'prefers-color-scheme', value: unit.colorScheme }]);
    route.current = job;
    route.served = false;
    job.rasterImagesOnly = true;
    await page.goto(RENDER_PAGE_URL, { waitUntil: 'load', timeout: this.options.pageTimeoutMs });
    const measurements = await page.evaluate(measurePage, { lineAttribute: LINE_ATTRIBUTE, ...MEASURE_ARGS });
    const cssHeight = Math.max(1, Math.ceil(measurements.contentHeight));
    const height = Math.min(cssHeight, this.options.maxHeightPx);
    const png = Buffer.from(
      await page.screenshot({ type: 'png', clip: { x: 0, y: 0, width: unit.width, height }, captureBeyondViewport: true, optimizeForSpeed: true }),
    );
    // After the screenshot, so a page whose picture is its reference's (divergence 0) skips the measuring.
    if (unit.measureElements && (job.needsElements?.(png) ?? true)) {
      const elements = await page.evaluate(measureElements, { lineAttribute: LINE_ATTRIBUTE, ...MEASURE_ELEMENTS_ARGS });
      if (elements) measurements.elements = elements;
    }
    return {
      png,
      pixelWidth: Math.round(unit.width * unit.deviceScaleFactor),
      pixelHeight: Math.round(height * unit.deviceScaleFactor),
      cssHeight,
      truncated: cssHeight > height,
      measurements,
      rasterImagesOnly: job.rasterImagesOnly ?? true,
    };
  }
}

/** The pages painted for a render, by `<clientId>-<mode>`, with the unit each came from. */
export type PaintedShots = Map<`${ClientId}-${ScreenshotMode}`, { unit: RenderUnit; page: PaintedPage }>;
