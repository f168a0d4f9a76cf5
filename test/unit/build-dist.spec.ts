import { existsSync } from 'node:fs';
import { join } from 'node:path';

// scripts/lib/transpile-dist.js, the build `npm start`, `npm run build` and the suite run: TypeScript's
// per-file transpile (no type-check) with the decorator metadata NestJS's injection reads.
// eslint-disable-next-line @typescript-eslint/no-require-imports -- a plain JS script of scripts/lib
const build = require('../../scripts/lib/transpile-dist') as {
  ROOT: string;
  DIST: string;
  loadTypeScript(): unknown;
  readBuildConfig(ts: unknown): { options: Record<string, unknown>; files: string[] };
  projectAliases(options: Record<string, unknown>): { wildcard: boolean; prefix: string; target: string }[];
  rewriteAliases(code: string, outFile: string, aliases: { wildcard: boolean; prefix: string; target: string }[]): string;
  transpileFile(
    ts: unknown,
    source: string,
    options: Record<string, unknown>,
    aliases: unknown[],
  ): { writes: { file: string; text: string }[]; json: string[] };
  buildDist(): Promise<{ total: number; transpiled: number; removed: number }>;
};

describe('the build (scripts/lib/transpile-dist.js)', () => {
  const ts = build.loadTypeScript();
  const { options, files } = build.readBuildConfig(ts);
  const aliases = build.projectAliases(options);

  it('compiles the files tsconfig.build.json names, and no test file', () => {
    expect(files).toContain(join(build.ROOT, 'launcher', 'main.ts'));
    expect(files.filter((file) => /\.(spec|int-spec|e2e-spec)\.ts$/.test(file) || /[/\\](testing|__fixtures__)[/\\]/.test(file))).toEqual([]);
  });

  it('turns @mailproof/* aliases into relative paths inside dist/ and leaves packages alone', () => {
    const outFile = join(build.DIST, 'apps', 'api', 'src', 'health', 'health.controller.js');
    const code = 'const a = require("@mailproof/config");\nconst b = require("@mailproof/engine/rules/x");\nconst c = require("@nestjs/common");';
    expect(build.rewriteAliases(code, outFile, aliases)).toBe(
      'const a = require("../../../../libs/config/src");\nconst b = require("../../../../libs/engine/src/rules/x");\nconst c = require("@nestjs/common");',
    );
  });

  it("rewrites a dynamic import() too (TypeScript writes it as require('x'), single-quoted)", () => {
    const source = join(build.ROOT, 'apps', 'cli', 'src', 'commands', 'screenshots.command.ts');
    const { writes } = build.transpileFile(ts, source, options, aliases);
    const code = writes.find((write) => write.file.endsWith('screenshots.command.js'))?.text ?? '';
    expect(code).toContain("require('../../../../libs/render/src')");
    expect(code).not.toMatch(/require\(["']@mailproof\//);
  });

  it("emits each constructor's parameter types as decorator metadata, which Nest injects by", () => {
    const source = join(build.ROOT, 'apps', 'api', 'src', 'health', 'health.controller.ts');
    const { writes } = build.transpileFile(ts, source, options, aliases);
    const code = writes.find((write) => write.file.endsWith('health.controller.js'))?.text ?? '';
    expect(code).toMatch(/__metadata\("design:paramtypes", \[[^\]]*HealthCheckService[^\]]*MailproofConfig/);
    expect(code).toContain('require("../../../../libs/config/src")');
    expect(code).not.toContain('require("@mailproof/');
    expect(writes.map((write) => write.file)).toEqual([
      join(build.DIST, 'apps/api/src/health/health.controller.js'),
      join(build.DIST, 'apps/api/src/health/health.controller.js.map'),
    ]);
  });

  it('copies the JSON files the code requires (the version from package.json)', () => {
    const source = join(build.ROOT, 'apps', 'cli', 'src', 'cli.program.ts');
    expect(build.transpileFile(ts, source, options, aliases).json).toEqual([join(build.ROOT, 'package.json')]);
  });

  it('is incremental: with the sources unchanged, a second build transpiles nothing', async () => {
    const first = await build.buildDist();
    expect(first.total).toBe(files.length);
    const second = await build.buildDist();
    expect(second).toMatchObject({ total: files.length, transpiled: 0, removed: 0 });
    expect(existsSync(join(build.DIST, 'launcher', 'main.js'))).toBe(true);
    expect(existsSync(join(build.DIST, 'package.json'))).toBe(true);
  });
});
