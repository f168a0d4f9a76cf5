import type { LaunchOptions } from 'puppeteer-core';

/**
 * The page's own address: the render worker answers this one request with the email; every other request
 * the page makes is intercepted (images fetched through the SSRF guard, everything else refused).
 * `.invalid` never resolves (RFC 6761), so nothing could reach it even past the interception.
 */
export const RENDER_PAGE_URL = 'http://email.mailproof.invalid/';

/** Debian's Chromium unless CHROMIUM_PATH says otherwise; no npm install ever downloads a browser. */
export const DEFAULT_CHROMIUM_PATH = '/usr/bin/chromium';

/**
 * Launch flags. The second line of defence behind request interception: every request that would leave
 * the browser goes to a proxy that does not exist (127.0.0.1:9, the discard port, nothing listens), even for
 * loopback (`<-loopback>`), and Chromium's own background traffic (updates, prefetch, DNS prefetch, safe
 * browsing, metrics) is switched off. `--no-sandbox` because CI and the container run as root, where
 * Chromium's sandbox cannot start; JavaScript off and interception carry the weight (docs/rendering.md).
 */
export function chromiumLaunchOptions(executablePath: string | undefined): LaunchOptions {
  return {
    executablePath: executablePath || DEFAULT_CHROMIUM_PATH,
    headless: true,
    // Puppeteer's own default flags plus ours; its `--enable-automation` etc. are harmless.
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-dev-shm-usage',
      '--proxy-server=127.0.0.1:9',
      '--proxy-bypass-list=<-loopback>',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-domain-reliability',
      '--disable-sync',
      '--disable-default-apps',
      '--disable-client-side-phishing-detection',
      '--dns-prefetch-disable',
      '--disable-remote-fonts',
      '--no-pings',
      '--no-first-run',
      '--mute-audio',
      '--hide-scrollbars',
      '--font-render-hinting=none',
      '--disable-features=NetworkPrediction,OptimizationHints,MediaRouter,Translate,AutofillServerCommunication,InterestFeedContentSuggestions',
      // One page per browser is always in front, but keep every page painting at full speed anyway.
      '--disable-renderer-backgrounding',
      '--disable-background-timer-throttling',
      '--disable-backgrounding-occluded-windows',
    ],
  };
}
