// Lets plain-Node scripts require the project's TypeScript sources without a build: the `@mailproof/*`
// path aliases resolve to libs/<name>/src, and .ts files are transformed by esbuild as they are required.
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const Module = require('node:module');
const esbuild = require('esbuild');

const ROOT = path.resolve(__dirname, '..', '..');
let installed = false;

function installTypeScriptLoader() {
  if (installed) return;
  installed = true;
  const resolveFilename = Module._resolveFilename;
  Module._resolveFilename = function (request, ...rest) {
    const alias = /^@mailproof\/([a-z-]+)(\/.*)?$/.exec(request);
    if (alias) request = path.join(ROOT, 'libs', alias[1], 'src', alias[2] || '');
    return resolveFilename.call(this, request, ...rest);
  };
  require.extensions['.ts'] = (module, filename) => {
    const source = fs.readFileSync(filename, 'utf8');
    const { code } = esbuild.transformSync(source, { loader: 'ts', format: 'cjs', target: 'node20', sourcefile: filename });
    module._compile(code, filename);
  };
}

module.exports = { installTypeScriptLoader, ROOT };
