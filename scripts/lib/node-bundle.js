// Bundles TypeScript for a plain-Node script to require: CommonJS for Node 20, npm packages left external
// (resolved from node_modules), written under node_modules/.cache/<cache>/ and removed when the process exits.
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const { buildSync } = require('esbuild');

const ROOT = path.resolve(__dirname, '..', '..');

/**
 * `source` is esbuild's input: `{ entryPoints: [file] }` or `{ stdin: { contents, resolveDir, loader } }`.
 * `tag` tells apart several bundles of one process. Returns the bundle's path.
 */
function bundleForNode(cache, source, tag = '') {
  const outfile = path.join(ROOT, 'node_modules', '.cache', cache, `engine-${process.pid}${tag ? `-${tag}` : ''}.cjs`);
  buildSync({ ...source, bundle: true, platform: 'node', format: 'cjs', target: 'node20', packages: 'external', outfile, logLevel: 'warning' });
  process.on('exit', () => fs.rmSync(outfile, { force: true }));
  return outfile;
}

module.exports = { bundleForNode };
