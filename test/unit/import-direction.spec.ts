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
  // The plan names in the account command's help: the index would load TypeORM whenever the CLI starts (docs/cli.md, "Start-up").
  'apps/cli/src/commands/account.command.ts -> @mailproof/persistence/plans',
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

/**
 * The layers of libs/engine/src, lowest first (docs/architecture.md, "Engine layers"): a folder, or a file at the
 * top of src, imports only from its own layer or lower ones. Files at the top of src are placed one by one: the
 * limits and error types under everything, the analysis pipeline over the reports, the index over all.
 */
const ENGINE_LAYERS: readonly (readonly string[])[] = [
  ['limits.ts', 'errors.ts'],
  ['parse', 'dns'],
  ['clients'],
  ['fixes'],
  ['analysis'],
  ['transforms'],
  ['dark-mode', 'scores'],
  ['compile'],
  ['reports'],
  ['message'],
  ['analyze-email.ts', 'preview-analysis.ts'],
  // Compares each client model's fixtures with what the whole analysis makes of them: over the pipeline.
  ['fidelity.ts'],
  ['autofix'],
  ['gate'],
  ['index.ts'],
  // Helpers only tests and check scripts use (tsconfig.build.json leaves testing/ out of the build): above everything.
  ['testing'],
];

/**
 * Imports from a lower engine layer to a higher one that are still there, each with why it is not yet gone
 * (issue 39, item 13). None is left; the list only shrinks: one that no longer happens fails the test until it is struck out.
 */
const ENGINE_BACK_EDGES_LEFT = new Map<string, string>([]);

const ENGINE = join(ROOT, 'libs', 'engine', 'src');

/** The engine layer unit of a file: its folder under src, or its own name at the top of src. */
function engineUnit(file: string): string {
  const parts = relative(ENGINE, file).split(sep);
  return parts[0];
}

function layerOf(unit: string): number {
  const index = ENGINE_LAYERS.findIndex((layer) => layer.includes(unit));
  return index;
}

/** Every cycle of a directed graph, each once (as the strongly connected components of more than one node). */
function cyclesOf(graph: ReadonlyMap<string, ReadonlySet<string>>): string[][] {
  const order = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  const visit = (node: string): void => {
    order.set(node, order.size);
    low.set(node, order.get(node)!);
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!graph.has(next)) continue;
      if (!order.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) low.set(node, Math.min(low.get(node)!, order.get(next)!));
    }
    if (low.get(node) !== order.get(node)) return;
    const component: string[] = [];
    for (let member = stack.pop()!; ; member = stack.pop()!) {
      onStack.delete(member);
      component.push(member);
      if (member === node) break;
    }
    if (component.length > 1) components.push(component.sort());
  };
  for (const node of graph.keys()) if (!order.has(node)) visit(node);
  return components;
}

describe('the engine layers and import cycles', () => {
  const code = FILES.filter(({ file }) => !/\.(spec|int-spec|e2e-spec|scale-spec)\.ts$/.test(file));
  const engineImports = code
    .filter(({ file }) => file.startsWith(ENGINE + sep))
    .flatMap(({ file, imports }) =>
      imports.flatMap((spec) => {
        const target = resolveImport(spec, file);
        return target?.startsWith(ENGINE + sep) ? [{ file, target, from: engineUnit(file), to: engineUnit(target) }] : [];
      }),
    )
    .filter(({ from, to }) => from !== to);

  it('places every folder and top-level file of libs/engine/src in a layer', () => {
    const units = new Set(
      readdirSync(ENGINE).filter((name) => statSync(join(ENGINE, name)).isDirectory() || (name.endsWith('.ts') && !name.endsWith('.spec.ts'))),
    );
    expect([...units].filter((unit) => layerOf(unit) === -1)).toEqual([]);
    expect(ENGINE_LAYERS.flat().filter((unit) => !units.has(unit))).toEqual([]);
  });

  it('imports only from its own layer or lower ones, but for the back edges still listed', () => {
    expect(engineImports.length).toBeGreaterThan(100);
    const back = new Map<string, string[]>();
    for (const use of engineImports) {
      if (layerOf(use.to) <= layerOf(use.from)) continue;
      const edge = `${use.from} -> ${use.to}`;
      back.set(edge, [...(back.get(edge) ?? []), `${relative(ENGINE, use.file)} -> ${relative(ENGINE, use.target)}`]);
    }
    expect([...back].filter(([edge]) => !ENGINE_BACK_EDGES_LEFT.has(edge))).toEqual([]);
    // A back edge that is gone comes off the list.
    expect([...ENGINE_BACK_EDGES_LEFT.keys()].filter((edge) => !back.has(edge))).toEqual([]);
  });

  it('has no folder cycle in the engine beyond those the listed back edges make', () => {
    const graph = new Map<string, Set<string>>();
    for (const { from, to } of engineImports) {
      if (ENGINE_BACK_EDGES_LEFT.has(`${from} -> ${to}`)) continue;
      graph.set(from, (graph.get(from) ?? new Set()).add(to));
      if (!graph.has(to)) graph.set(to, new Set());
    }
    expect(cyclesOf(graph)).toEqual([]);
  });

  it('has no file that imports itself back through others, in any lib, app or the launcher', () => {
    const graph = new Map<string, Set<string>>();
    for (const { file, imports } of code) {
      const targets = imports.map((spec) => resolveImport(spec, file)).filter((target): target is string => target !== undefined);
      graph.set(relative(ROOT, file), new Set(targets.map((target) => relative(ROOT, target))));
    }
    expect(graph.size).toBeGreaterThan(500);
    expect(cyclesOf(graph)).toEqual([]);
  });

  it('finds a cycle when there is one (the check can fail)', () => {
    const graph = new Map([
      ['a', new Set(['b'])],
      ['b', new Set(['c'])],
      ['c', new Set(['a'])],
      ['d', new Set(['a'])],
    ]);
    expect(cyclesOf(graph)).toEqual([['a', 'b', 'c']]);
  });
});
