import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import puppeteer, { type Browser } from 'puppeteer-core';

/**
 * Debian's Chromium, headless, with the flags this machine needs (no background networking: the
 * network is closed and Chromium would otherwise keep trying). CHROMIUM_PATH overrides the path.
 */
export async function launchChromium(): Promise<Browser & { cleanup(): Promise<void> }> {
  const userDataDir = mkdtempSync(join(tmpdir(), 'mailproof-chromium-'));
  const browser = await puppeteer.launch({
    executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
    headless: true,
    userDataDir,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-dev-shm-usage',
    ],
  });
  return Object.assign(browser, {
    async cleanup() {
      await browser.close();
      rmSync(userDataDir, { recursive: true, force: true });
    },
  });
}
