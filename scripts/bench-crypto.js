#!/usr/bin/env node
// npm run bench:crypto — what encryption at rest adds to one preview (docs/privacy.md, docs/benchmarks.md
// "Encryption"). Per HTML email of ../shared/corpus/html (BENCH_CORPUS_DIR overrides; without a corpus, the
// project's test fixtures), the stored result is made as the worker makes it (analyzeEmail, then
// encodePreviewResult: Brotli JSON), then one preview's encryption work is timed through RowCipher, as the
// repositories call it: seal the source on POST (Brotli quality 1, AES-256-GCM, base64), open it in the worker,
// seal the result when the worker stores it, open the result when it is read once. The data key comes from a
// cache, as in a running app (a cache miss adds one indexed query per account and process, not per preview).
// Target: encryption adds at most 0.2 ms to a preview's median (docs/privacy.md, "Cost"). Each email's figure is the median over
// BENCH_ITERATIONS (200) repetitions after BENCH_WARMUP (200); the figure printed is the median over emails.
// Screenshots (issue 39): what sealing one PNG adds when the render worker stores it (its keyed name, HMAC-SHA256 under
// a key derived from the data key, then AES-256-GCM) and when the API serves it (open). PNGs do not compress, so
// random bytes of a screenshot's sizes stand in for them (BENCH_SCREENSHOT_SIZES_KB, default 100,500,2000,8000: an
// email's screenshot is a few hundred KB to 2 MB; 8 MB is near the tallest capture SCREENSHOT_MAX_HEIGHT_PX allows).
// The engine's and the cipher's TypeScript is bundled on the fly with esbuild.
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const { randomBytes, randomUUID } = require('node:crypto');

const root = path.resolve(__dirname, '..');
const corpusDir = process.env.BENCH_CORPUS_DIR || path.resolve(root, '..', 'shared', 'corpus', 'html');
const fallbackDir = path.join(root, 'test', 'fixtures', 'cli');
const iterations = Number(process.env.BENCH_ITERATIONS || 200);
const warmUp = Number(process.env.BENCH_WARMUP || 200);
const TARGET_MS = 0.2;

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

function bundle() {
  const { buildSync } = require('esbuild');
  const outfile = path.join(root, 'node_modules', '.cache', 'bench-crypto', `bench-${process.pid}.cjs`);
  buildSync({
    stdin: {
      contents: [
        "export { analyzeEmail } from './libs/engine/src';",
        "export { encodePreviewResult } from './libs/persistence/src/preview-result.codec';",
        "export { RowCipher } from './libs/persistence/src/encryption/row-cipher';",
      ].join('\n'),
      resolveDir: root,
      loader: 'ts',
      sourcefile: 'bench-crypto-entry.ts',
    },
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    packages: 'external',
    tsconfigRaw: { compilerOptions: { experimentalDecorators: true } },
    outfile,
    logLevel: 'warning',
  });
  process.on('exit', () => fs.rmSync(outfile, { force: true }));
  return require(outfile);
}

function emails() {
  const dir = fs.existsSync(corpusDir) ? corpusDir : fallbackDir;
  const files = fs
    .readdirSync(dir)
    .filter((file) => file.endsWith('.html'))
    .sort();
  return { dir, sources: files.map((file) => fs.readFileSync(path.join(dir, file), 'utf8')) };
}

async function main() {
  const { analyzeEmail, encodePreviewResult, RowCipher } = bundle();
  const dataKey = { id: randomUUID(), key: randomBytes(32) };
  // The repositories' cipher over a data-key cache that always hits (DataKeyRepository's steady state).
  const cipher = new RowCipher({ keyFor: async () => dataKey, keyById: async () => dataKey });
  const { dir, sources } = emails();
  const previews = sources.map((source, i) => {
    const id = `prv_bench${String(i).padStart(19, '0')}`;
    return {
      source,
      stored: encodePreviewResult(id, analyzeEmail(source, { format: 'html' })),
      context: (column) => ({ table: 'previews', column, rowId: id, accountId: dataKey.id }),
    };
  });
  const steps = {
    'seal source': (p) => cipher.sealText(p.context('source'), p.source),
    'open source': (p) => cipher.openText(p.context('source'), p.sealedSource),
    'seal result': (p) => cipher.sealBytes(p.context('result'), p.stored),
    'open result': (p) => cipher.openBytes(p.context('result'), p.sealedResult),
  };
  for (const p of previews) {
    p.sealedSource = await steps['seal source'](p);
    p.sealedResult = await steps['seal result'](p);
    if ((await steps['open source'](p)) !== p.source || !(await steps['open result'](p)).equals(p.stored)) throw new Error('round trip failed');
  }
  const perEmail = { total: [], ...Object.fromEntries(Object.keys(steps).map((name) => [name, []])) };
  for (const p of previews) {
    for (let k = 0; k < warmUp; k++) for (const step of Object.values(steps)) await step(p);
    const samples = { total: [], ...Object.fromEntries(Object.keys(steps).map((name) => [name, []])) };
    for (let k = 0; k < iterations; k++) {
      let total = 0;
      for (const [name, step] of Object.entries(steps)) {
        const start = process.hrtime.bigint();
        await step(p);
        const ms = Number(process.hrtime.bigint() - start) / 1e6;
        samples[name].push(ms);
        total += ms;
      }
      samples.total.push(total);
    }
    for (const name of Object.keys(samples)) perEmail[name].push(median(samples[name]));
  }
  const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;
  console.log(
    `bench:crypto: ${previews.length} emails of ${path.relative(root, dir)}, ${iterations} repetitions each after ${warmUp}; node ${process.version}`,
  );
  console.log(
    `  median source ${kb(median(previews.map((p) => Buffer.byteLength(p.source))))}, stored result ${kb(median(previews.map((p) => p.stored.length)))} (Brotli), sealed source ${kb(median(previews.map((p) => p.sealedSource.length)))} (Brotli + base64)`,
  );
  for (const name of Object.keys(steps))
    console.log(`  ${name.padEnd(12)} median ${median(perEmail[name]).toFixed(4)} ms, largest email ${Math.max(...perEmail[name]).toFixed(4)} ms`);
  const added = median(perEmail.total);
  console.log(`  added per preview: median ${added.toFixed(3)} ms (target <= ${TARGET_MS} ms), largest email ${Math.max(...perEmail.total).toFixed(3)} ms`);
  await screenshots(cipher, dataKey);
  if (added > TARGET_MS) process.exitCode = 1;
}

/** Per screenshot size: name it (keyed hash) and seal it as the render worker stores it, open it as the API serves it. */
async function screenshots(cipher, dataKey) {
  const sizesKb = (process.env.BENCH_SCREENSHOT_SIZES_KB || '100,500,2000,8000').split(',').map(Number);
  const rounds = Math.max(20, Math.round(iterations / 4));
  console.log(`  screenshots (random bytes standing in for PNGs), median of ${rounds} after ${Math.round(rounds / 2)}:`);
  for (const kb of sizesKb) {
    const png = randomBytes(kb * 1024);
    const hash = await cipher.keyedHash(dataKey.id, 'screenshot-name', png);
    const context = { table: 'screenshot_images', column: 'png', rowId: hash, accountId: dataKey.id };
    const sealed = await cipher.sealBytes(context, png);
    if (!(await cipher.openBytes(context, sealed)).equals(png)) throw new Error('screenshot round trip failed');
    const time = async (work) => {
      const samples = [];
      for (let k = 0; k < rounds + Math.round(rounds / 2); k++) {
        const start = process.hrtime.bigint();
        await work();
        if (k >= Math.round(rounds / 2)) samples.push(Number(process.hrtime.bigint() - start) / 1e6);
      }
      return median(samples);
    };
    const store = await time(async () => cipher.sealBytes(context, png).then(() => cipher.keyedHash(dataKey.id, 'screenshot-name', png)));
    const serve = await time(() => cipher.openBytes(context, sealed));
    console.log(
      `    ${String(kb).padStart(5)} KB: store (name + seal) ${store.toFixed(3)} ms, serve (open) ${serve.toFixed(3)} ms, ${((store / kb) * 1024).toFixed(2)} ms per MB stored; +${sealed.length - png.length} bytes`,
    );
  }
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
