import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';

// Comments and docs must point somewhere a reader of this repository can follow: the specification
// and research notes the project was planned from are not in it, so a comment states the rule itself
// instead of citing "section 6" of a file nobody here can open. The scripts' default corpus folder
// (../shared/corpus) is a path they read, not a citation, and stays allowed.
const ROOT = resolve(__dirname, '..', '..');
const SCANNED = ['apps', 'libs', 'launcher', 'test', 'scripts', 'bin', 'docker', 'docs', 'bench', 'README.md', '.env.example', 'docker-compose.yml'];
const OUTSIDE = new RegExp(['decisions\\.md', 'interface\\.md', 'DEVELOPERS\\.md', '\\.\\./shared/(?!corpus)', '\\bresearch/[\\w-]+\\.md', '\\bresearch notes? [\\w-]+\\.md'].join('|'));
const THIS_FILE = relative(ROOT, __filename);

function files(path: string): string[] {
  if (!existsSync(path)) return [];
  if (!statSync(path).isDirectory()) return [path];
  return readdirSync(path)
    .filter((name) => name !== 'node_modules' && name !== 'fixtures')
    .flatMap((name) => files(join(path, name)));
}

describe('comments and docs refer only to files inside the repository', () => {
  it('cites no specification, research note or shared file from outside', () => {
    const offenders: string[] = [];
    for (const file of SCANNED.flatMap((entry) => files(join(ROOT, entry)))) {
      if (!/\.(ts|js|md|yml|yaml|conf|json|example)$|Dockerfile$/.test(file) || relative(ROOT, file) === THIS_FILE) continue;
      readFileSync(file, 'utf8')
        .split('\n')
        .forEach((line, i) => {
          if (OUTSIDE.test(line)) offenders.push(`${relative(ROOT, file)}:${i + 1}: ${line.trim().slice(0, 120)}`);
        });
    }
    expect(offenders).toEqual([]);
  });
});
