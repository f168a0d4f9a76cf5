import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { fixture } from './__fixtures__/fixtures';
import { CompileError, compileEmail, disposeCompilers } from './index';
import type { CompileFormat } from './index';

/**
 * Hostile templates: each must end in a CompileError within its limit, reach nothing outside the
 * sandbox (a loopback canary counts any request), and leave the host able to compile normally.
 */
let canaryHits = 0;
let canaryUrl = '';
const canary = http.createServer((_request, response) => {
  canaryHits++;
  response.end('root:x:0:0:canary');
});

beforeAll(async () => {
  await new Promise<void>((resolve) => canary.listen(0, '127.0.0.1', resolve));
  canaryUrl = `http://127.0.0.1:${(canary.address() as AddressInfo).port}/`;
});

afterAll(async () => {
  await disposeCompilers();
  await new Promise((resolve) => canary.close(resolve));
});

/**
 * The compile fails with the expected error. No wall-clock assertion: the message names the limit that
 * stopped it, and a compile that is never stopped fails the test by its jest timeout.
 */
async function expectCompileError(source: string, format: CompileFormat, options: Parameters<typeof compileEmail>[2], message: RegExp) {
  const error = await compileEmail(source, format, options).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(CompileError);
  expect((error as CompileError).message).toMatch(message);
  return error as CompileError;
}

const fast = { timeoutMs: 1000 };
/** For compiles that must succeed: their subject is isolation, not speed, and a loaded CI machine is slow. */
const roomy = { timeoutMs: 10_000 };

describe('hostile JSX', () => {
  it('stops an infinite loop at the time limit', async () => {
    await expectCompileError('export default function E() { while (true) {} }', 'jsx', fast, /time limit of 1000 ms/);
  });

  it('stops an allocation bomb at the memory limit', async () => {
    const source = 'export default function E() { const hoard = []; while (true) hoard.push(new Array(1e6).fill(Math.random())); }';
    await expectCompileError(source, 'jsx', { timeoutMs: 5000, memoryLimitMb: 64 }, /memory limit|time limit/);
  });

  it.each([
    [
      'require of a Node module by a computed name',
      "export default function E() { const name = 'f' + 's'; const fs = require(name); return <p>{String(fs)}</p>; }",
      /"fs" is not allowed/,
    ],
    ['process.mainModule', "export default function E() { return <p>{String(process.mainModule.require('child_process'))}</p>; }", /TypeError/],
    ['process.binding', "export default function E() { return <p>{String(process.binding('fs'))}</p>; }", /TypeError/],
    ['fetch', "export default function E() { fetch('URL'); return <p>x</p>; }", /fetch is not defined/],
    [
      'the constructor chain to process',
      "export default function E() { const p = ({}).constructor.constructor('return process')(); return <p>{String(p.mainModule.require('fs'))}</p>; }",
      /TypeError/,
    ],
    ['dynamic import by a computed name', "export default function E() { const m = 'child' + '_process'; import(m); return <p>x</p>; }", /not allowed/],
  ])('refuses %s', async (_label, source, message) => {
    await expectCompileError(source.replace('URL', canaryUrl), 'jsx', fast, message);
  });

  it("refuses import('fs') at transpile time", async () => {
    await expectCompileError("export default async function E() { await import('fs'); return null; }", 'jsx', fast, /Import of "fs" is not allowed/);
  });

  it('lets the constructor chain reach only an inert stand-in: no require, no host env, no fetch', async () => {
    const source = `export default function E() {
      const escape = ({}).constructor.constructor;
      const report = escape("return [typeof require, typeof fetch, typeof module, Object.keys(process.env).join(','), typeof process.exit, typeof process.mainModule].join('|')")();
      return <p>{report}</p>;
    }`;
    const result = await compileEmail(source, 'jsx', roomy);
    expect(result.html).toContain('<p>undefined|undefined|undefined|NODE_ENV|undefined|undefined</p>');
  });

  it('gives every render a fresh isolate: globals set by one template are gone in the next', async () => {
    await compileEmail('globalThis.leaked = "secret"; export default () => <p>set</p>;', 'jsx', roomy);
    const result = await compileEmail('export default () => <p>{typeof globalThis.leaked}</p>;', 'jsx', roomy);
    expect(result.html).toContain('<p>undefined</p>');
  });
});

describe('hostile Maizzle', () => {
  it('stops an infinite loop in an expression at the time limit', async () => {
    await expectCompileError('<p>{{ (() => { while (true) {} })() }}</p>', 'maizzle', fast, /time limit of 1000 ms/);
  });

  it('stops an allocation bomb in an expression', async () => {
    const source = '<p>{{ (() => { const hoard = []; while (true) hoard.push(new Array(1e6).fill(Math.random())); })() }}</p>';
    await expectCompileError(source, 'maizzle', { timeoutMs: 5000, memoryLimitMb: 64 }, /memory limit|time limit/);
  });

  it('stops an exploding <each> loop', async () => {
    await expectCompileError(
      '<each loop="i in Array.from({ length: 1e5 })"><each loop="j in Array.from({ length: 1e5 })"><p>{{ i }}</p></each></each>',
      'maizzle',
      { timeoutMs: 2000, memoryLimitMb: 64 },
      /memory limit|time limit/,
    );
  });

  it.each([
    ['process', '<p>{{ process.exit(1) }}</p>', /process is not defined/],
    ['require', "<p>{{ require('fs').readFileSync('/etc/passwd', 'utf8') }}</p>", /require is not defined/],
    ['fetch', "<p>{{ fetch('URL') }}</p>", /fetch is not defined/],
    ['the constructor chain', "<p>{{ this.constructor.constructor('return process')().mainModule }}</p>", /process is not defined/],
    ['the constructor chain from a string', "<p>{{ ''.constructor.constructor('return require')()('fs') }}</p>", /require is not defined/],
    ['dynamic import', "<p>{{ import('fs') }}</p>", /import\(\) is not available/],
  ])('refuses %s in an expression, with its line', async (_label, source, message) => {
    const error = await expectCompileError(`---\ntitle: hostile\n---\n${source.replace('URL', canaryUrl)}`, 'maizzle', fast, message);
    expect(error.line).toBe(4);
  });

  it('refuses <fetch> without fetching', async () => {
    await expectCompileError(`<div>\n  <fetch url="${canaryUrl}">{{ response }}</fetch>\n</div>`, 'maizzle', fast, /<fetch> is not supported/);
  });

  it.each([
    ['<extends src="/etc/passwd">', '<extends src="/etc/passwd">\n  <block name="template">x</block>\n</extends>', /Layout "[^"]*passwd" cannot be resolved/],
    ['<component src="/etc/passwd">', '<p>a</p>\n<component src="/etc/passwd" />', /Component "[^"]*passwd" cannot be resolved/],
    ['<component> with a parent path', '<component src="../../../../etc/passwd"></component>', /cannot be resolved/],
    ['<extends> of a URL', `<extends src="${'URL'}"></extends>`, /cannot be resolved/],
  ])('never reads files or URLs: %s', async (_label, source, message) => {
    const error = await expectCompileError(source.replace('URL', canaryUrl), 'maizzle', fast, message);
    expect(error.message).not.toMatch(/root:x:0:0/);
  });

  it('exposes nothing of the host to expressions', async () => {
    const result = await compileEmail("<p>{{ [typeof require, typeof process, typeof fetch, typeof globalThis.module].join('|') }}</p>", 'maizzle', roomy);
    expect(result.html).toContain('<p>undefined|undefined|undefined|undefined</p>');
  });
});

describe('hostile CSS and MJML', () => {
  it('stops CSS inlining that runs past the time limit, and the next compile still works', async () => {
    const rules = Array.from({ length: 3000 }, (_, i) => `table td.c${i} p span, div > p ~ span.c${i} { color: #${(i % 900) + 100}; }`).join('\n');
    const cells = Array.from({ length: 2500 }, (_, i) => `<td class="c${i}"><p><span class="c${i}">x</span></p></td>`).join('');
    const source = `<html><head><style>${rules}</style></head><body><table><tr>${cells}</tr></table></body></html>`;
    await expectCompileError(source, 'maizzle', { timeoutMs: 300 }, /time limit|stopped/);
    const next = await compileEmail('<p class="m-0">after</p>', 'maizzle');
    expect(next.html).toContain('after');
  });

  it('refuses MJML includes of system files without reading them', async () => {
    const result = await compileEmail('<mjml><mj-body><mj-include path="/etc/passwd" /></mj-body></mjml>', 'mjml', { mjmlValidation: 'soft' });
    expect(result.html).not.toMatch(/root:x:0:0/);
    // Refused, not read and then dropped: the compiler says it left the include out.
    expect(result.warnings.filter((w) => /mj-include/.test(w.message))).toHaveLength(1);
  });
});

describe('the host afterwards', () => {
  it('never received a request on the canary', () => {
    expect(canaryHits).toBe(0);
  });

  it('still compiles every format, concurrently with hostile templates, without gross memory growth', async () => {
    const before = process.memoryUsage().rss;
    for (let round = 0; round < 3; round++) {
      const results = await Promise.allSettled([
        compileEmail(fixture('welcome-email.tsx.txt'), 'jsx'),
        compileEmail('export default function E() { while (true) {} }', 'jsx', { timeoutMs: 500 }),
        compileEmail('<x-main><p class="m-0">{{ page.title }}</p></x-main>', 'maizzle'),
        compileEmail('<p>{{ (() => { while (true) {} })() }}</p>', 'maizzle', { timeoutMs: 500 }),
        compileEmail('<mjml><mj-body><mj-section><mj-column><mj-text>ok</mj-text></mj-column></mj-section></mj-body></mjml>', 'mjml'),
      ]);
      expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled', 'rejected', 'fulfilled']);
      for (const rejected of results.filter((r): r is PromiseRejectedResult => r.status === 'rejected')) {
        expect(rejected.reason).toBeInstanceOf(CompileError);
      }
    }
    const growthMb = (process.memoryUsage().rss - before) / 1024 / 1024;
    expect(growthMb).toBeLessThan(300);
  });
});
