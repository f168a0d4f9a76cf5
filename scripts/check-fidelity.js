#!/usr/bin/env node
/**
 * npm run check:fidelity — the evidence table of every client model (libs/engine/src/clients/models/): for
 * each client and each documented behavior, its kind, PASS or FAIL of its fixture (and of its counter-case,
 * where the behavior must not fire), and its sources. Alternative behaviors (documented, not shown by
 * default, such as Thunderbird's dark reader) are listed as "documented". Exits 1 when any row fails.
 * `--client <id>` limits the table to one client; `--json` prints the rows as JSON; `--markdown` prints the
 * evidence table as docs/client-evidence.md holds it (regenerate that file with it). No build needed.
 *
 * It also checks the behaviour inventory (libs/engine/src/clients/inventory/, docs/clients.md): it prints, per
 * client and per source, how many documented behaviours are modeled, not modeled and not applicable, and the
 * share of caniemail's markup and CSS notes a behaviour models; it exits 1 when a row has no decision or a
 * decision is unsound. `--write-inventory` regenerates docs/inventory/ (one file per client and a summary).
 */
'use strict';
const { installTypeScriptLoader } = require('./lib/ts-require');

installTypeScriptLoader();
const { checkFidelity } = require('../libs/engine/src/fidelity');
const { CLIENT_IDS } = require('../libs/engine/src/clients/email-client');
const { CLIENT_MODELS } = require('../libs/engine/src/clients/models/client-models');
const { getClient } = require('../libs/engine/src/clients/email-clients');
const inventory = require('../libs/engine/src/clients/inventory/inventory');
const fs = require('node:fs');
const path = require('node:path');

const args = process.argv.slice(2);
const clientArg = args.includes('--client') ? args[args.indexOf('--client') + 1] : undefined;
if (clientArg && !CLIENT_IDS.includes(clientArg)) {
  console.error(`unknown client ${clientArg}; valid: ${CLIENT_IDS.join(', ')}`);
  process.exit(2);
}
if (args.includes('--write-inventory')) {
  writeInventory();
  process.exit(0);
}
const rows = checkFidelity(clientArg ? [clientArg] : CLIENT_IDS);
if (args.includes('--json')) {
  console.log(JSON.stringify(rows, null, 2));
} else if (args.includes('--markdown')) {
  printMarkdown(rows);
} else {
  const width = (key) => Math.max(...rows.map((r) => String(r[key]).length), key.length);
  const widths = { client: width('client'), behavior: width('behavior'), kind: width('kind') };
  console.log(`${'client'.padEnd(widths.client)}  ${'behavior'.padEnd(widths.behavior)}  ${'kind'.padEnd(widths.kind)}  case     status      source`);
  for (const row of rows) {
    console.log(
      `${row.client.padEnd(widths.client)}  ${row.behavior.padEnd(widths.behavior)}  ${row.kind.padEnd(widths.kind)}  ${row.case.padEnd(7)}  ${row.status.padEnd(10)}  ${row.sources[0] ?? ''}`,
    );
    for (const failure of row.failures) console.log(`    ${failure}`);
  }
}
const count = (status) => rows.filter((r) => r.status === status).length;
const behaviors = new Set(rows.map((r) => r.behavior)).size;
// exitCode, never process.exit(): exiting at once cuts stdout short when it is a pipe (the 72 KB markdown
// table was truncated at 64 KB on Node 20, which failed CI's client-evidence-doc test).
process.exitCode = count('FAIL') > 0 ? 1 : 0;
if (!args.includes('--markdown')) {
  console.log(
    `\ncheck:fidelity: ${rows.length} rows over ${new Set(rows.map((r) => r.client)).size} clients and ${behaviors} behaviors: ${count('PASS')} PASS, ${count('FAIL')} FAIL, ${count('documented')} documented (alternative, not shown)`,
  );
  if (!printInventory()) process.exitCode = 1;
}

/** The behaviour inventory's counts per client and source; false when a row has no decision or a decision is unsound. */
function printInventory() {
  const { problems, undecided } = inventory.behaviourInventory();
  const sources = inventory.INVENTORY_SOURCES;
  console.log('\nbehaviour inventory (modeled / not modeled / not applicable):');
  console.log(`${'client'.padEnd(24)}${sources.map((s) => s.padEnd(16)).join('')}`);
  for (const client of clientArg ? [clientArg] : CLIENT_IDS) {
    const counts = inventory.inventoryCountsBySource(client);
    const cell = (c) => `${c.modeled} / ${c.notModeled} / ${c.notApplicable}`.padEnd(16);
    console.log(`${client.padEnd(24)}${sources.map((s) => cell(counts[s])).join('')}`);
  }
  console.log(`sources read: ${sources.map((s) => `${s} ${inventory.SOURCES_READ_AT[s]}`).join(', ')}`);
  const coverage = inventory.noteCoverage();
  console.log(
    `caniemail notes describing a markup or CSS behaviour: ${coverage.modeled} of ${coverage.behaviourRows} rows modeled by a behaviour (${coverage.percent}%, target 80%)`,
  );
  for (const key of undecided) console.log(`    NO DECISION caniemail:${key} (add it to libs/engine/src/clients/inventory/caniemail-decisions.ts)`);
  for (const problem of problems) console.log(`    UNSOUND ${problem}`);
  return undecided.length === 0 && problems.length === 0;
}

/** Writes docs/inventory/<client>.md for every client and docs/inventory/README.md. */
function writeInventory() {
  const dir = path.join(__dirname, '..', 'docs', 'inventory');
  fs.mkdirSync(dir, { recursive: true });
  const names = Object.fromEntries(CLIENT_IDS.map((id) => [id, getClient(id).name]));
  for (const client of CLIENT_IDS) fs.writeFileSync(path.join(dir, `${client}.md`), inventory.inventoryMarkdown(client, names[client]));
  fs.writeFileSync(path.join(dir, 'README.md'), inventory.inventorySummaryMarkdown(names));
  console.log(`wrote ${CLIENT_IDS.length + 1} files in docs/inventory/`);
}

/** The evidence table per client: behavior, kind, what it does, fixture result, sources with their dates. */
function printMarkdown(results) {
  const cell = (text) => String(text).replace(/\|/g, '\\|').replace(/\n/g, ' ').replace(/</g, '&lt;');
  console.log('# Client evidence\n');
  console.log('Generated by `npm run -s check:fidelity -- --markdown` from the client models (libs/engine/src/clients/models/);');
  console.log('every row is checked by a fixture of our own in the engine suite. How to read and extend it: docs/clients.md.\n');
  for (const client of clientArg ? [clientArg] : CLIENT_IDS) {
    const model = CLIENT_MODELS[client];
    const { name, darkMode } = getClient(client);
    console.log(`## ${name} (\`${client}\`)\n`);
    console.log(`Engine ${model.engine}; dark model \`${darkMode}\`; checked ${model.checkedAt}.\n`);
    console.log('| behavior | kind | what the client does | fixture | sources |');
    console.log('|---|---|---|---|---|');
    for (const behavior of model.behaviors) {
      const own = results.filter((r) => r.client === client && r.behavior === behavior.id);
      const status = own.map((r) => (r.case === 'counter' ? `${r.status} (counter-case)` : r.status)).join(', ');
      const sources = behavior.evidence.map((e) => `[${cell(e.title)}](${e.url}) (${e.date})${e.note ? ` — ${cell(e.note)}` : ''}`).join('<br>');
      console.log(
        `| \`${behavior.id}\`${behavior.alternative ? ' (alternative, not shown)' : ''} | ${behavior.kind} | ${cell(behavior.summary)} | ${status} | ${sources} |`,
      );
    }
    console.log('');
  }
}
