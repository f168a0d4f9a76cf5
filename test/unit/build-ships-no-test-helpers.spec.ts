import { join, relative } from 'node:path';
import { buildRootFiles, importsOf, isTestFile, resolveImport, ROOT, sourceFiles } from '../utils/source-imports';

// dist/ holds what the apps run. Helpers that only tests use (servers for tests, attack vectors, fixtures)
// stay beside their tests in `testing/` or `__fixtures__/` folders, which tsconfig.build.json excludes.
describe('the build ships no test helpers', () => {
  const files = ['apps', 'libs', 'launcher'].flatMap((area) => sourceFiles(join(ROOT, area)));
  const importsByFile = new Map(files.map((file) => [file, importsOf(file).flatMap((spec) => resolveImport(spec, file) ?? [])]));
  const built = new Set(buildRootFiles());

  /** Files that only tests import, directly or through other such files. */
  function testOnlyFiles(): Set<string> {
    const importers = new Map<string, string[]>();
    for (const [file, imported] of importsByFile) for (const target of imported) importers.set(target, [...(importers.get(target) ?? []), file]);
    const testOnly = new Set<string>();
    for (let grew = true; grew;) {
      grew = false;
      for (const [file, by] of importers) {
        if (testOnly.has(file) || isTestFile(file) || !by.every((importer) => isTestFile(importer) || testOnly.has(importer))) continue;
        testOnly.add(file);
        grew = true;
      }
    }
    return testOnly;
  }

  it('compiles no file that only tests import', () => {
    const testOnly = testOnlyFiles();
    // The helpers known today, so a walk that finds nothing cannot pass.
    expect([...testOnly].map((file) => relative(ROOT, file))).toEqual(
      expect.arrayContaining([
        'libs/net-guard/src/testing/loopback-server.ts',
        'libs/net-guard/src/testing/ssrf-vectors.ts',
        'libs/sandbox/src/__fixtures__/fixtures.ts',
      ]),
    );
    expect([...testOnly].filter((file) => built.has(file)).map((file) => relative(ROOT, file))).toEqual([]);
  });

  it('never lets built code import a file the build leaves out (tsc would emit it anyway)', () => {
    expect(built.size).toBeGreaterThan(300);
    const offenders = [...built].flatMap((file) =>
      (importsByFile.get(file) ?? [])
        .filter((target) => /\.tsx?$/.test(target) && !built.has(target))
        .map((target) => `${relative(ROOT, file)} imports ${relative(ROOT, target)}`),
    );
    expect(offenders).toEqual([]);
  });
});
