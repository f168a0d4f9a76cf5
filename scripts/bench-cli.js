#!/usr/bin/env node
// npm run bench:cli: the installable command line as a user gets it. Packs packages/cli, installs the tarball
// into an empty folder with an empty npm cache ("cold"), and prints the packed and installed size, the number
// of packages, whether any server dependency came along, the time of the first and of later
// `npx mailproof lint` runs of a ~20 KB corpus email, and lint/fix/gate --local of one corpus email per format,
// beside the targets (docs/cli.md, "The package"). The Node that runs it is the Node measured.
//   node scripts/bench-cli.js [--corpus DIR] [--keep] [--no-build (pack dist/ as it is)]
'use strict';
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawnSync } = require('node:child_process');
const { buildCliPackage, FORBIDDEN } = require('./build-cli-package');

const ROOT = path.resolve(__dirname, '..');
const args = process.argv.slice(2);
const corpusIndex = args.indexOf('--corpus');
const CORPUS = path.resolve(corpusIndex === -1 ? path.join(ROOT, '..', 'shared', 'corpus') : args[corpusIndex + 1]);
const TARGETS = { installedMb: 60, coldLintS: 5, warmLintS: 1 };
const INSTALL_TIMEOUT_MS = 40 * 60_000;

function timed(command, commandArgs, options) {
  const started = process.hrtime.bigint();
  const result = spawnSync(command, commandArgs, { encoding: 'utf8', timeout: options.timeout ?? 300_000, ...options });
  return { ...result, seconds: Number(process.hrtime.bigint() - started) / 1e9 };
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
    jsx: pick('jsx', size),
    maizzle: pick('maizzle', size),
  };
}

function mb(bytes) {
  return `${(bytes / 1e6).toFixed(1)} MB`;
}

function verdict(value, target) {
  return value <= target ? 'meets' : 'MISSES';
}

function main() {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'mailproof-bench-cli-'));
  const load = () => fs.readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
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
      `install:   ${install.seconds.toFixed(1)} s with an empty npm cache (includes building isolated-vm from source where no binary ships for this Node), loadavg ${load()}`,
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
    const lint = (file) => timed('npx', ['--no-install', 'mailproof', 'lint', file], { cwd: app });
    const cold = lint(email);
    const warm = [lint(email), lint(email), lint(email)].map((run) => run.seconds).sort((a, b) => a - b)[1];
    const bytes = fs.statSync(email).size;
    console.log(`lint:      ${path.relative(path.join(ROOT, '..'), email)} (${(bytes / 1000).toFixed(1)} KB), exit ${cold.status}`);
    console.log(`  first run after install ${cold.seconds.toFixed(2)} s   target ≤ ${TARGETS.coldLintS} s: ${verdict(cold.seconds, TARGETS.coldLintS)}`);
    console.log(`  later runs (median of 3) ${warm.toFixed(2)} s   target ≤ ${TARGETS.warmLintS} s: ${verdict(warm, TARGETS.warmLintS)}   loadavg ${load()}`);

    if (emails) {
      for (const [format, file] of Object.entries(emails)) {
        if (!file) continue;
        const results = ['lint', 'fix', 'gate --local'].map((command) => {
          const run = timed('npx', ['--no-install', 'mailproof', ...command.split(' '), file], { cwd: app });
          const problem = /cannot compile[^\n]*|time limit[^\n]*/.exec(`${run.stdout}${run.stderr}`);
          return `${command} exit ${run.status} ${run.seconds.toFixed(1)} s${problem ? ` (${problem[0].slice(0, 80)})` : ''}`;
        });
        console.log(`${format.padEnd(8)} ${path.basename(file)}: ${results.join('; ')}`);
      }
    } else {
      console.log(`(no corpus at ${CORPUS}: linted the repository's own fixture)`);
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
