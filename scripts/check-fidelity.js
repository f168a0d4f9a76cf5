#!/usr/bin/env node
/**
 * npm run check:fidelity — the evidence table of every client model (libs/engine/src/clients/models/): for
 * each client and each documented behaviour, its kind, PASS or FAIL of its fixture (and of its counter-case,
 * where the behaviour must not fire), and its sources. Alternative behaviours (documented, not shown by
 * default, such as Thunderbird's dark reader) are listed as "documented". Exits 1 when any row fails.
 * `--client <id>` limits the table to one client; `--json` prints the rows as JSON. No build needed.
 */
'use strict';
const { installTypeScriptLoader } = require('./lib/ts-require');

installTypeScriptLoader();
const { checkFidelity } = require('../libs/engine/src/clients/fidelity');
const { CLIENT_IDS } = require('../libs/engine/src/clients/email-client');

const args = process.argv.slice(2);
const clientArg = args.includes('--client') ? args[args.indexOf('--client') + 1] : undefined;
if (clientArg && !CLIENT_IDS.includes(clientArg)) {
  console.error(`unknown client ${clientArg}; valid: ${CLIENT_IDS.join(', ')}`);
  process.exit(2);
}
const rows = checkFidelity(clientArg ? [clientArg] : CLIENT_IDS);
if (args.includes('--json')) {
  console.log(JSON.stringify(rows, null, 2));
} else {
  const width = (key) => Math.max(...rows.map((r) => String(r[key]).length), key.length);
  const widths = { client: width('client'), behaviour: width('behaviour'), kind: width('kind') };
  console.log(`${'client'.padEnd(widths.client)}  ${'behaviour'.padEnd(widths.behaviour)}  ${'kind'.padEnd(widths.kind)}  case     status      source`);
  for (const row of rows) {
    console.log(`${row.client.padEnd(widths.client)}  ${row.behaviour.padEnd(widths.behaviour)}  ${row.kind.padEnd(widths.kind)}  ${row.case.padEnd(7)}  ${row.status.padEnd(10)}  ${row.sources[0] ?? ''}`);
    for (const failure of row.failures) console.log(`    ${failure}`);
  }
}
const count = (status) => rows.filter((r) => r.status === status).length;
const behaviours = new Set(rows.map((r) => r.behaviour)).size;
console.log(`\ncheck:fidelity: ${rows.length} rows over ${new Set(rows.map((r) => r.client)).size} clients and ${behaviours} behaviours: ${count('PASS')} PASS, ${count('FAIL')} FAIL, ${count('documented')} documented (alternative, not shown)`);
process.exit(count('FAIL') > 0 ? 1 : 0);
