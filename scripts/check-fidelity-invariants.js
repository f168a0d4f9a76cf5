#!/usr/bin/env node
/**
 * npm run check:fidelity-invariants — the client models' invariants over a corpus of real emails
 * (../shared/corpus/html, or FIDELITY_CORPUS_DIR): for every client, a rule it keeps matches in its markup
 * exactly the elements it matched in the email unless a behavior documents the limit (selector invariant),
 * and every shown behavior's fixture fails against the identity (a client that returns the email
 * untouched). The engine suite checks the same over generated emails (selector-invariant.spec.ts); tests
 * never read the corpus. Exits 1 on any violation. No build needed. docs/clients.md, "Invariants".
 */
'use strict';
const path = require('node:path');
const fs = require('node:fs');
const { installTypeScriptLoader } = require('./lib/ts-require');

installTypeScriptLoader();
const { checkSelectorInvariant } = require('../libs/engine/src/testing/selector-invariant');
const { fixturesTheIdentityPasses } = require('../libs/engine/src/fidelity');
const { CLIENT_IDS } = require('../libs/engine/src/clients/email-client');

const root = path.resolve(__dirname, '..');
const corpusDir = process.env.FIDELITY_CORPUS_DIR || path.resolve(root, '..', 'shared', 'corpus', 'html');

const identity = fixturesTheIdentityPasses();
console.log(
  `identity: ${identity.length} shown behavior fixture(s) the untouched email passes${identity.length ? `: ${identity.map((r) => `${r.client}/${r.behavior}`).join(', ')}` : ''}`,
);

let violations = identity.length;
if (!fs.existsSync(corpusDir)) {
  console.log(`selector invariant: no corpus at ${corpusDir}; only the identity check ran.`);
} else {
  const files = fs
    .readdirSync(corpusDir)
    .filter((f) => f.endsWith('.html'))
    .sort();
  const totals = { checked: 0, limited: 0, dropped: 0, violations: 0 };
  const byClient = new Map(CLIENT_IDS.map((id) => [id, { checked: 0, limited: 0, violations: 0 }]));
  let failedFiles = 0;
  for (const file of files) {
    let result;
    try {
      result = checkSelectorInvariant(fs.readFileSync(path.join(corpusDir, file), 'utf8'));
    } catch (error) {
      failedFiles++;
      console.log(`  ${file}: not checked (${error.message})`);
      continue;
    }
    totals.checked += result.checked;
    totals.limited += result.limited;
    totals.dropped += result.dropped;
    totals.violations += result.violations.length;
    for (const violation of result.violations.slice(0, 3))
      console.log(`  ${file} ${violation.client}: ${violation.selector} -> ${violation.rewritten} matched [${violation.expected}] now [${violation.actual}]`);
    for (const id of CLIENT_IDS) {
      const entry = byClient.get(id);
      entry.violations += result.violations.filter((v) => v.client === id).length;
    }
  }
  for (const [id, entry] of byClient) if (entry.violations > 0) console.log(`  ${id}: ${entry.violations} violation(s)`);
  console.log(
    `selector invariant over ${files.length - failedFiles} of ${files.length} corpus emails x ${CLIENT_IDS.length} clients: ${totals.checked} selectors compared, ${totals.violations} violation(s); ${totals.limited} documented limits, ${totals.dropped} rules dropped by the client`,
  );
  violations += totals.violations;
}
process.exitCode = violations > 0 ? 1 : 0;
