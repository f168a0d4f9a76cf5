#!/usr/bin/env node
// The build: every file of tsconfig.build.json transpiled one by one to dist/ with TypeScript's
// transpileModule (no type-check: `npm run typecheck` and `npm test` do that), the emit ts-jest gives the
// whole test suite (isolatedModules), decorator metadata included, which NestJS's dependency injection reads.
// Incremental: dist/.build-manifest.json keeps a hash of each source and of the settings, so only changed
// files are transpiled again, outputs of deleted sources are removed, and an unchanged tree costs one read
// of the sources. @mailproof/* aliases become relative paths, and imported JSON files are copied beside
// their importers, so plain `node` runs dist/. Needs only `typescript`, which is a dependency (an install
// without devDependencies builds). docs/operations.md, "Build".
'use strict';
const { createHash } = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');
const os = require('node:os');
const { Worker, isMainThread, parentPort, workerData } = require('node:worker_threads');

const ROOT = path.resolve(__dirname, '..', '..');
const DIST = path.join(ROOT, 'dist');
const MANIFEST = path.join(DIST, '.build-manifest.json');
const CONFIG = path.join(ROOT, 'tsconfig.build.json');
/** Below this many files to transpile, worker threads cost more (each loads TypeScript) than they save. */
const FILES_PER_EXTRA_THREAD = 60;

function loadTypeScript() {
  return require(require.resolve('typescript', { paths: [ROOT] }));
}

/** The compiler options and source files of tsconfig.build.json, as tsc would read them. */
function readBuildConfig(ts) {
  const { config, error } = ts.readConfigFile(CONFIG, ts.sys.readFile);
  if (error) throw new Error(ts.flattenDiagnosticMessageText(error.messageText, '\n'));
  const parsed = ts.parseJsonConfigFileContent(config, ts.sys, ROOT, undefined, CONFIG);
  if (parsed.errors.length > 0) throw new Error(parsed.errors.map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n')).join('\n'));
  return { options: parsed.options, files: parsed.fileNames.map((file) => path.resolve(file)) };
}

/** Alias prefix -> target directory, for the `paths` entries that point into this project (not node_modules). */
function projectAliases(options) {
  const aliases = [];
  for (const [pattern, targets] of Object.entries(options.paths ?? {})) {
    const target = path.resolve(options.pathsBasePath ?? ROOT, targets[0]);
    if (target.includes(`${path.sep}node_modules${path.sep}`) || target.endsWith(`${path.sep}node_modules`)) continue;
    aliases.push({ wildcard: pattern.endsWith('/*'), prefix: pattern.replace(/\/\*$/, ''), target: target.replace(/[/\\]\*$/, '') });
  }
  return aliases;
}

function outputPathFor(source) {
  return path.join(DIST, path.relative(ROOT, source)).replace(/\.tsx?$/, '.js');
}

function relativeSpecifier(fromFile, toPath) {
  const relative = path.relative(path.dirname(fromFile), toPath).split(path.sep).join('/');
  return relative.startsWith('.') ? relative : `./${relative}`;
}

/** `require("@mailproof/engine/x")` -> `require("../../libs/engine/src/x")` (in dist, relative to `outFile`). */
function rewriteAliases(code, outFile, aliases) {
  // TypeScript writes a static import as require("x") and a dynamic import() as require('x'): both are rewritten.
  return code.replace(/require\((["'])(@[^"']+)\1\)/g, (whole, quote, specifier) => {
    for (const alias of aliases) {
      const exact = specifier === alias.prefix && !alias.wildcard;
      const under = alias.wildcard && specifier.startsWith(`${alias.prefix}/`);
      if (!exact && !under) continue;
      const rest = under ? specifier.slice(alias.prefix.length + 1) : '';
      const targetInDist = path.join(DIST, path.relative(ROOT, alias.target), rest);
      return `require(${quote}${relativeSpecifier(outFile, targetInDist)}${quote})`;
    }
    return whole;
  });
}

/** Relative .json files the code requires (tsc emits them into dist too; `resolveJsonModule`). */
function requiredJsonFiles(code, source) {
  const files = [];
  for (const match of code.matchAll(/require\((["'])(\.{1,2}\/[^"']+\.json)\1\)/g)) files.push(path.resolve(path.dirname(source), match[2]));
  return files;
}

/** Transpiles one source; returns the output files to write (code, source map) and the JSON files it requires. */
function transpileFile(ts, source, options, aliases) {
  const outFile = outputPathFor(source);
  const result = ts.transpileModule(fs.readFileSync(source, 'utf8'), {
    fileName: source,
    compilerOptions: { ...options, outDir: undefined, rootDir: undefined, declaration: false, incremental: false, tsBuildInfoFile: undefined },
    reportDiagnostics: true,
  });
  const errors = (result.diagnostics ?? []).filter((d) => d.category === ts.DiagnosticCategory.Error);
  if (errors.length > 0) {
    throw new Error(`${path.relative(ROOT, source)}: ${errors.map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n')).join('; ')}`);
  }
  const mapName = `${path.basename(outFile)}.map`;
  const code = rewriteAliases(result.outputText, outFile, aliases).replace(/\/\/# sourceMappingURL=\S+\s*$/, `//# sourceMappingURL=${mapName}\n`);
  const writes = [{ file: outFile, text: code }];
  if (result.sourceMapText) {
    const map = JSON.parse(result.sourceMapText);
    map.file = path.basename(outFile);
    map.sources = [relativeSpecifier(outFile, source).replace(/^\.\//, '')];
    writes.push({ file: `${outFile}.map`, text: JSON.stringify(map) });
  }
  return { writes, json: requiredJsonFiles(result.outputText, source) };
}

function hashOf(text) {
  return createHash('sha256').update(text).digest('hex').slice(0, 32);
}

/** What every output depends on besides its own source: TypeScript's version, the options, this script. */
function settingsHash(ts, options) {
  return hashOf(JSON.stringify([ts.version, options, fs.readFileSync(__filename, 'utf8')]));
}

function readManifest() {
  try {
    return JSON.parse(fs.readFileSync(MANIFEST, 'utf8'));
  } catch {
    return { settings: null, files: {} };
  }
}

function writeOutputs({ writes, json }) {
  for (const { file, text } of writes) {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, text);
  }
  for (const source of json) {
    const target = path.join(DIST, path.relative(ROOT, source));
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.copyFileSync(source, target);
  }
}

/** Transpiles `sources` on up to one thread per core; resolves to the JSON files they require. */
async function transpileAll(sources, options, aliases) {
  const threads = Math.max(1, Math.min(os.availableParallelism(), Math.floor(sources.length / FILES_PER_EXTRA_THREAD)));
  if (threads === 1) {
    const ts = loadTypeScript();
    const json = [];
    for (const source of sources) {
      const output = transpileFile(ts, source, options, aliases);
      writeOutputs(output);
      json.push(...output.json);
    }
    return json;
  }
  const shares = Array.from({ length: threads }, (_, index) => sources.filter((_, i) => i % threads === index));
  const results = await Promise.all(
    shares.map(
      (share) =>
        new Promise((resolve, reject) => {
          const worker = new Worker(__filename, { workerData: { sources: share, options, aliases } });
          worker.once('message', (message) => (message.error ? reject(new Error(message.error)) : resolve(message.json)));
          worker.once('error', reject);
        }),
    ),
  );
  return results.flat();
}

/**
 * Brings dist/ up to date with the sources. Returns { total, transpiled, removed, ms }.
 * `force` transpiles every file.
 */
async function buildDist({ force = false } = {}) {
  const started = Date.now();
  const ts = loadTypeScript();
  const { options, files } = readBuildConfig(ts);
  const aliases = projectAliases(options);
  const settings = settingsHash(ts, options);
  const previous = readManifest();
  const reuse = !force && previous.settings === settings;
  const hashes = {};
  const changed = [];
  for (const source of files) {
    const key = path.relative(ROOT, source);
    hashes[key] = hashOf(fs.readFileSync(source));
    if (!reuse || previous.files[key] !== hashes[key] || !fs.existsSync(outputPathFor(source))) changed.push(source);
  }
  const removed = Object.keys(previous.files).filter((key) => !(key in hashes));
  for (const key of removed) {
    const out = outputPathFor(path.join(ROOT, key));
    fs.rmSync(out, { force: true });
    fs.rmSync(`${out}.map`, { force: true });
  }
  // Written first without the changed files, so a build stopped half-way redoes them next time.
  fs.mkdirSync(DIST, { recursive: true });
  const kept = Object.fromEntries(Object.entries(hashes).filter(([key]) => reuse && previous.files[key] === hashes[key]));
  fs.writeFileSync(MANIFEST, JSON.stringify({ settings, files: kept }));
  if (changed.length > 0) {
    // Every JSON a changed file requires is copied again (package.json's version may have changed).
    await transpileAll(changed, options, aliases);
  }
  fs.writeFileSync(MANIFEST, JSON.stringify({ settings, files: hashes }));
  return { total: files.length, transpiled: changed.length, removed: removed.length, ms: Date.now() - started };
}

if (!isMainThread) {
  try {
    const ts = loadTypeScript();
    const json = [];
    for (const source of workerData.sources) {
      const output = transpileFile(ts, source, workerData.options, workerData.aliases);
      writeOutputs(output);
      json.push(...output.json);
    }
    parentPort.postMessage({ json });
  } catch (error) {
    parentPort.postMessage({ error: error instanceof Error ? error.message : String(error) });
  }
} else if (require.main === module) {
  buildDist({ force: process.argv.includes('--force') })
    .then(({ total, transpiled, removed, ms }) => {
      const what =
        transpiled === 0 && removed === 0
          ? `up to date (${total} files)`
          : `transpiled ${transpiled} of ${total} files${removed ? `, removed ${removed}` : ''}`;
      if (!process.argv.includes('--quiet') || transpiled > 0) console.log(`[mailproof] build: ${what} in ${(ms / 1000).toFixed(1)} s`);
    })
    .catch((error) => {
      console.error(`[mailproof] build failed: ${error.message}`);
      process.exit(1);
    });
}

module.exports = { ROOT, DIST, loadTypeScript, readBuildConfig, projectAliases, rewriteAliases, requiredJsonFiles, transpileFile, buildDist };
