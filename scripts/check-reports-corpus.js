#!/usr/bin/env node
/**
 * Runs every HTML file of the shared corpus (../shared/corpus/html by default, or the folder given as the
 * first argument) through `analyzeEmail` with every quality report and checks that none throws and that
 * every static report is filled. Prints a one-line summary per file (spam score, accessibility score,
 * links total/broken, unresolved tags, VML issues, dark-contrast issues). Exits 1 on a failure.
 * Timing lives in `npm run bench:engine`. The engine's TypeScript is bundled on the fly with esbuild.
 */
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const { buildSync } = require('esbuild');

const root = path.resolve(__dirname, '..');
const corpusDir = path.resolve(process.argv[2] || path.join(root, '..', 'shared', 'corpus', 'html'));

if (!fs.existsSync(corpusDir)) {
  console.log(`check-reports-corpus: no corpus at ${corpusDir}; nothing to check.`);
  process.exit(0);
}

const outfile = path.join(root, 'node_modules', '.cache', 'check-reports', `bundle-${process.pid}.cjs`);
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

const FILLED = [
  'spamReport',
  'sizeReport',
  'linkReport',
  'accessibilityReport',
  'imageReport',
  'inboxPreview',
  'templateReport',
  'designReport',
  'plainText',
  'darkContrast',
];
const files = fs
  .readdirSync(corpusDir)
  .filter((file) => file.endsWith('.html'))
  .sort();
let failures = 0;
for (const file of files) {
  const html = fs.readFileSync(path.join(corpusDir, file), 'utf8');
  let line;
  try {
    const a = engine.analyzeEmail(html, { format: 'html' });
    const missing = FILLED.filter((key) => a[key] === null || typeof a[key] !== 'object');
    if (missing.length > 0) throw new Error(`reports missing: ${missing.join(', ')}`);
    line = `spam ${a.spamReport.score} a11y ${a.accessibilityReport.score} links ${a.linkReport.total}/${a.linkReport.broken} tags ${a.templateReport.unresolvedCount} vml ${a.vmlReport ? a.vmlReport.issues.length : '-'} dark ${a.darkContrast.total} text ${a.plainText.length}`;
  } catch (error) {
    failures++;
    line = `ERROR ${error && error.stack ? error.stack.split('\n').slice(0, 3).join(' | ') : String(error)}`;
  }
  console.log(`${file.padEnd(58)} ${line}`);
}
console.log(`\n${files.length} files, ${failures} failure(s).`);
if (failures > 0) process.exit(1);
