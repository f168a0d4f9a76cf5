// The shared corpus as its source repositories laid it out, so that a template's local imports can be
// collected the way `mailproof analyze` does in a real project (check:corpus, check:fix).
'use strict';
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { installTypeScriptLoader, ROOT } = require('./ts-require');

/**
 * The corpus as its source repositories laid them out: every MANIFEST.tsv row copied to
 * <temp>/<repository>/<path_in_repository>, with a package.json marking each repository's root (the CLI
 * reads imports only inside a project). Without a manifest, the corpus folder is one project.
 */
function layOutProjects(corpus) {
  installTypeScriptLoader();
  const { readLocalImports } = require(path.join(ROOT, 'apps/cli/src/commands/local-imports.ts'));
  const manifest = path.join(corpus, 'MANIFEST.tsv');
  const placed = new Map();
  let temp;
  if (fs.existsSync(manifest)) {
    temp = fs.mkdtempSync(path.join(os.tmpdir(), 'mailproof-corpus-projects-'));
    const [header, ...rows] = fs
      .readFileSync(manifest, 'utf8')
      .split('\n')
      .filter((line) => line.trim() !== '');
    const column = Object.fromEntries(header.split('\t').map((name, index) => [name, index]));
    for (const row of rows) {
      const cells = row.split('\t');
      const repository = cells[column.source_repository].replace(/^https?:\/\//, '').replace(/[^\w.-]+/g, '_');
      const target = path.join(temp, repository, cells[column.path_in_repository]);
      fs.mkdirSync(path.dirname(target), { recursive: true });
      fs.copyFileSync(path.join(corpus, cells[column.file]), target);
      fs.writeFileSync(path.join(temp, repository, 'package.json'), '{}');
      placed.set(cells[column.file], target);
    }
  }
  return {
    async importsOf(relativeFile, source, format) {
      const location = placed.get(relativeFile) ?? path.join(corpus, relativeFile);
      try {
        return await readLocalImports(location, source, format);
      } catch (error) {
        console.log(`${relativeFile}\timports not collected: ${error.message}`);
        return {};
      }
    },
    dispose() {
      if (temp) fs.rmSync(temp, { recursive: true, force: true });
    },
  };
}

module.exports = { layOutProjects };
