// The test fixtures' DNS server (test/utils/unbound-server.ts) and zones (test/utils/dns-fixture-zones.ts)
// for plain-Node scripts (bench:dns, soak): bundled with esbuild into a throw-away CommonJS file.
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const { buildSync } = require('esbuild');
const { ROOT } = require('./tasks');

function loadDnsFixtures() {
  const outfile = path.join(ROOT, 'node_modules', '.cache', 'dns-fixtures', `helpers-${process.pid}.cjs`);
  fs.mkdirSync(path.dirname(outfile), { recursive: true });
  fs.writeFileSync(`${outfile}.ts`, "export * from '../../../test/utils/unbound-server';\nexport * from '../../../test/utils/dns-fixture-zones';\n");
  buildSync({
    entryPoints: [`${outfile}.ts`],
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    packages: 'external',
    outfile,
    logLevel: 'warning',
  });
  const helpers = require(outfile);
  fs.rmSync(outfile, { force: true });
  fs.rmSync(`${outfile}.ts`, { force: true });
  return helpers;
}

module.exports = { loadDnsFixtures };
