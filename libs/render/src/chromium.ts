import { createHash } from 'node:crypto';
import { existsSync, lstatSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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
 * Launch flags. The second line of defense behind request interception: every request that would leave
 * the browser goes to a proxy that does not exist (127.0.0.1:9, the discard port, nothing listens), even for
 * loopback (`<-loopback>`), and Chromium's own background traffic (updates, prefetch, DNS prefetch, safe
 * browsing, metrics) is switched off. `--no-sandbox` because CI and the container run as root, where
 * Chromium's sandbox cannot start; JavaScript off and interception carry the weight (docs/rendering.md).
 */
export function chromiumLaunchOptions(executablePath: string | undefined): LaunchOptions {
  return {
    executablePath: boundToParent(executablePath || DEFAULT_CHROMIUM_PATH),
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

/** util-linux's setpriv (Debian: essential, in every image): runs a program with a parent-death signal set. */
const SETPRIV = '/usr/bin/setpriv';

/**
 * An executable that starts `chromium` with PR_SET_PDEATHSIG = SIGKILL, so the browser dies with the process
 * that launched it. Puppeteer starts Chromium detached (its own process group) and can only close it while it
 * runs: a render worker killed with SIGKILL (the OOM killer, `kill -9`, a crashed host process) left its two
 * browsers, their crash handlers and renderers running with nobody to end them (seen after the scale harness's
 * kill -9 of worker-render: 30 orphaned processes). With the signal set, the browser is killed with its
 * parent and its own children follow it (they watch the browser's IPC channel); measured: nothing left.
 *
 * The wrapper is a two-line shell script in a directory of this user's own under the temporary directory
 * (written once per Chromium path, replaced atomically, never followed through a link or a directory that
 * others can write). Without setpriv (not Linux), or when that directory is not safely ours, or when the path
 * does not exist (so puppeteer names it in its error), Chromium is started as it is.
 */
export function boundToParent(executablePath: string, baseDir = tmpdir()): string {
  if (process.platform !== 'linux' || !existsSync(SETPRIV) || !existsSync(executablePath)) return executablePath;
  try {
    const uid = process.getuid?.() ?? -1;
    const dir = join(baseDir, `mailproof-${uid}`);
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const stat = lstatSync(dir);
    if (!stat.isDirectory() || stat.uid !== uid || (stat.mode & 0o022) !== 0) return executablePath;
    const script = join(dir, `chromium-${createHash('sha256').update(executablePath).digest('hex').slice(0, 16)}.sh`);
    const text = `#!/bin/sh\n# Written by Mailproof (libs/render/src/chromium.ts): Chromium dies with the process that starts it.\nexec ${SETPRIV} --pdeathsig KILL -- ${shellQuoted(executablePath)} "$@"\n`;
    if (readIfFile(script) !== text) {
      const next = `${script}.${process.pid}`;
      writeFileSync(next, text, { mode: 0o700 });
      renameSync(next, script);
    }
    return script;
  } catch {
    return executablePath;
  }
}

function readIfFile(path: string): string | null {
  try {
    return lstatSync(path).isFile() ? readFileSync(path, 'utf8') : null;
  } catch {
    return null;
  }
}

/** One shell word: single quotes, with each single quote closed, escaped and reopened. */
function shellQuoted(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`;
}
