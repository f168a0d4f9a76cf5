#!/usr/bin/env node
/**
 * Compiles every file of the shared corpus (../shared/corpus by default, or the folder given as the
 * first argument) with @mailproof/sandbox and checks that each one compiles, or fails with a
 * CompileError, within 2 s. Prints a row per file and a summary per format; exits 1 on any violation.
 * Runs the TypeScript sources directly (esbuild transform on require), so no build step is needed.
 */
const fs = require('node:fs');
const path = require('node:path');
const { installTypeScriptLoader, ROOT: root } = require('./lib/ts-require');

const corpusDir = path.resolve(process.argv[2] || path.join(root, '..', 'shared', 'corpus'));
const LIMIT_MS = 2000;
// The sandbox's own time limit, kept under LIMIT_MS so a runaway template is stopped in time.
const SANDBOX_TIMEOUT_MS = 1700;
const FORMATS = { html: 'html', jsx: 'jsx', mjml: 'mjml', maizzle: 'maizzle' };

installTypeScriptLoader();

async function main() {
  if (!fs.existsSync(corpusDir)) {
    console.error(`corpus folder not found: ${corpusDir}`);
    process.exit(2);
  }
  const { compileEmail, disposeCompilers, warmCompilers, CompileError } = require(path.join(root, 'libs/sandbox/src/index.ts'));
  const warmStart = Date.now();
  await warmCompilers();
  console.log(`warm-up (snapshots + compile worker): ${Date.now() - warmStart} ms`);
  const summary = {};
  const violations = [];
  for (const folder of Object.keys(FORMATS)) {
    const dir = path.join(corpusDir, folder);
    if (!fs.existsSync(dir)) continue;
    const stats = (summary[folder] = { files: 0, compiled: 0, compileErrors: 0, times: [] });
    for (const file of fs.readdirSync(dir).sort()) {
      const source = fs.readFileSync(path.join(dir, file), 'utf8');
      const started = process.hrtime.bigint();
      let outcome;
      try {
        const result = await compileEmail(source, FORMATS[folder], { timeoutMs: SANDBOX_TIMEOUT_MS });
        outcome = `ok (${result.html.length} chars, ${result.warnings.length} warnings)`;
        stats.compiled++;
      } catch (error) {
        if (error instanceof CompileError) {
          outcome = `CompileError${error.line ? ` line ${error.line}` : ''}: ${error.message.slice(0, 110)}`;
          stats.compileErrors++;
        } else {
          outcome = `NOT A CompileError: ${error && error.message}`;
          violations.push(`${folder}/${file}: ${outcome}`);
        }
      }
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      stats.files++;
      stats.times.push(ms);
      if (ms > LIMIT_MS) violations.push(`${folder}/${file}: took ${ms.toFixed(0)} ms (limit ${LIMIT_MS})`);
      console.log(`${folder}/${file}\t${ms.toFixed(1)} ms\t${outcome}`);
    }
  }
  console.log('\nformat\tfiles\tcompiled\tCompileError\tmedian ms\tmax ms');
  for (const [folder, stats] of Object.entries(summary)) {
    const sorted = [...stats.times].sort((a, b) => a - b);
    const median = sorted.length ? sorted[Math.floor((sorted.length - 1) / 2)] : 0;
    const max = sorted.length ? sorted[sorted.length - 1] : 0;
    console.log(`${folder}\t${stats.files}\t${stats.compiled}\t${stats.compileErrors}\t${median.toFixed(1)}\t${max.toFixed(1)}`);
  }
  await disposeCompilers();
  if (violations.length) {
    console.error(`\n${violations.length} violation(s):\n${violations.join('\n')}`);
    process.exit(1);
  }
  console.log('\nevery corpus file compiled or failed with a CompileError within 2 s');
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
