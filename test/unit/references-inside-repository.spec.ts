import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

// Comments and docs must point somewhere a reader of this repository can follow: the specification
// and research notes the project was planned from are not in it, so a comment states the rule itself
// instead of citing "section 6" of a file nobody here can open. The scripts' default corpus folder
// (../shared/corpus) is a path they read, not a citation, and stays allowed.
const ROOT = resolve(__dirname, '..', '..');
const SCANNED = ['apps', 'libs', 'launcher', 'test', 'scripts', 'bin', 'docker', 'docs', 'bench', '.ci', 'README.md', '.env.example', 'docker-compose.yml'];
const OUTSIDE = new RegExp(['\\.\\./shared/(?!corpus)', '\\bresearch/[\\w-]+\\.md', '\\binterface(?:\\.md)?,? sections? \\d'].join('|'));
/** A markdown file named in a line: it must exist, from the root, the docs folder or the naming file's folder. */
const MARKDOWN = /(?<![\w./-])((?:\.\.?\/)*[\w./-]*[\w-]\.md)\b/g;
const THIS_FILE = relative(ROOT, __filename);

function files(path: string): string[] {
  if (!existsSync(path)) return [];
  if (!statSync(path).isDirectory()) return [path];
  return readdirSync(path)
    .filter((name) => name !== 'node_modules' && name !== 'fixtures')
    .flatMap((name) => files(join(path, name)));
}

/** Text files a reader opens: sources, docs, config, and the shell scripts of .ci/ (which have no extension). */
function isScanned(file: string): boolean {
  return /\.(ts|js|md|yml|yaml|conf|json|example|sh)$|Dockerfile$/.test(file) || relative(ROOT, file).startsWith('.ci/');
}

function missingMarkdown(file: string, line: string): string[] {
  return [...line.matchAll(MARKDOWN)]
    .map((match) => match[1])
    .filter((name) => ![join(ROOT, name), join(ROOT, 'docs', name), join(dirname(file), name)].some((candidate) => existsSync(candidate)));
}

describe('comments and docs refer only to files inside the repository', () => {
  it('cites no specification, research note, shared file or markdown file that is not here', () => {
    const scanned = SCANNED.flatMap((entry) => files(join(ROOT, entry))).filter((file) => isScanned(file) && relative(ROOT, file) !== THIS_FILE);
    // .ci/run is read too: CI's script is documentation of how the project is built.
    expect(scanned.map((file) => relative(ROOT, file))).toContain('.ci/run');
    const offenders: string[] = [];
    for (const file of scanned) {
      readFileSync(file, 'utf8')
        .split('\n')
        .forEach((line, i) => {
          if (OUTSIDE.test(line) || missingMarkdown(file, line).length > 0) offenders.push(`${relative(ROOT, file)}:${i + 1}: ${line.trim().slice(0, 120)}`);
        });
    }
    expect(offenders).toEqual([]);
  });

  it('knows a citation from outside when it sees one', () => {
    const cited = [
      'see decisions.md',
      'as interface.md says',
      '(interface section 3)',
      'research/reliability.md',
      '(research: reliability.md section 1)',
      'the way DEVELOPERS.md shows',
      '../shared/spec.md',
    ];
    expect(cited.filter((line) => !(OUTSIDE.test(line) || missingMarkdown(__filename, line).length > 0))).toEqual([]);
    const inside = ['docs/gate.md, "Baselines"', 'README.md', 'engine.md, "Benchmark"', '../shared/corpus/html', 'RFC 7208 section 4.6.4'];
    expect(inside.filter((line) => OUTSIDE.test(line) || missingMarkdown(join(ROOT, 'docs', 'reports.md'), line).length > 0)).toEqual([]);
  });
});
