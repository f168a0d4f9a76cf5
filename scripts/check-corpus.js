#!/usr/bin/env node
/**
 * Compiles every file of the shared corpus (../shared/corpus by default, or the folder given as the
 * first argument) with @mailproof/sandbox and checks that each one compiles, or fails with a
 * CompileError, within 2 s (CHECK_CORPUS_LIMIT_MS). Prints a row per file and a summary per format; exits 1 on any violation.
 * Runs the TypeScript sources directly (esbuild transform on require), so no build step is needed.
 *
 * Each template is compiled twice: alone, and with its local imports. MANIFEST.tsv says where each
 * corpus file sat in its source repository; the files of one repository are laid out at those paths
 * in a temporary folder (deleted at the end), and the CLI's own reader (apps/cli local-imports.ts)
 * collects what each template imports from there, as `mailproof analyze` does in a real project.
 */
const fs = require('node:fs');
const path = require('node:path');
const { installTypeScriptLoader, ROOT: root } = require('./lib/ts-require');
const { layOutProjects } = require('./lib/corpus-projects');

const corpusDir = path.resolve(process.argv[2] || path.join(root, '..', 'shared', 'corpus'));
// The budget per compile (CHECK_CORPUS_LIMIT_MS, 2 s by default): a compile that takes longer is a violation.
const LIMIT_MS = Number(process.env.CHECK_CORPUS_LIMIT_MS) || 2000;
// The sandbox's own time limit, kept under LIMIT_MS (85% of it unless CHECK_CORPUS_SANDBOX_TIMEOUT_MS says
// otherwise) so a runaway template is stopped in time.
const SANDBOX_TIMEOUT_MS = Number(process.env.CHECK_CORPUS_SANDBOX_TIMEOUT_MS) || Math.round(LIMIT_MS * 0.85);
const FORMATS = { html: 'html', jsx: 'jsx', mjml: 'mjml', maizzle: 'maizzle' };

installTypeScriptLoader();

async function main() {
  if (!fs.existsSync(corpusDir)) {
    console.error(`corpus folder not found: ${corpusDir}`);
    process.exit(2);
  }
  const { compileEmail, disposeCompilers, warmCompilers, CompileError } = require(path.join(root, 'libs/sandbox/src/index.ts'));
  const projects = layOutProjects(corpusDir);
  const warmStart = Date.now();
  await warmCompilers();
  console.log(`warm-up (snapshots + compile worker): ${Date.now() - warmStart} ms`);
  const summary = {};
  const violations = [];
  for (const folder of Object.keys(FORMATS)) {
    const dir = path.join(corpusDir, folder);
    if (!fs.existsSync(dir)) continue;
    const stats = (summary[folder] = { files: 0, compiled: 0, compileErrors: 0, withImports: 0, importedFiles: 0, times: [] });
    for (const file of fs.readdirSync(dir).sort()) {
      const source = fs.readFileSync(path.join(dir, file), 'utf8');
      const compileOnce = async (label, files) => {
        const started = process.hrtime.bigint();
        let outcome;
        let ok = false;
        try {
          const result = await compileEmail(source, FORMATS[folder], { timeoutMs: SANDBOX_TIMEOUT_MS, files });
          outcome = `ok (${result.html.length} chars, ${result.warnings.length} warnings)`;
          ok = true;
        } catch (error) {
          if (error instanceof CompileError) {
            outcome = `CompileError${error.line ? ` line ${error.line}` : ''}: ${error.message.slice(0, 110)}`;
          } else {
            outcome = `NOT A CompileError: ${error && error.message}`;
            violations.push(`${label}: ${outcome}`);
          }
        }
        const ms = Number(process.hrtime.bigint() - started) / 1e6;
        if (ms > LIMIT_MS) violations.push(`${label}: took ${ms.toFixed(0)} ms (limit ${LIMIT_MS})`);
        console.log(`${label}\t${ms.toFixed(1)} ms\t${outcome}`);
        return { ok, ms };
      };
      const alone = await compileOnce(`${folder}/${file}`);
      stats.files++;
      stats.times.push(alone.ms);
      if (alone.ok) stats.compiled++;
      else stats.compileErrors++;
      const files = await projects.importsOf(`${folder}/${file}`, source, FORMATS[folder]);
      const count = Object.keys(files).length;
      stats.importedFiles += count;
      if (count === 0) {
        if (alone.ok) stats.withImports++;
        continue;
      }
      const withImports = await compileOnce(`${folder}/${file} + ${count} imported file${count === 1 ? '' : 's'} (${Object.keys(files).join(', ')})`, files);
      if (withImports.ok) stats.withImports++;
    }
  }
  console.log('\nformat\tfiles\tcompiled\tCompileError\twith imports\timports found\tmedian ms\tmax ms');
  for (const [folder, stats] of Object.entries(summary)) {
    const sorted = [...stats.times].sort((a, b) => a - b);
    const median = sorted.length ? sorted[Math.floor((sorted.length - 1) / 2)] : 0;
    const max = sorted.length ? sorted[sorted.length - 1] : 0;
    console.log(
      `${folder}\t${stats.files}\t${stats.compiled}\t${stats.compileErrors}\t${stats.withImports}\t${stats.importedFiles}\t${median.toFixed(1)}\t${max.toFixed(1)}`,
    );
  }
  const totals = Object.values(summary).reduce(
    (sum, stats) => ({ files: sum.files + stats.files, alone: sum.alone + stats.compiled, withImports: sum.withImports + stats.withImports }),
    { files: 0, alone: 0, withImports: 0 },
  );
  console.log(`\ncompiled: ${totals.alone} of ${totals.files} alone, ${totals.withImports} of ${totals.files} with their imports from the corpus`);
  projects.dispose();
  await disposeCompilers();
  if (violations.length) {
    console.error(`\n${violations.length} violation(s):\n${violations.join('\n')}`);
    process.exit(1);
  }
  console.log(`\nevery corpus file compiled or failed with a CompileError within ${LIMIT_MS} ms`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
