import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';

// Dependencies point one way (docs/architecture.md): engine <- contracts <- persistence|queue|config <- apps.
const ROOT = resolve(__dirname, '..', '..');
const FORBIDDEN_IN_ENGINE = [/^@nestjs\//, /^typeorm$/, /^bullmq$/, /^ioredis$/, /^pg$/, /^(node:)?(fs|net|http|https|dns|child_process|worker_threads)(\/|$)/, /^undici$/];

function sourceFiles(dir: string): string[] {
  const files: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) files.push(...sourceFiles(path));
    else if (/\.tsx?$/.test(name) && !/\.(spec|int-spec|e2e-spec)\.ts$/.test(name)) files.push(path);
  }
  return files;
}

function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const found: string[] = [];
  // from-imports and re-exports, require(), import(), and bare side-effect imports (`import 'fs'`).
  const pattern = /(?:import|export)\s[^'"]*?from\s+['"]([^'"]+)['"]|require\(\s*['"]([^'"]+)['"]\s*\)|import\(\s*['"]([^'"]+)['"]\s*\)|^\s*import\s+['"]([^'"]+)['"]/gm;
  for (let match = pattern.exec(text); match; match = pattern.exec(text)) found.push(match[1] ?? match[2] ?? match[3] ?? match[4]);
  return found;
}

function topFolder(path: string): string {
  return relative(ROOT, path).split(sep).slice(0, 2).join('/');
}

describe('import direction', () => {
  it('keeps libs/engine free of framework, database, queue and I/O code, and of process.env/console', () => {
    const offenders: string[] = [];
    const engineFiles = sourceFiles(join(ROOT, 'libs', 'engine', 'src'));
    // An empty walk would pass anything: the engine has some seventy source files.
    expect(engineFiles.length).toBeGreaterThan(50);
    expect(engineFiles.flatMap(importsOf).length).toBeGreaterThan(200);
    for (const file of engineFiles) {
      for (const spec of importsOf(file)) {
        if (FORBIDDEN_IN_ENGINE.some((rule) => rule.test(spec))) offenders.push(`${relative(ROOT, file)} imports ${spec}`);
        if (spec.startsWith('@mailproof/')) offenders.push(`${relative(ROOT, file)} imports ${spec} (the engine depends on no other lib)`);
      }
      const code = readFileSync(file, 'utf8').replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, '');
      if (/\bprocess\.env\b/.test(code)) offenders.push(`${relative(ROOT, file)} reads process.env`);
      if (/\bconsole\.\w+\(/.test(code)) offenders.push(`${relative(ROOT, file)} writes to the console`);
    }
    expect(offenders).toEqual([]);
  });

  it('never lets an app import another app, nor a lib import an app', () => {
    const offenders: string[] = [];
    for (const area of ['apps', 'libs']) {
      for (const owner of readdirSync(join(ROOT, area))) {
        const ownerDir = join(ROOT, area, owner);
        if (!statSync(ownerDir).isDirectory()) continue;
        for (const file of sourceFiles(ownerDir)) {
          for (const spec of importsOf(file)) {
            if (!spec.startsWith('.')) continue;
            const target = topFolder(resolve(file, '..', spec));
            if (target.startsWith('apps/') && target !== `${area}/${owner}`) offenders.push(`${relative(ROOT, file)} imports ${spec}`);
          }
        }
      }
    }
    expect(offenders).toEqual([]);
  });

  it('lets contracts depend only on the engine among our libs', () => {
    const offenders = sourceFiles(join(ROOT, 'libs', 'contracts', 'src')).flatMap((file) =>
      importsOf(file)
        .filter((spec) => /^@mailproof\/(?!engine)/.test(spec) || /^@nestjs\//.test(spec))
        .map((spec) => `${relative(ROOT, file)} imports ${spec}`),
    );
    expect(offenders).toEqual([]);
  });
});
