#!/usr/bin/env node
// node scripts/check-engine-output.js [checkout ...] — the fingerprint of the engine's output: the JSON of
// `analyzeEmail` (full analysis) for every corpus email, each analyzed twice in a row so that memoized second
// answers are compared too, hashed with SHA-256. Prints one hash per checkout (default: this one) and a line per
// email whose output differs between the checkouts given. A speed change to libs/engine must leave the hash
// unchanged. Reads ../shared/corpus/html (BENCH_CORPUS_DIR overrides); bundles each checkout's engine with esbuild.
'use strict';
const path = require('node:path');
const fs = require('node:fs');
const { createHash } = require('node:crypto');
const { bundleForNode } = require('./lib/node-bundle');

const root = path.resolve(__dirname, '..');
const corpusDir = process.env.BENCH_CORPUS_DIR || path.resolve(root, '..', 'shared', 'corpus', 'html');
if (!fs.existsSync(corpusDir)) {
  console.log(`check-engine-output: no corpus at ${corpusDir}; nothing to check.`);
  process.exit(0);
}
const files = fs
  .readdirSync(corpusDir)
  .filter((f) => f.endsWith('.html'))
  .sort();
const checkouts = process.argv.slice(2).map((dir) => path.resolve(dir));
if (checkouts.length === 0) checkouts.push(root);

function bundle(checkout, index) {
  const entry = { contents: "export { analyzeEmail } from './libs/engine/src';", resolveDir: checkout, loader: 'ts' };
  return bundleForNode('check-engine-output', { stdin: entry }, String(index));
}

const digest = (text) => createHash('sha256').update(text).digest('hex');
const results = checkouts.map((checkout, index) => {
  const { analyzeEmail } = require(bundle(checkout, index));
  const perFile = files.map((file) => {
    const html = fs.readFileSync(path.join(corpusDir, file), 'utf8');
    const run = () => {
      try {
        return JSON.stringify(analyzeEmail(html, { format: 'html' }));
      } catch (error) {
        return `error: ${error && error.message}`;
      }
    };
    return digest(`${run()}\n${run()}`);
  });
  const total = digest(perFile.join('\n'));
  console.log(`${total}  ${checkout} (${files.length} emails, twice each)`);
  return perFile;
});
let differing = 0;
for (let k = 1; k < results.length; k++) {
  files.forEach((file, i) => {
    if (results[k][i] !== results[0][i]) {
      differing++;
      console.log(`differs: ${file} (${checkouts[0]} vs ${checkouts[k]})`);
    }
  });
}
if (differing > 0) process.exitCode = 1;
