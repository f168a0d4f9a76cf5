#!/usr/bin/env node
/**
 * Runs every HTML file of the shared corpus (../shared/corpus/html by default, or the folder given as the
 * first argument) through the quality reports and checks that none throws. Prints, per file, the median
 * time of `analyzeEmail` (the core analysis), of `buildReports` on its own parse, of `buildReports` reusing
 * the analysis parse, and of `buildDarkContrast` over the 21 dark variants; then the medians and the
 * reports' cost as a share of the core analysis (budget: 30%). Exits 1 when a report throws.
 * The engine's TypeScript is bundled on the fly with esbuild (packages stay external).
 */
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const { buildSync } = require('esbuild');

const root = path.resolve(__dirname, '..');
const corpusDir = path.resolve(process.argv[2] || path.join(root, '..', 'shared', 'corpus', 'html'));
const iterations = Number(process.env.CHECK_ITERATIONS || 5);

if (!fs.existsSync(corpusDir)) {
  console.log(`check-reports-corpus: no corpus at ${corpusDir}; nothing to check.`);
  process.exit(0);
}

const entry = path.join(root, 'node_modules', '.cache', 'check-reports', `entry-${process.pid}.ts`);
const outfile = path.join(root, 'node_modules', '.cache', 'check-reports', `bundle-${process.pid}.cjs`);
fs.mkdirSync(path.dirname(entry), { recursive: true });
fs.writeFileSync(
  entry,
  `export { analyzeEmail, parseEmail as parseForAnalysis, analyzeParsedEmail } from ${JSON.stringify(path.join(root, 'libs/engine/src'))};\n` +
    `export { buildReports, buildDarkContrast, REPORT_CLIENT_IDS } from ${JSON.stringify(path.join(root, 'libs/engine/src/reports'))};\n`,
);
buildSync({ entryPoints: [entry], bundle: true, platform: 'node', format: 'cjs', target: 'node20', packages: 'external', outfile, logLevel: 'warning' });
const engine = require(outfile);
fs.rmSync(entry, { force: true });
fs.rmSync(outfile, { force: true });

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}
function time(fn) {
  fn();
  const samples = [];
  for (let i = 0; i < iterations; i++) {
    const start = process.hrtime.bigint();
    fn();
    samples.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  return median(samples);
}

const clients = [...engine.REPORT_CLIENT_IDS];
const files = fs.readdirSync(corpusDir).filter((file) => file.endsWith('.html')).sort();
const rows = [];
let failures = 0;
for (const file of files) {
  const html = fs.readFileSync(path.join(corpusDir, file), 'utf8');
  const row = { file };
  try {
    let analysis;
    row.core = time(() => {
      analysis = engine.analyzeEmail(html, { format: 'html' });
    });
    row.reports = time(() => engine.buildReports(html, { format: 'html', clients }));
    const parsed = engine.parseForAnalysis(html);
    row.shared = time(() => engine.buildReports(html, { format: 'html', clients, parsedDocument: parsed.document }));
    const darkHtml = Object.fromEntries(Object.entries(analysis.darkMode).map(([id, result]) => [id, result.html]));
    row.dark = time(() => engine.buildDarkContrast(darkHtml));
    const reports = engine.buildReports(html, { format: 'html', clients });
    row.summary = `spam ${reports.spamReport.score} a11y ${reports.accessibilityReport.score} links ${reports.linkReport.total}/${reports.linkReport.broken} tags ${reports.templateReport.unresolvedCount} vml ${reports.vmlReport ? reports.vmlReport.issues.length : '-'} dark ${engine.buildDarkContrast(darkHtml).total}`;
  } catch (error) {
    failures++;
    row.error = error && error.stack ? error.stack.split('\n').slice(0, 3).join(' | ') : String(error);
  }
  rows.push(row);
}

const pad = (text, width) => String(text).padEnd(width);
const ms = (value) => (value === undefined ? '-' : value.toFixed(1));
console.log(`${pad('file', 58)} ${pad('core', 7)} ${pad('reports', 8)} ${pad('shared', 7)} ${pad('dark', 6)} summary`);
for (const row of rows) {
  console.log(`${pad(row.file, 58)} ${pad(ms(row.core), 7)} ${pad(ms(row.reports), 8)} ${pad(ms(row.shared), 7)} ${pad(ms(row.dark), 6)} ${row.error ? `ERROR ${row.error}` : row.summary}`);
}
const ok = rows.filter((row) => !row.error);
if (ok.length > 0) {
  const core = median(ok.map((row) => row.core));
  const reports = median(ok.map((row) => row.reports));
  const shared = median(ok.map((row) => row.shared));
  const dark = median(ok.map((row) => row.dark));
  const ratio = median(ok.map((row) => row.shared / row.core));
  const sum = (key) => ok.reduce((total, row) => total + row[key], 0);
  console.log(`\n${ok.length} files, medians: core ${core.toFixed(2)} ms, buildReports ${reports.toFixed(2)} ms (own parse), ${shared.toFixed(2)} ms (shared parse), buildDarkContrast ${dark.toFixed(2)} ms`);
  console.log(`reports / core: median per file ${(ratio * 100).toFixed(0)}%, over the corpus ${((sum('shared') / sum('core')) * 100).toFixed(0)}% (shared parse), ${(((sum('shared') + sum('dark')) / sum('core')) * 100).toFixed(0)}% with dark contrast`);
}
if (failures > 0) {
  console.error(`${failures} file(s) made a report throw.`);
  process.exit(1);
}
