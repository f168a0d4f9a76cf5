import { readdirSync, readFileSync, statSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join, relative } from 'node:path';
import ts from 'typescript';

/**
 * What no file of libs/engine/src may use (docs/architecture.md, "The engine stays pure"): a framework,
 * storage, a queue, the network or the file system, the environment, timers, the console, the clock or
 * randomness. I/O comes in through ports (`DnsResolver`) and values (`now`), so every result is a function
 * of its input. Each entry matches one use as `usesOf` writes it.
 */
const FORBIDDEN: readonly RegExp[] = [
  /^import (@nestjs\/.*|typeorm|bullmq|ioredis|pg|undici|tangerine)$/,
  /^import node:/, // every Node built-in: fs, net, http, https, dns, child_process, worker_threads, punycode...
  /^process\.env$/,
  /^console\./,
  /^(fetch|setTimeout|setInterval|setImmediate)\(\)$/,
  /^Date\.now$/,
  /^new Date\(\)$/,
  /^Math\.random$/,
];

const BUILTINS = new Set(builtinModules);

/**
 * The uses in a file that FORBIDDEN is matched against, read from its syntax tree (so comments and strings
 * never count): `import <module>` for imports, re-exports, require() and import() (Node built-ins as
 * `node:<name>`), `<name>.<member>` for a member of a global such as `process.env` or `Date.now`,
 * `<name>()` for a call of a plain name, and `new <name>()`.
 */
function usesOf(fileName: string, text: string): string[] {
  const uses: string[] = [];
  const moduleUse = (specifier: string) => uses.push(`import ${BUILTINS.has(specifier) ? `node:${specifier}` : specifier}`);
  const visit = (node: ts.Node): void => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier))
      moduleUse(node.moduleSpecifier.text);
    if (ts.isCallExpression(node)) {
      const [first] = node.arguments;
      const loadsModule = node.expression.kind === ts.SyntaxKind.ImportKeyword || (ts.isIdentifier(node.expression) && node.expression.text === 'require');
      if (loadsModule && first && ts.isStringLiteral(first)) moduleUse(first.text);
      if (ts.isIdentifier(node.expression)) uses.push(`${node.expression.text}()`);
    }
    if (ts.isNewExpression(node) && ts.isIdentifier(node.expression)) uses.push(`new ${node.expression.text}()`);
    if (ts.isPropertyAccessExpression(node) && ts.isIdentifier(node.expression)) uses.push(`${node.expression.text}.${node.name.text}`);
    ts.forEachChild(node, visit);
  };
  visit(ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true));
  return uses;
}

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return name.endsWith('.ts') && !name.endsWith('.spec.ts') ? [path] : [];
  });
}

describe('engine purity', () => {
  it('finds each forbidden use, and nothing in comments or strings', () => {
    const sample = [
      "import { Injectable } from '@nestjs/common';",
      "import { readFileSync } from 'fs';",
      "export { request } from 'node:http';",
      "const zlib = require('zlib');",
      "void import('undici');",
      'const home = process.env.HOME;',
      "console.warn('x');",
      'fetch(url); setTimeout(done, 1);',
      'const at = Date.now(); const day = new Date(); const pick = Math.random();',
      "// console.log(process.env) in a comment; 'Date.now()' in a string",
    ].join('\n');
    const found = usesOf('sample.ts', sample).filter((use) => FORBIDDEN.some((rule) => rule.test(use)));
    expect(found).toEqual([
      'import @nestjs/common',
      'import node:fs',
      'import node:http',
      'import node:zlib',
      'import undici',
      'process.env',
      'console.warn',
      'fetch()',
      'setTimeout()',
      'Date.now',
      'new Date()',
      'Math.random',
    ]);
  });

  it('holds for every source file of libs/engine/src', () => {
    const files = sources(__dirname);
    // An empty walk would pass anything: the engine has well over a hundred source files.
    expect(files.length).toBeGreaterThan(100);
    const offenders = files.flatMap((file) =>
      usesOf(file, readFileSync(file, 'utf8'))
        .filter((use) => FORBIDDEN.some((rule) => rule.test(use)))
        .map((use) => `${relative(__dirname, file)}: ${use}`),
    );
    expect(offenders).toEqual([]);
  });
});
