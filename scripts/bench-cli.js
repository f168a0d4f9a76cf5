#!/usr/bin/env node
// npm run bench:cli: the installable command line as a user gets it. Packs packages/cli, installs the tarball
// into an empty folder with an empty npm cache ("cold"), and prints the packed and installed size, the number
// of packages, whether any server dependency came along, then, on this Node and on Node 24 (installed from the
// npm registry as CI does, unless --no-node24): the first `npx mailproof lint` of a ~20 KB corpus email after
// the install with an empty compile cache, and later runs, through npx and through the installed bin (npx's own
// cost is printed apart, from a bin that does nothing), with the CPU time beside the elapsed time (the machine
// is shared: CPU time does not grow with the load). Last, per template format: what a lint says before its
// compilers are installed, the time and megabytes their install adds, and lint/fix/gate --local of one corpus
// email (docs/cli.md, "The package"). Every figure is printed beside its target.
//   node scripts/bench-cli.js [--corpus DIR] [--keep] [--no-build (pack dist/ as it is)] [--no-node24] [--no-formats]
'use strict';
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawnSync } = require('node:child_process');
const { buildCliPackage, FORBIDDEN } = require('./build-cli-package');
const TIME = '/usr/bin/time';

const ROOT = path.resolve(__dirname, '..');
const args = process.argv.slice(2);
const corpusIndex = args.indexOf('--corpus');
// The shared corpus sits beside the checkout (../shared) or, from a worktree under wt/, two folders up.
const CORPUS = path.resolve(
  corpusIndex === -1
    ? ([path.join(ROOT, '..', 'shared', 'corpus'), path.join(ROOT, '..', '..', 'shared', 'corpus')].find((folder) => fs.existsSync(folder)) ??
        path.join(ROOT, '..', 'shared', 'corpus'))
    : args[corpusIndex + 1],
);
const TARGETS = { installedMb: 60, coldLintS: 5, warmLintS: 1 };
const INSTALL_TIMEOUT_MS = 40 * 60_000;

/** Runs a command; elapsed seconds, and the CPU seconds (user + system, children included) where GNU time is installed. */
function timed(command, commandArgs, options) {
  const measured = fs.existsSync(TIME);
  const started = process.hrtime.bigint();
  const result = measured
    ? spawnSync(TIME, ['-f', 'MAILPROOF_BENCH_CPU %U %S', command, ...commandArgs], { encoding: 'utf8', timeout: options.timeout ?? 300_000, ...options })
    : spawnSync(command, commandArgs, { encoding: 'utf8', timeout: options.timeout ?? 300_000, ...options });
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const cpu = /MAILPROOF_BENCH_CPU ([\d.]+) ([\d.]+)\s*$/.exec(result.stderr ?? '');
  const stderr = (result.stderr ?? '').replace(/(?:Command exited with non-zero status \d+\n)?MAILPROOF_BENCH_CPU [\d.]+ [\d.]+\s*$/, '');
  return { ...result, stderr, seconds, cpuSeconds: cpu ? Number(cpu[1]) + Number(cpu[2]) : null };
}

function describeRun(run) {
  return `${run.seconds.toFixed(2)} s${run.cpuSeconds === null ? '' : ` (CPU ${run.cpuSeconds.toFixed(2)} s)`}`;
}

function median(runs) {
  return [...runs].sort((a, b) => a.seconds - b.seconds)[Math.floor(runs.length / 2)];
}

function folderBytes(folder) {
  let total = 0;
  for (const entry of fs.readdirSync(folder, { withFileTypes: true })) {
    const full = path.join(folder, entry.name);
    if (entry.isSymbolicLink()) continue;
    total += entry.isDirectory() ? folderBytes(full) : fs.statSync(full).size;
  }
  return total;
}

/** Every installed package (a folder with a package.json naming it) under node_modules, nested ones included. */
function installedPackages(nodeModules) {
  const found = [];
  const visit = (folder) => {
    if (!fs.existsSync(folder)) return;
    for (const entry of fs.readdirSync(folder, { withFileTypes: true })) {
      if (!entry.isDirectory() || entry.name.startsWith('.')) continue;
      const full = path.join(folder, entry.name);
      if (entry.name.startsWith('@')) {
        visit(full);
        continue;
      }
      const manifest = path.join(full, 'package.json');
      if (fs.existsSync(manifest)) {
        const { name, version } = JSON.parse(fs.readFileSync(manifest, 'utf8'));
        found.push({ name, version, path: full });
      }
      visit(path.join(full, 'node_modules'));
    }
  };
  visit(nodeModules);
  return found;
}

/** One corpus email per format; for html the one closest to 20 KB (the target's size). */
function corpusEmails() {
  if (!fs.existsSync(CORPUS)) return null;
  const pick = (format, rank) => {
    const folder = path.join(CORPUS, format);
    if (!fs.existsSync(folder)) return null;
    const files = fs
      .readdirSync(folder)
      .map((name) => path.join(folder, name))
      .filter((file) => fs.statSync(file).isFile());
    return files.sort((a, b) => rank(a) - rank(b))[0] ?? null;
  };
  const size = (file) => fs.statSync(file).size;
  return {
    html: pick('html', (file) => Math.abs(size(file) - 20_000)),
    mjml: pick('mjml', size),
    // The smallest one that imports no local file of its own (the corpus keeps the emails, not their projects).
    jsx: pick('jsx', (file) => (/\bfrom\s+['"]\./.test(fs.readFileSync(file, 'utf8')) ? Infinity : size(file))),
    maizzle: pick('maizzle', size),
  };
}

function mb(bytes) {
  return `${(bytes / 1e6).toFixed(1)} MB`;
}

function verdict(value, target) {
  return value <= target ? 'meets' : 'MISSES';
}

/** Node 24 from the npm registry, as .ci/run installs it (the `node` package fetches the official build). */
function installNode24(work) {
  const prefix = path.join(work, 'node24');
  fs.mkdirSync(prefix);
  fs.writeFileSync(path.join(prefix, 'package.json'), '{ "private": true, "allowScripts": { "node": true } }\n');
  const install = spawnSync('npm', ['install', '--prefix', prefix, '--no-audit', '--no-fund', '--no-save', '--loglevel=error', 'node@24'], {
    encoding: 'utf8',
    timeout: 600_000,
  });
  if (install.status !== 0) return `npm install node@24 failed: ${(install.stderr || install.error?.message || '').trim().split('\n').pop()}`;
  const bin = path.join(prefix, 'node_modules', '.bin');
  const version = spawnSync(path.join(bin, 'node'), ['--version'], { encoding: 'utf8' }).stdout.trim();
  return { label: `Node ${version}`, bin };
}

/**
 * The first lint after the install (an empty compile cache: a TMPDIR of its own, where Node 22+ keeps it) and the
 * median of three later ones, through npx and through the installed bin; npx's own cost from a bin that does nothing.
 */
function measureLint(runtime, app, email, work) {
  const tmp = fs.mkdtempSync(path.join(work, 'tmp-'));
  const env = { ...process.env, PATH: `${runtime.bin}${path.delimiter}${process.env.PATH}`, TMPDIR: tmp };
  const viaNpx = () => timed('npx', ['--no-install', 'mailproof', 'lint', email], { cwd: app, env });
  const viaBin = () => timed(path.join(runtime.bin, 'node'), [path.join(app, 'node_modules', '.bin', 'mailproof'), 'lint', email], { cwd: app, env });
  const cold = viaNpx();
  const warmNpx = median([viaNpx(), viaNpx(), viaNpx()]);
  const warmBin = median([viaBin(), viaBin(), viaBin()]);
  const noop = path.join(app, 'node_modules', '.bin', 'bench-noop');
  fs.writeFileSync(noop, '#!/usr/bin/env node\n', { mode: 0o755 });
  const npxAlone = median([1, 2, 3].map(() => timed('npx', ['--no-install', 'bench-noop'], { cwd: app, env })));
  fs.rmSync(noop);
  console.log(
    `  ${runtime.label}: exit ${cold.status}${cold.status === 0 || cold.status === 1 ? '' : ` (${cold.stderr.trim().split('\n')[0]})`}, loadavg ${load()}`,
  );
  console.log(
    `    first npx mailproof lint after the install ${describeRun(cold)}   target ≤ ${TARGETS.coldLintS} s: ${verdict(cold.seconds, TARGETS.coldLintS)}`,
  );
  console.log(
    `    later runs (median of 3): mailproof lint ${describeRun(warmBin)}   target ≤ ${TARGETS.warmLintS} s: ${verdict(warmBin.seconds, TARGETS.warmLintS)}`,
  );
  console.log(`                              npx mailproof lint ${describeRun(warmNpx)} (npx alone, a bin that does nothing: ${describeRun(npxAlone)})`);
}

/** A template format: the lint before its compilers are installed, their install, then lint/fix/gate --local. */
function measureFormat(format, file, app, cache) {
  const before = timed('npx', ['--no-install', 'mailproof', 'lint', file], { cwd: app });
  const said =
    `${before.stdout}${before.stderr}`.split('\n').find((line) => /installs on demand/.test(line)) ?? `${before.stdout}${before.stderr}`.trim().split('\n')[0];
  const command = /Install them where @mailproof\/cli is installed: npm install (.+)$/.exec(said);
  console.log(`${format.padEnd(8)} ${path.basename(file)} before its compilers: exit ${before.status}: ${said.slice(0, 400)}`);
  if (!command) return;
  const sizeBefore = folderBytes(path.join(app, 'node_modules'));
  const install = timed('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error', '--cache', cache, ...command[1].trim().split(/\s+/)], {
    cwd: app,
    timeout: INSTALL_TIMEOUT_MS,
  });
  const added = folderBytes(path.join(app, 'node_modules')) - sizeBefore;
  console.log(
    `         npm install ${command[1].trim()}: exit ${install.status}, ${install.seconds.toFixed(1)} s, +${mb(added)} (node_modules now ${mb(sizeBefore + added)}), loadavg ${load()}`,
  );
  if (install.status !== 0) return console.log(`         ${install.stderr.trim().split('\n').slice(-3).join(' / ')}`);
  const results = ['lint', 'fix', 'gate --local'].map((name) => {
    const run = timed('npx', ['--no-install', 'mailproof', ...name.split(' '), file], { cwd: app });
    const problem = /cannot compile[^\n]*|time limit[^\n]*|installs on demand[^\n]*/.exec(`${run.stdout}${run.stderr}`);
    return `${name} exit ${run.status} ${describeRun(run)}${problem ? ` (${problem[0].slice(0, 80)})` : ''}`;
  });
  console.log(`         ${results.join('; ')}`);
}

function load() {
  return fs.readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
}

function main() {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'mailproof-bench-cli-'));
  console.log(`bench:cli on Node ${process.version}, loadavg ${load()} (measured under the machine's load at the time)`);
  try {
    const { packed, files } = buildCliPackage({ build: !args.includes('--no-build'), outDir: path.join(work, 'pack') });
    console.log(
      `packed:    ${path.basename(packed.tarball)} ${mb(packed.size)} (${packed.entryCount} files, ${mb(packed.unpackedSize)} unpacked; ${files.length} compiled files)`,
    );

    const app = path.join(work, 'app');
    fs.mkdirSync(app);
    fs.writeFileSync(path.join(app, 'package.json'), '{"name":"bench-cli-app","private":true}\n');
    const cache = path.join(work, 'npm-cache');
    const install = timed('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error', '--cache', cache, packed.tarball], {
      cwd: app,
      timeout: INSTALL_TIMEOUT_MS,
    });
    if (install.status !== 0) throw new Error(`npm install failed (${install.status ?? install.signal}):\n${install.stderr}`);
    const nodeModules = path.join(app, 'node_modules');
    const packages = installedPackages(nodeModules);
    const installedBytes = folderBytes(nodeModules);
    const forbidden = packages.filter((item) => FORBIDDEN.some((pattern) => pattern.test(item.name)));
    console.log(
      `install:   ${install.seconds.toFixed(1)} s with an empty npm cache (the base package: HTML and .eml; each template format's compilers are installed below), loadavg ${load()}`,
    );
    console.log(
      `installed: ${mb(installedBytes)} in node_modules, ${packages.length} packages   target ≤ ${TARGETS.installedMb} MB: ${verdict(installedBytes / 1e6, TARGETS.installedMb)}`,
    );
    const largest = [...new Set(packages.map((item) => item.path))]
      .map((folder) => ({ folder: path.relative(nodeModules, folder), bytes: folderBytes(folder) }))
      .sort((a, b) => b.bytes - a.bytes)
      .slice(0, 8);
    console.log(`largest:   ${largest.map((item) => `${item.folder} ${mb(item.bytes)}`).join(', ')}`);
    console.log(
      `server dependencies installed: ${forbidden.length === 0 ? 'none (no NestJS, TypeORM, BullMQ, ioredis, pg, OpenTelemetry SDK)' : forbidden.map((item) => item.name).join(', ')}`,
    );

    const emails = corpusEmails();
    const email = emails?.html ?? path.join(ROOT, 'test', 'fixtures', 'cli', 'with-errors.html');
    const bytes = fs.statSync(email).size;
    console.log(
      `lint:      ${path.relative(path.join(ROOT, '..'), email)} (${(bytes / 1000).toFixed(1)} KB)${emails ? '' : ` (no corpus at ${CORPUS}: the repository's own fixture)`}`,
    );
    const runtimes = [{ label: `Node ${process.version}`, bin: path.dirname(process.execPath) }];
    if (!args.includes('--no-node24') && !process.version.startsWith('v24.')) {
      const node24 = installNode24(work);
      if (typeof node24 === 'string') console.log(`  Node 24: not measured (${node24})`);
      else runtimes.push(node24);
    }
    for (const runtime of runtimes) measureLint(runtime, app, email, work);

    if (emails && !args.includes('--no-formats')) {
      for (const format of ['mjml', 'jsx', 'maizzle']) {
        const file = emails[format];
        if (file) measureFormat(format, file, app, cache);
      }
    }
  } finally {
    if (args.includes('--keep')) console.log(`kept ${work}`);
    else fs.rmSync(work, { recursive: true, force: true });
  }
}

try {
  main();
} catch (error) {
  console.error(`bench:cli: ${error.message}`);
  process.exit(1);
}
