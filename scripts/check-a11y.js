#!/usr/bin/env node
/**
 * npm run check:a11y — the accessibility report against axe-core (the reference nobody here wrote), run in
 * Debian's Chromium through puppeteer-core over every HTML file of ../shared/corpus/html (or the folder
 * given as the first argument). Every network request of the page is blocked, except that images load as a
 * transparent 100x100 stand-in, so that the email's CSS sizes them as a mail client would.
 *
 * Matching is by source position: before the page is loaded, every start tag of the email gets a
 * `data-mp-src="line:column"` attribute inserted right after its tag name (the rest of the markup stays
 * byte for byte), the position parse5 gives, which is the one the engine reports. An axe node maps to the
 * attribute of its element; document-level rules (lang, title) match per email.
 *
 * Per mapped rule it prints TP / FP / FN, precision and recall over elements (scripts/lib/a11y-tally.js
 * counts). An axe violation that cannot be mapped to a source position counts as a miss (FN) and is shown in
 * its own column. Elements axe could not decide ("incomplete", needs review: text over an image,
 * pseudo-elements) have their own column; an engine finding on one counts in neither direction. The
 * layout-table rule has no axe rule of its own: its reference is axe's data-table heuristic
 * (axe.commons.table.isDataTable) on every visible table without role="presentation"/"none". Images the
 * browser paints at most 1 px wide or high, or not at all (tracking pixels, spacers), are left out of
 * image-alt on purpose and counted apart; the page decides that, not the engine.
 * Exits 1 when a rule's precision or recall is below the target (0.97). Method and figures:
 * docs/accuracy.md. The engine's TypeScript is bundled on the fly with esbuild.
 */
'use strict';
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { buildSync } = require('esbuild');
const { parse } = require('parse5');
const puppeteer = require('puppeteer-core');
const { PNG } = require('pngjs');
const { isInvisibleImage, tallyElementRule, tallyDocumentRule, addCounts, judge, TARGET } = require('./lib/a11y-tally');

/** What every image request of the page gets: a transparent 100x100 PNG (see the request handler). */
const STAND_IN_IMAGE = PNG.sync.write(new PNG({ width: 100, height: 100 }));

const root = path.resolve(__dirname, '..');
const corpusDir = path.resolve(process.argv.slice(2).find((arg) => !arg.startsWith('--')) || path.join(root, '..', 'shared', 'corpus', 'html'));
const verbose = process.argv.includes('--verbose') || process.env.CHECK_VERBOSE === '1';

if (!fs.existsSync(corpusDir)) {
  console.log(`check:a11y: no corpus at ${corpusDir}; nothing to check.`);
  process.exit(0);
}

/** axe rule → the engine's rule; `document` rules are matched per email, the others per element. */
const MAPPED = [
  { axe: 'color-contrast', engine: 'low-contrast' },
  { axe: 'image-alt', engine: 'img-missing-alt' },
  { axe: 'link-name', engine: 'link-no-accessible-name' },
  { axe: 'button-name', engine: 'button-no-accessible-name' },
  { axe: 'heading-order', engine: 'heading-skip' },
  { axe: 'html-has-lang', engine: 'missing-lang', document: true },
  { axe: 'html-lang-valid', engine: 'invalid-lang', document: true },
  { axe: 'document-title', engine: 'missing-title', document: true },
  { axe: 'data-table heuristic', engine: 'layout-table-missing-role' },
];
const AXE_RULES = MAPPED.filter((rule) => !rule.axe.includes(' ')).map((rule) => rule.axe);

/** Inserts data-mp-src="line:column" into every start tag written in the source (implied tags have none). */
function markPositions(html) {
  const document = parse(html, { sourceCodeLocationInfo: true });
  const inserts = [];
  const visit = (node) => {
    const start = node.sourceCodeLocation && (node.sourceCodeLocation.startTag || (node.tagName ? null : undefined));
    if (node.tagName && start)
      inserts.push({ offset: start.startOffset + 1 + node.tagName.length, text: ` data-mp-src="${start.startLine}:${start.startCol}"` });
    for (const child of node.childNodes || []) visit(child);
    if (node.content) visit(node.content);
  };
  visit(document);
  inserts.sort((a, b) => b.offset - a.offset);
  let marked = html;
  for (const insert of inserts) marked = marked.slice(0, insert.offset) + insert.text + marked.slice(insert.offset);
  return marked;
}

/* global document, window, getComputedStyle -- axeInPage and the functions beside it run in the browser page */
/** Runs in the page: axe's results by rule as source positions, and the data-table heuristic per table. */
async function axeInPage(rules) {
  const position = (target) => {
    if (!Array.isArray(target) || target.length !== 1 || typeof target[0] !== 'string') return null;
    const element = document.querySelector(target[0]);
    return element ? element.getAttribute('data-mp-src') : null;
  };
  const result = await window.axe.run(document, { runOnly: { type: 'rule', values: rules }, resultTypes: ['violations', 'incomplete'] });
  const byRule = {};
  for (const kind of ['violations', 'incomplete']) {
    for (const rule of result[kind]) {
      const entry = (byRule[rule.id] ??= { violations: [], incomplete: [] });
      for (const node of rule.nodes)
        entry[kind].push({ at: position(node.target), html: node.html.slice(0, 120), summary: (node.failureSummary || '').slice(0, 160) });
    }
  }
  // The heuristic needs axe's virtual tree.
  window.axe.setup(document);
  const layoutTables = [];
  for (const table of document.querySelectorAll('table')) {
    const role = (table.getAttribute('role') || '').trim().toLowerCase();
    if (role === 'presentation' || role === 'none' || !window.axe.commons.dom.isVisibleToScreenReaders(table)) continue;
    if (!window.axe.commons.table.isDataTable(table)) layoutTables.push(table.getAttribute('data-mp-src'));
  }
  window.axe.teardown();
  byRule['data-table heuristic'] = { violations: layoutTables.map((at) => ({ at, html: '' })), incomplete: [] };
  // Every written <img> as painted: its box, and whether it is painted at all.
  const images = [...document.querySelectorAll('img[data-mp-src]')].map((image) => {
    const box = image.getBoundingClientRect();
    const style = getComputedStyle(image);
    const rendered = image.getClientRects().length > 0 && style.visibility !== 'hidden' && style.visibility !== 'collapse';
    return { at: image.getAttribute('data-mp-src'), width: box.width, height: box.height, rendered };
  });
  return { byRule, images };
}

function bundleEngine() {
  const outfile = path.join(root, 'node_modules', '.cache', 'check-a11y', `engine-${process.pid}.cjs`);
  buildSync({
    entryPoints: [path.join(root, 'libs/engine/src/index.ts')],
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    packages: 'external',
    outfile,
    logLevel: 'warning',
  });
  const engine = require(outfile);
  fs.rmSync(outfile, { force: true });
  return engine;
}

async function main() {
  const engine = bundleEngine();
  const axeSource = fs.readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
  const axeVersion = require('axe-core/package.json').version;
  const files = fs
    .readdirSync(corpusDir)
    .filter((file) => file.endsWith('.html'))
    .sort();
  const userDataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mailproof-check-a11y-'));
  const browser = await puppeteer.launch({
    executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
    headless: true,
    userDataDir,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-dev-shm-usage',
    ],
  });
  const totals = new Map(MAPPED.map((rule) => [rule.engine, {}]));
  const differences = [];
  let blocked = 0;
  try {
    for (const file of files) {
      const html = fs.readFileSync(path.join(corpusDir, file), 'utf8');
      const analysis = engine.analyzeEmail(html, { format: 'html' });
      const page = await browser.newPage();
      await page.setViewport({ width: 1024, height: 768 });
      await page.setRequestInterception(true);
      page.on('request', (request) => {
        blocked++;
        // Images load as a stand-in of their own (a transparent 100x100 PNG), as an email's images load in a
        // mail client: a blocked image would paint as a broken-image box whatever the email's CSS says (a
        // spacer with height: 0 painted 600x16), and the painted size is what decides a spacer here.
        if (request.resourceType() === 'image') request.respond({ status: 200, contentType: 'image/png', body: STAND_IN_IMAGE }).catch(() => undefined);
        else request.abort().catch(() => undefined);
      });
      await page.setContent(markPositions(html), { waitUntil: 'load', timeout: 30_000 });
      await page.evaluate(axeSource);
      const { byRule, images } = await page.evaluate(axeInPage, AXE_RULES);
      await page.close();
      // Tracking pixels and spacers as the browser paints them get no alt advice (documented difference).
      const invisibleImages = new Set(images.filter(isInvisibleImage).map((image) => image.at));
      for (const rule of MAPPED) {
        const reference = byRule[rule.axe] ?? { violations: [], incomplete: [] };
        const found = analysis.accessibilityReport.issues.filter((issue) => issue.rule === rule.engine);
        const { counts, differences: ruleDifferences } = rule.document
          ? tallyDocumentRule({ ...reference, reported: found.length > 0 })
          : tallyElementRule({
              ...reference,
              reported: found.map((issue) => ({ at: `${issue.line}:${issue.column}`, message: issue.message })),
              exempt: rule.axe === 'image-alt' ? invisibleImages : new Set(),
            });
        addCounts(totals.get(rule.engine), counts);
        for (const line of ruleDifferences) differences.push(`${file} ${rule.engine} ${line}`);
      }
    }
  } finally {
    await browser.close();
    fs.rmSync(userDataDir, { recursive: true, force: true });
  }

  const show = (value) => (value === null ? '-' : value.toFixed(3));
  const { rows, misses } = judge(totals);
  console.log(
    `check:a11y: ${files.length} emails, axe-core ${axeVersion} in ${await chromiumVersion()}, ${blocked} network requests blocked or answered with the stand-in image`,
  );
  console.log(
    'FN includes axe violations without a source position ("unmapped"); "review" is axe\'s incomplete (needs review) elements, decided by neither side.',
  );
  console.log(
    `${'engine rule'.padEnd(28)}${'axe reference'.padEnd(24)}${'TP'.padStart(6)}${'FP'.padStart(6)}${'FN'.padStart(6)}${'unmapped'.padStart(10)}${'review'.padStart(8)}${'prec.'.padStart(8)}${'recall'.padStart(8)}  notes`,
  );
  for (const rule of MAPPED) {
    const c = totals.get(rule.engine);
    const { precision, recall } = rows.find((row) => row.rule === rule.engine);
    const notes = [rule.document ? 'per email' : 'per element'];
    if (c.reportedOnReview) notes.push(`engine reports ${c.reportedOnReview} of the review elements`);
    if (c.exempt) notes.push(`${c.exempt} images painted ≤ 1 px or not at all, not reported (documented)`);
    console.log(
      `${rule.engine.padEnd(28)}${rule.axe.padEnd(24)}${String(c.tp).padStart(6)}${String(c.fp).padStart(6)}${String(c.fn).padStart(6)}${String(c.unmapped).padStart(10)}${String(c.review).padStart(8)}${show(precision).padStart(8)}${show(recall).padStart(8)}  ${notes.join('; ')}`,
    );
  }
  if (verbose) for (const line of differences) console.log(`  ${line}`);
  else if (differences.length) console.log(`${differences.length} differences (--verbose lists them)`);
  console.log(`Target (precision and recall ≥ ${TARGET} for every rule with a case): ${misses.length === 0 ? 'met' : `NOT met: ${misses.join('; ')}`}`);
  process.exitCode = misses.length === 0 ? 0 : 1;
}

async function chromiumVersion() {
  try {
    return require('node:child_process')
      .execFileSync(process.env.CHROMIUM_PATH || '/usr/bin/chromium', ['--version'], { encoding: 'utf8' })
      .trim();
  } catch {
    return 'Chromium';
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
