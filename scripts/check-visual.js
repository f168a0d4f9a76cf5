#!/usr/bin/env node
// npm run check:visual: the gate's visual check on real emails and on the hand-made pairs (docs/accuracy.md,
// "The visual check"), through the real service (built api, worker-preview and worker-render; PostgreSQL,
// Redis, BullMQ, Chromium).
//
// 1. The hand-made pairs (test/fixtures/visual-pairs/<name>/: v1.html, v2.html, pair.json): each v1 is gated
//    with `visual` under a ref of its own (it becomes the baseline), then its v2 (read-only). For a pair that
//    breaks one client: does a failure name that client, and a region over the broken element (an element of
//    the region whose selector has the pair's marker class, or whose source line is the broken element's)?
//    For a pair that changes only text: is there no visual failure at all? Printed per pair and per half:
//    the halves are fixed by the SHA-256 of the pair's name (first byte even: development, odd: held out), so
//    the default threshold is chosen on the development half alone; the held-out half only reports.
//    Then the sweep: the same measurements through the engine's `visualCheck` at other thresholds and
//    reference-change limits, development half only, which is how the defaults were chosen.
// 2. ../shared/corpus/html (CHECK_VISUAL_CORPUS, when present): a sample of CHECK_VISUAL_CORPUS_LIMIT emails (12,
//    the first by name) within CHECK_VISUAL_SECONDS (300) in all; per email the clients in divergence order
//    (light scheme, most divergent first).
// CHECK_VISUAL_ONLY=pairs|corpus runs one part. Exit 1 when a pair's expectation fails at the default threshold.
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const { createHash } = require('node:crypto');
const tasks = require('./lib/tasks');
const { startVisualService, gateVisual, measured, engine } = require('./lib/gate-visual-service');

const PAIRS_DIR = path.join(tasks.ROOT, 'test', 'fixtures', 'visual-pairs');
const CORPUS_DIR = process.env.CHECK_VISUAL_CORPUS || path.join(tasks.ROOT, '..', 'shared', 'corpus', 'html');
const CORPUS_LIMIT = Number(process.env.CHECK_VISUAL_CORPUS_LIMIT || 12);
const CORPUS_SECONDS = Number(process.env.CHECK_VISUAL_SECONDS || 300);
const SWEEP_THRESHOLDS = [1, 2, 3, 5, 8, 10, 15, 20, 30];
const SWEEP_REFERENCE = [5, 10, 25, 50, 100];

/** Development or held out, from the name alone (fixed before any result is seen). */
function half(name) {
  return createHash('sha256').update(name).digest()[0] % 2 === 0 ? 'dev' : 'held-out';
}

function loadPairs() {
  return fs
    .readdirSync(PAIRS_DIR, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => {
      const dir = path.join(PAIRS_DIR, entry.name);
      const meta = JSON.parse(fs.readFileSync(path.join(dir, 'pair.json'), 'utf8'));
      return {
        name: entry.name,
        half: half(entry.name),
        dir,
        v1: fs.readFileSync(path.join(dir, 'v1.html'), 'utf8'),
        v2: fs.readFileSync(path.join(dir, 'v2.html'), 'utf8'),
        ...meta,
      };
    })
    .sort((a, b) => a.name.localeCompare(b.name));
}

/** The source lines of the broken element in v2: from the line with its marker class; the whole rest of the email for a wrapper. */
function brokenLines(pair) {
  const lines = pair.v2.split('\n');
  const first = lines.findIndex((line) => line.includes(`class="${pair.marker}"`)) + 1;
  if (first === 0) return null;
  return { from: first, to: pair.marker.startsWith('wrapper') ? lines.length : first + 3 };
}

function regionHitsMarker(region, pair, span) {
  return region.elements.some(
    (element) => element.selector.includes(pair.marker) || (span !== null && element.line !== null && element.line >= span.from && element.line <= span.to),
  );
}

/** How a pair's expectation came out for a list of visual failures. */
function judge(pair, failures) {
  const visual = failures.filter((failure) => failure.family === 'visual');
  if (pair.kind === 'text') return { ok: visual.length === 0, client: null, region: null, flagged: visual.map((f) => `${f.clientId}/${f.scheme}`) };
  const span = brokenLines(pair);
  const ofClient = visual.filter((failure) => failure.clientId === pair.client);
  const region = ofClient.some((failure) => failure.regions.some((r) => regionHitsMarker(r, pair, span)));
  return { ok: ofClient.length > 0 && region, client: ofClient.length > 0, region, flagged: visual.map((f) => `${f.clientId}/${f.scheme}`) };
}

async function runPairs(service) {
  const { CLIENT_IDS } = engine();
  const pairs = loadPairs();
  const results = [];
  console.log(
    `\n## Hand-made pairs (${pairs.length}: ${pairs.filter((p) => p.kind === 'broken').length} broken for one client, ${pairs.filter((p) => p.kind === 'text').length} text only)\n`,
  );
  for (const pair of pairs) {
    const ref = `check-visual/${pair.name}/${process.pid}`;
    const first = await gateVisual(service, { html: pair.v1, ref, updateBaseline: 'always' });
    const second = await gateVisual(service, { html: pair.v2, ref, updateBaseline: 'never' });
    const [before, after] = await Promise.all([measured(service, first.verdict.previewId), measured(service, second.verdict.previewId)]);
    const outcome = judge(pair, second.verdict.failures);
    results.push({ pair, before, after, outcome, gateMs: [first.ms, second.ms] });
    const expect = pair.kind === 'text' ? 'no visual failure' : `${pair.client} and the ${pair.marker} region`;
    const detail =
      pair.kind === 'text'
        ? outcome.flagged.length === 0
          ? 'nothing raised'
          : `raised ${outcome.flagged.join(', ')}`
        : `client ${outcome.client ? 'found' : 'MISSED'}, region ${outcome.region ? 'found' : 'MISSED'}; failures: ${outcome.flagged.join(', ') || 'none'}`;
    const target = pair.client ? after.divergence[pair.client]?.light : null;
    const was = pair.client ? before.divergence[pair.client]?.light : null;
    const scores = target && was ? ` (${pair.client} light ${was.score} -> ${target.score})` : '';
    console.log(`${outcome.ok ? 'PASS' : 'FAIL'} [${pair.half}] ${pair.name}: expected ${expect}: ${detail}${scores}`);
  }
  const verdictFor = (list) => `${list.filter((r) => r.outcome.ok).length}/${list.length}`;
  console.log('\nAt the default threshold, through the gate:');
  for (const which of ['dev', 'held-out']) {
    const inHalf = results.filter((r) => r.pair.half === which);
    const broken = inHalf.filter((r) => r.pair.kind === 'broken');
    const text = inHalf.filter((r) => r.pair.kind === 'text');
    console.log(
      `  ${which.padEnd(8)}: broken pairs found (client and region) ${verdictFor(broken)} (client alone ${broken.filter((r) => r.outcome.client).length}/${broken.length}), text-only pairs silent ${verdictFor(text)}`,
    );
  }
  sweep(
    results.filter((r) => r.pair.half === 'dev'),
    CLIENT_IDS,
  );
  return results.every((r) => r.outcome.ok);
}

/** The development half through `visualCheck` at other settings: what the defaults were chosen from. */
function sweep(dev, clients) {
  const { visualCheck } = engine();
  console.log('\nSweep on the development half (engine visualCheck over the same measurements; found = client and region / silent text pairs):');
  console.log(`  threshold \\ max reference change: ${SWEEP_REFERENCE.map((r) => `${r}%`.padStart(10)).join('')}`);
  for (const threshold of SWEEP_THRESHOLDS) {
    const cells = SWEEP_REFERENCE.map((maxReferenceChange) => {
      let found = 0;
      let silent = 0;
      for (const r of dev) {
        const { failures } = visualCheck(r.after, r.before, { clients, threshold, maxReferenceChange });
        if (!judge(r.pair, failures).ok) continue;
        if (r.pair.kind === 'broken') found++;
        else silent++;
      }
      return `${found}+${silent}`.padStart(10);
    });
    console.log(`  ${String(threshold).padStart(9)}                        ${cells.join('')}`);
  }
  const broken = dev.filter((r) => r.pair.kind === 'broken').length;
  console.log(`  (of ${broken} broken and ${dev.length - broken} text-only pairs)`);
  const growth = (r) => {
    const client = r.pair.client;
    return client ? (r.after.divergence[client]?.light?.score ?? NaN) - (r.before.divergence[client]?.light?.score ?? NaN) : NaN;
  };
  const { referenceChange } = engine();
  for (const r of dev) {
    const key = r.pair.client ? engine().referenceKeyFor(r.pair.client, 'light') : 'wide-light';
    const change = r.before.reference[key] && r.after.reference[key] ? referenceChange(r.before.reference[key], r.after.reference[key]) : null;
    let maxOther = 0;
    for (const clientId of clients) {
      if (clientId === r.pair.client) continue;
      for (const scheme of ['light', 'dark']) {
        const a = r.before.divergence[clientId]?.[scheme]?.score;
        const b = r.after.divergence[clientId]?.[scheme]?.score;
        if (a !== undefined && b !== undefined) maxOther = Math.max(maxOther, b - a);
      }
    }
    const target = r.pair.kind === 'broken' ? `target growth ${growth(r).toFixed(2)}, ` : '';
    console.log(`    ${r.pair.name}: ${target}largest growth of another client ${maxOther.toFixed(2)}, reference change ${change ?? 'n/a'}%`);
  }
}

async function runCorpus(service) {
  if (!fs.existsSync(CORPUS_DIR)) {
    console.log(`\n## Corpus: ${CORPUS_DIR} is absent, skipped`);
    return;
  }
  const files = fs
    .readdirSync(CORPUS_DIR)
    .filter((file) => /\.html?$/.test(file))
    .sort();
  const sample = files.slice(0, CORPUS_LIMIT);
  console.log(
    `\n## Corpus: ${sample.length} of ${files.length} emails of ${path.relative(tasks.ROOT, CORPUS_DIR)} (the first by name), at most ${CORPUS_SECONDS} s\n`,
  );
  const until = Date.now() + CORPUS_SECONDS * 1000;
  let done = 0;
  for (const file of sample) {
    if (Date.now() > until) {
      console.log(`(time limit: ${sample.length - done} emails left out)`);
      break;
    }
    const html = fs.readFileSync(path.join(CORPUS_DIR, file), 'utf8');
    try {
      const { verdict } = await gateVisual(service, { html, ref: `check-visual/corpus/${file}/${process.pid}`, updateBaseline: 'never' });
      const { divergence } = await measured(service, verdict.previewId);
      const order = Object.entries(divergence)
        .map(([clientId, schemes]) => [clientId, schemes.light?.score ?? null])
        .filter(([, score]) => score !== null)
        .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
      console.log(`${file}: ${order.length === 0 ? 'no divergence measured' : order.map(([clientId, score]) => `${clientId} ${score}`).join(' > ')}`);
    } catch (error) {
      console.log(`${file}: not measured (${error.message})`);
    }
    done++;
  }
}

async function main() {
  const only = process.env.CHECK_VISUAL_ONLY;
  const service = await startVisualService('check-visual');
  let ok = true;
  try {
    if (only !== 'corpus') ok = await runPairs(service);
    if (only !== 'pairs') await runCorpus(service);
  } finally {
    await service.stop();
  }
  process.exitCode = ok ? 0 : 1;
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 2;
});
