import type { Browser, Page } from 'puppeteer-core';
import ConcurrencyImplementation, { type JobInstance, type WorkerInstance } from 'puppeteer-cluster/dist/concurrency/ConcurrencyImplementation';

/** A page is replaced after this many paintings, so that nothing a renderer keeps can grow without bound. */
export const PAGES_BEFORE_RECYCLE = 100;
const NEW_PAGE_TIMEOUT_MS = 10_000;
/**
 * A browser launch is tried this many times, LAUNCH_RETRY_DELAY_MS apart. puppeteer-cluster gives up a worker
 * slot for good when its launch throws (its count of starting workers is never given back), so a launch that
 * fails once (its process killed while it starts, as when Chromium is killed mid-job) must not reach it.
 */
const LAUNCH_ATTEMPTS = 3;
const LAUNCH_RETRY_DELAY_MS = 500;

/** Pages that must not paint again (timed out: whatever they were doing goes with them). */
const retiredPages = new WeakSet<Page>();

/** Marks a page as done: the next job of its slot gets a new page, even while this one is still closing. */
export function retirePage(page: Page): void {
  retiredPages.add(page);
}

/**
 * puppeteer-cluster's concurrency model for the render worker: one browser per worker slot (as
 * CONCURRENCY_BROWSER: one page in front per browser, a crash takes one slot down) whose single page is
 * reused for job after job. A new incognito context per page costs a renderer process start (~150 ms on
 * this machine kind, 5x that under load): most of a screenshot's price. Pages hold no state between
 * emails that matters (JavaScript off, no network, no storage); a page is replaced every
 * PAGES_BEFORE_RECYCLE paintings, when the RenderPool closes it after a time-out, and with its browser when
 * that browser dies (the cluster then calls `repair`, which relaunches it).
 */
export class ReusedPageBrowser extends ConcurrencyImplementation {
  async init(): Promise<void> {
    // Browsers are launched per worker slot (workerInstance).
  }

  async close(): Promise<void> {
    // Each worker slot closes its own browser.
  }

  /** Launches a browser, again after a failed attempt (LAUNCH_ATTEMPTS). */
  private async launchBrowser(): Promise<Browser> {
    for (let attempt = 1; ; attempt++) {
      try {
        return (await this.puppeteer.launch(this.options)) as Browser;
      } catch (error) {
        if (attempt >= LAUNCH_ATTEMPTS) throw error;
        await new Promise((resolve) => setTimeout(resolve, LAUNCH_RETRY_DELAY_MS));
      }
    }
  }

  async workerInstance(): Promise<WorkerInstance> {
    let browser: Browser = await this.launchBrowser();
    let page: Page | null = null;
    let uses = 0;
    return {
      jobInstance: async (): Promise<JobInstance> => {
        // A dead browser throws here; the cluster's worker then calls repair() and asks again.
        if (!browser.connected) throw new Error('the browser has disconnected');
        if (!page || page.isClosed() || retiredPages.has(page) || uses >= PAGES_BEFORE_RECYCLE) {
          await page?.close().catch(() => undefined);
          page = await withTimeout(browser.newPage(), NEW_PAGE_TIMEOUT_MS);
          uses = 0;
        }
        uses++;
        return { resources: { page } as JobInstance['resources'], close: async () => undefined };
      },
      close: async () => {
        await browser.close().catch(() => undefined);
      },
      repair: async () => {
        await withTimeout(browser.close(), 5_000).catch(() => browser.process()?.kill('SIGKILL'));
        page = null;
        browser = await this.launchBrowser();
      },
    };
  }
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([promise, new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms`)), ms)))]).finally(() =>
    clearTimeout(timer),
  );
}
