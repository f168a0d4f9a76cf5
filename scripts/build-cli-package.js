#!/usr/bin/env node
// Builds the installable command-line package (packages/cli, docs/cli.md "The package"): compiles the
// repository (tsc, as `npm run build`), copies the compiled files the email commands load into
// packages/cli/dist, checks that every package they load is declared (and none of the server's), and
// packs it with `npm pack`. Prints the tarball's path on the last line.
//   node scripts/build-cli-package.js [--out DIR] [--no-build] [--no-pack]
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const { spawnSync } = require('node:child_process');
const { builtinModules } = require('node:module');
const tasks = require('./lib/tasks');

const ROOT = path.resolve(__dirname, '..');
const DIST = path.join(ROOT, 'dist');
const PACKAGE_DIR = path.join(ROOT, 'packages', 'cli');
const ENTRY = 'apps/cli/src/package-main.js';
/** Where the sandbox's run-time entries are named from (SANDBOX_SOURCE_ROOT in libs/sandbox/src/sandbox-sources.ts). */
const SANDBOX_ROOT = path.join(DIST, 'libs', 'sandbox', 'src');
/** Sandbox files esbuild bundles at run time (sandboxSourceFile / bundleSandboxEntry): no require names them. */
const RUNTIME_ENTRY_PATTERN = /(?:sandboxSourceFile|bundleSandboxEntry)\)?\(['"]([^'"]+)['"]\)/g;
/** What the package must never load: the server's frameworks, its stores and queues, the tracing SDK, the dashboard. */
const FORBIDDEN = [/^@nestjs\//, /^typeorm$/, /^bullmq$/, /^ioredis$/, /^pg$/, /^@opentelemetry\/(?!api$)/, /^nestjs-pino$/, /^htmx\.org$/, /^uplot$/];
/**
 * Data files shipped inside the package instead of their npm package: caniemail 2.0.2 declares a prettier
 * plugin as a run-time dependency, which would install prettier, Babel and lodash (about 25 MB) for one
 * JSON file the engine reads. The file is copied with its licence; the require is pointed at the copy.
 */
const VENDORED = { 'caniemail/caniemail.json': { from: 'caniemail/data/caniemail.json', licence: 'caniemail/LICENSE', to: 'vendor/caniemail' } };
const FORBIDDEN_FILES = [/^apps\/(?!cli\/)/, /^libs\/(persistence|queue|config|tracing|webhooks|mcp)\//];

function packageNameOf(specifier) {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

/** Every compiled file the package entry can load (relative requires, dynamic imports and the sandbox's run-time entries), and the packages they name. */
function collectFiles() {
  const files = new Set();
  const packages = new Map(); // name -> first file that requires it
  const builtins = new Set(builtinModules);
  const queue = [path.join(DIST, ENTRY)];
  const resolveLocal = (from, specifier) => {
    const base = path.resolve(path.dirname(from), specifier);
    for (const candidate of [base, `${base}.js`, `${base}.json`, path.join(base, 'index.js')]) {
      if (fs.existsSync(candidate) && fs.statSync(candidate).isFile()) return candidate;
    }
    throw new Error(`${path.relative(DIST, from)} requires ${specifier}, which is not in dist/`);
  };
  while (queue.length > 0) {
    const file = queue.pop();
    const relative = path.relative(DIST, file).split(path.sep).join('/');
    if (files.has(relative)) continue;
    if (FORBIDDEN_FILES.some((pattern) => pattern.test(relative))) throw new Error(`the package would load ${relative}, a server file`);
    files.add(relative);
    if (!file.endsWith('.js')) continue;
    const source = fs.readFileSync(file, 'utf8');
    for (const match of source.matchAll(/\brequire\((['"])([^'"]+)\1\)/g)) {
      const specifier = match[2];
      if (specifier.startsWith('.')) queue.push(resolveLocal(file, specifier));
      else if (specifier in VENDORED) continue;
      else if (!specifier.startsWith('node:') && !builtins.has(specifier)) {
        const name = packageNameOf(specifier);
        if (!packages.has(name)) packages.set(name, relative);
      }
    }
    for (const match of source.matchAll(RUNTIME_ENTRY_PATTERN)) queue.push(path.join(SANDBOX_ROOT, `${match[1]}.js`));
  }
  return { files: [...files].sort(), packages };
}

function installedVersion(name) {
  return JSON.parse(fs.readFileSync(path.join(ROOT, 'node_modules', name, 'package.json'), 'utf8')).version;
}

/** Each loaded package is declared, none is forbidden, and each declared version is the one the repository's tests ran with. */
function checkManifest(manifest, packages) {
  const declared = { ...manifest.dependencies, ...manifest.optionalDependencies, ...manifest.peerDependencies };
  const problems = [];
  for (const [name, from] of packages) {
    if (FORBIDDEN.some((pattern) => pattern.test(name))) problems.push(`${from} loads ${name}, a server dependency`);
    else if (!(name in declared)) problems.push(`${from} loads ${name}, which packages/cli/package.json does not declare`);
  }
  for (const [name, version] of Object.entries(declared)) {
    // Exact versions only; `a || b` where a package has one release per Node line (isolated-vm: 5.x on Node 20, 6.x on 22+).
    const alternatives = version.split('||').map((item) => item.trim());
    if (!alternatives.every((item) => /^[\d.]+$/.test(item))) {
      problems.push(`${name}: declare an exact version (${version})`);
      continue;
    }
    const installed = [name, ...(name === 'isolated-vm' ? ['isolated-vm-node22'] : [])]
      .filter((folder) => fs.existsSync(path.join(ROOT, 'node_modules', folder, 'package.json')))
      .map(installedVersion);
    if (installed.length === 0) continue;
    if (!installed.some((item) => alternatives.includes(item))) {
      problems.push(`${name}: packages/cli/package.json says ${version}, the repository runs ${installed.join(' and ')}`);
    }
  }
  problems.push(...checkCompilerTable(manifest));
  const rootVersion = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')).version;
  if (manifest.version !== rootVersion) problems.push(`packages/cli/package.json version ${manifest.version} is not the repository's ${rootVersion}`);
  if (problems.length > 0) throw new Error(`packages/cli/package.json:\n  ${problems.join('\n  ')}`);
}

/**
 * The compilers of the template formats are optional peers of the package, installed on demand: every package
 * of the CLI's table (apps/cli/src/commands/format-compilers.ts) is one, at the table's version, and none is a
 * plain dependency, which every user would install.
 */
function checkCompilerTable(manifest) {
  const { COMPILER_PACKAGE_VERSIONS, FORMAT_PACKAGES } = require(path.join(DIST, 'apps', 'cli', 'src', 'commands', 'format-compilers.js'));
  const problems = [];
  const named = new Set(Object.values(FORMAT_PACKAGES).flat());
  for (const name of named) {
    const peer = manifest.peerDependencies?.[name];
    if (manifest.dependencies?.[name]) problems.push(`${name} compiles a template format: an optional peer dependency, not a dependency`);
    if (peer !== COMPILER_PACKAGE_VERSIONS[name])
      problems.push(`${name}: the CLI's compiler table says ${COMPILER_PACKAGE_VERSIONS[name]}, peerDependencies ${peer}`);
    if (manifest.peerDependenciesMeta?.[name]?.optional !== true) problems.push(`${name}: mark the peer optional (peerDependenciesMeta)`);
  }
  return problems;
}

function copyFiles(files) {
  const target = path.join(PACKAGE_DIR, 'dist');
  fs.rmSync(target, { recursive: true, force: true });
  for (const file of files) {
    const destination = path.join(target, file);
    fs.mkdirSync(path.dirname(destination), { recursive: true });
    let text = fs.readFileSync(path.join(DIST, file), 'utf8');
    for (const [specifier, vendored] of Object.entries(VENDORED)) {
      const copy = path.join(target, vendored.to, path.basename(vendored.from));
      let relative = path.relative(path.dirname(destination), copy).split(path.sep).join('/');
      if (!relative.startsWith('.')) relative = `./${relative}`;
      text = text.split(`require('${specifier}')`).join(`require('${relative}')`);
    }
    fs.writeFileSync(destination, text);
  }
  for (const vendored of Object.values(VENDORED)) {
    const folder = path.join(target, vendored.to);
    fs.mkdirSync(folder, { recursive: true });
    fs.copyFileSync(path.join(ROOT, 'node_modules', vendored.from), path.join(folder, path.basename(vendored.from)));
    fs.copyFileSync(path.join(ROOT, 'node_modules', vendored.licence), path.join(folder, 'LICENSE'));
    const { name, version } = JSON.parse(fs.readFileSync(path.join(ROOT, 'node_modules', vendored.from.split('/')[0], 'package.json'), 'utf8'));
    fs.writeFileSync(path.join(folder, 'SOURCE'), `${name}@${version}: ${vendored.from.split('/').slice(1).join('/')} and LICENSE, as published on npm\n`);
  }
}

/**
 * Declarations of the typed API client the package exports (`@mailproof/cli/api-client`): tsc emits them for
 * its entry; the generated paths come with it. The rest of the package is a command, not a library.
 */
function emitApiClientDeclarations() {
  const out = path.join(PACKAGE_DIR, 'dist', 'apps', 'cli', 'src', 'api-client');
  const entry = path.join(ROOT, 'apps', 'cli', 'src', 'api-client', 'index.ts');
  const options = [
    '--declaration',
    '--emitDeclarationOnly',
    '--skipLibCheck',
    '--esModuleInterop',
    '--moduleResolution',
    'node10',
    '--module',
    'commonjs',
    '--target',
    'ES2022',
    '--strict',
  ];
  const result = spawnSync(path.join(ROOT, 'node_modules', '.bin', 'tsc'), [...options, '--rootDir', path.dirname(entry), '--outDir', out, entry], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  if (result.status !== 0) throw new Error(`tsc could not emit the API client's declarations:\n${result.stdout}${result.stderr}`);
}

function pack(outDir) {
  fs.mkdirSync(outDir, { recursive: true });
  const result = spawnSync('npm', ['pack', '--json', '--pack-destination', outDir], { cwd: PACKAGE_DIR, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`npm pack failed: ${result.stderr}`);
  const [info] = JSON.parse(result.stdout);
  return { tarball: path.join(outDir, info.filename), size: info.size, unpackedSize: info.unpackedSize, entryCount: info.entryCount };
}

/**
 * The docs the SARIF help links point into by default (defaultDocsUrl in apps/cli/src/reporters/check-report.ts:
 * this package's docs folder at its version, as jsDelivr serves published packages), and the command's own page.
 */
const SHIPPED_DOCS = ['rules.md', 'cli.md', 'ci.md'];

function copyDocs() {
  const target = path.join(PACKAGE_DIR, 'docs');
  fs.rmSync(target, { recursive: true, force: true });
  fs.mkdirSync(target, { recursive: true });
  for (const page of SHIPPED_DOCS) fs.copyFileSync(path.join(ROOT, 'docs', page), path.join(target, page));
}

function buildCliPackage(options = {}) {
  if (options.build !== false) tasks.build({ quiet: true });
  const { files, packages } = collectFiles();
  const manifest = JSON.parse(fs.readFileSync(path.join(PACKAGE_DIR, 'package.json'), 'utf8'));
  checkManifest(manifest, packages);
  copyFiles(files);
  copyDocs();
  emitApiClientDeclarations();
  const packed = options.pack === false ? null : pack(options.outDir ?? path.join(ROOT, '.tmp', 'cli-package'));
  return { files, packages: [...packages.keys()].sort(), packed };
}

module.exports = { buildCliPackage, collectFiles, FORBIDDEN };

if (require.main === module) {
  const args = process.argv.slice(2);
  const outIndex = args.indexOf('--out');
  try {
    const result = buildCliPackage({
      build: !args.includes('--no-build'),
      pack: !args.includes('--no-pack'),
      outDir: outIndex === -1 ? undefined : path.resolve(args[outIndex + 1]),
    });
    console.log(`${result.files.length} compiled files, packages loaded: ${result.packages.join(', ')}`);
    if (result.packed) console.log(result.packed.tarball);
  } catch (error) {
    console.error(`build-cli-package: ${error.message}`);
    process.exit(1);
  }
}
