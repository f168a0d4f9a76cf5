import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { importsOf, resolveImport, ROOT, sourceFiles } from '../utils/source-imports';

/**
 * Which of our libs each lib, app and the launcher may import (docs/architecture.md, "Dependencies"; the two
 * tables must agree). Any other `@mailproof/*` import fails, and so does a folder of libs/ or apps/ without
 * a row here: a new lib or app states its dependencies before it has any.
 */
const MAY_IMPORT: Record<string, readonly string[]> = {
  'libs/engine': [],
  'libs/config': [],
  'libs/net-guard': [],
  'libs/tracing': [],
  'libs/contracts': ['engine'],
  'libs/sandbox': ['engine'],
  'libs/mcp': ['engine', 'contracts'],
  'libs/render': ['engine', 'contracts', 'net-guard'],
  'libs/persistence': ['config', 'contracts'],
  'libs/queue': ['config', 'contracts', 'persistence', 'tracing'],
  'libs/webhooks': ['config', 'contracts', 'queue'],
  'apps/api': ['engine', 'contracts', 'config', 'persistence', 'queue', 'webhooks', 'net-guard', 'mcp', 'tracing'],
  'apps/worker-preview': ['engine', 'contracts', 'config', 'persistence', 'queue', 'webhooks', 'net-guard', 'sandbox', 'tracing'],
  'apps/worker-render': ['engine', 'contracts', 'config', 'persistence', 'queue', 'net-guard', 'render'],
  'apps/worker-dns': ['engine', 'contracts', 'config', 'persistence', 'queue', 'webhooks', 'net-guard'],
  'apps/scheduler': ['contracts', 'config', 'persistence', 'queue', 'webhooks'],
  'apps/cli': ['engine', 'contracts', 'config', 'persistence', 'queue', 'net-guard', 'sandbox', 'render', 'mcp'],
  launcher: ['config', 'persistence', 'queue'],
};

/**
 * Imports that reach into one file of another lib instead of its index or a folder's index
 * (`@mailproof/engine/dns`), each with the reason it must.
 */
const FILE_IMPORTS_ALLOWED = new Set([
  // Bundled into the Maizzle isolate's snapshot: only this file's code goes in, not the compile folder's.
  'libs/sandbox/src/maizzle/maizzle-template-engine.ts -> @mailproof/engine/compile/source-files',
  // The analysis thread encodes its result itself and loads neither TypeORM nor Nest.
  'apps/worker-preview/src/analysis/analysis.thread.ts -> @mailproof/persistence/preview-result.codec',
]);

/** libs/<name>, apps/<name> or launcher: whose code a path is. */
function ownerOf(path: string): string {
  const [area, name] = relative(ROOT, path).split(sep);
  return area === 'libs' || area === 'apps' ? `${area}/${name}` : area;
}

const OWNERS = [
  ...['libs', 'apps'].flatMap((area) =>
    readdirSync(join(ROOT, area))
      .filter((name) => statSync(join(ROOT, area, name)).isDirectory())
      .map((name) => `${area}/${name}`),
  ),
  'launcher',
];
/** Every file of every owner, tests included: a spec imports what its code may import. */
const FILES = OWNERS.flatMap((owner) => sourceFiles(join(ROOT, owner)).map((file) => ({ owner, file, imports: importsOf(file) })));

describe('import direction', () => {
  it('has a row for every lib and app, and each row names only libs that exist', () => {
    expect(Object.keys(MAY_IMPORT).sort()).toEqual([...OWNERS].sort());
    const unknown = Object.entries(MAY_IMPORT).flatMap(([owner, libs]) =>
      libs.filter((lib) => !existsSync(join(ROOT, 'libs', lib, 'src', 'index.ts'))).map((lib) => `${owner} -> ${lib}`),
    );
    expect(unknown).toEqual([]);
  });

  it('keeps the libs free of cycles', () => {
    const cycles: string[] = [];
    const visit = (lib: string, path: string[]): void => {
      if (path.includes(lib)) {
        cycles.push([...path.slice(path.indexOf(lib)), lib].join(' -> '));
        return;
      }
      for (const next of MAY_IMPORT[`libs/${lib}`] ?? []) visit(next, [...path, lib]);
    };
    for (const owner of OWNERS.filter((name) => name.startsWith('libs/'))) visit(owner.slice('libs/'.length), []);
    expect([...new Set(cycles)]).toEqual([]);
  });

  it('lets every lib, app and the launcher import only the libs of its row', () => {
    // An empty walk would pass anything: there are hundreds of imports of our libs.
    expect(FILES.flatMap(({ imports }) => imports.filter((spec) => spec.startsWith('@mailproof/'))).length).toBeGreaterThan(300);
    const offenders = FILES.flatMap(({ owner, file, imports }) =>
      imports
        .filter((spec) => spec.startsWith('@mailproof/'))
        .filter((spec) => !MAY_IMPORT[owner]?.includes(spec.split('/')[1]))
        .map((spec) => `${relative(ROOT, file)} imports ${spec} (${owner} may import: ${MAY_IMPORT[owner]?.join(', ') || 'no lib'})`),
    );
    expect(offenders).toEqual([]);
  });

  it('reaches other code only through @mailproof/* (only the launcher imports apps, by path)', () => {
    const offenders = FILES.flatMap(({ owner, file, imports }) =>
      imports
        .filter((spec) => spec.startsWith('.'))
        .flatMap((spec) => {
          const target = resolveImport(spec, file);
          if (!target) return [];
          const targetOwner = ownerOf(target);
          const allowed = targetOwner === owner || !OWNERS.includes(targetOwner) || (owner === 'launcher' && targetOwner.startsWith('apps/'));
          return allowed ? [] : [`${relative(ROOT, file)} imports ${spec}`];
        }),
    );
    expect(offenders).toEqual([]);
  });

  it("imports a lib through its index or a folder's index, never one of its files (reasons listed above)", () => {
    const offenders = FILES.flatMap(({ file, imports }) =>
      imports
        .filter((spec) => /^@mailproof\/[^/]+\/./.test(spec))
        .filter((spec) => !resolveImport(spec, file)?.endsWith(`${sep}index.ts`))
        .map((spec) => `${relative(ROOT, file)} -> ${spec}`)
        .filter((use) => !FILE_IMPORTS_ALLOWED.has(use)),
    );
    expect(offenders).toEqual([]);
  });

  it('keeps contracts free of Nest: plain types, payload builders and checks', () => {
    const offenders = FILES.filter(({ owner }) => owner === 'libs/contracts').flatMap(({ file, imports }) =>
      imports.filter((spec) => spec.startsWith('@nestjs/')).map((spec) => `${relative(ROOT, file)} imports ${spec}`),
    );
    expect(offenders).toEqual([]);
  });
});
