#!/usr/bin/env node
// npm run check:dns — Mailproof's DNS audit beside mailauth's evaluation over the scenarios of
// test/utils/dns-reference-scenarios.ts (issue 19's cases and cases after the RFC 7208 test
// suite), each read from one in-process zone by both. Prints every verdict, the agreement figures
// and every difference with the rule that decides it. Offline; a few seconds.
// Verdicts are the published RFCs' (SPF's pass, fail, softfail and neutral kept apart); where
// Mailproof follows a draft instead (DMARCbis), that is a documented difference, not a match. A
// throw from mailauth is counted as its error, never read as an answer.
// Exit code 1 when Mailproof differs from an RFC verdict without a documented reason, from
// mailauth without one, or mailauth threw (docs/deliverability.md, "Accuracy against references").
// CHECK_DNS_ENGINE=<dir>: read the engine's dns/ from another directory (e.g. an older commit's
// libs/engine/src/dns, exported with git archive) to take "before" figures.
'use strict';
const path = require('node:path');
const fs = require('node:fs');
const { build } = require('esbuild');

const root = path.resolve(__dirname, '..');

async function loadCheck() {
  // Inside the worktree (node_modules may be a symlink), so the bundle's requires resolve from here.
  const outfile = path.join(root, 'dist', 'check-dns', `check-${process.pid}.cjs`);
  fs.mkdirSync(path.dirname(outfile), { recursive: true });
  const engine = process.env.CHECK_DNS_ENGINE ? path.resolve(process.env.CHECK_DNS_ENGINE) : null;
  const plugins = engine
    ? [
        {
          name: 'engine-dns-from',
          setup(build) {
            build.onResolve({ filter: /libs\/engine\/src\/dns\/[\w-]+$/ }, (args) => ({ path: path.join(engine, `${path.basename(args.path)}.ts`) }));
          },
        },
      ]
    : [];
  const reexport = (file) => `export * from ${JSON.stringify(path.join(root, 'test', 'utils', file))};\n`;
  fs.writeFileSync(`${outfile}.ts`, reexport('dns-reference-check') + reexport('dns-reference-scenarios'));
  await build({
    entryPoints: [`${outfile}.ts`],
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    packages: 'external',
    outfile,
    plugins,
    logLevel: 'warning',
  });
  try {
    return require(outfile);
  } finally {
    fs.rmSync(outfile, { force: true });
    fs.rmSync(`${outfile}.ts`, { force: true });
  }
}

const show = (verdict) => (verdict === null ? '—' : verdict === '' ? '(no policy)' : verdict);
const pad = (text, width) => String(text).padEnd(width);
const ratio = (n, d) => `${n}/${d} (${d === 0 ? '—' : ((100 * n) / d).toFixed(1)}%)`;

async function main() {
  const { REFERENCE_SCENARIOS, runScenario, figures, loadMailauth } = await loadCheck();
  const mailauthVersion = require('mailauth/package.json').version;
  const mailauth = loadMailauth();
  const outcomes = [];
  for (const scenario of REFERENCE_SCENARIOS) outcomes.push(await runScenario(scenario, mailauth));

  console.log(
    `check:dns — Mailproof's audit beside mailauth ${mailauthVersion}, ${outcomes.length} scenarios over in-process zones${process.env.CHECK_DNS_ENGINE ? ` (engine from ${process.env.CHECK_DNS_ENGINE})` : ''}`,
  );
  console.log('SPF verdicts are the RFC 7208 result for a sender the record does not list: pass | fail | softfail | neutral | none | temperror | permerror.');
  console.log("Verdicts are the published RFCs' (RFC 7208, 7489, 5321, 7505); a draft Mailproof follows instead is a documented difference (≠ RFC, chosen).\n");
  console.log(`${pad('scenario', 36)}${pad('RFC', 12)}${pad('Mailproof', 12)}${pad('mailauth', 12)}`);
  for (const { scenario, mailproof, mailauth: theirs } of outcomes) {
    const offRfc = mailproof === scenario.verdict ? '' : scenario.mailproofDiffers ? '  ≠ RFC (chosen)' : '  ✗ Mailproof≠RFC';
    const marks = `${offRfc}${theirs !== null && theirs !== mailproof ? '  ≠ mailauth' : ''}`;
    console.log(`${pad(scenario.id, 36)}${pad(show(scenario.verdict), 12)}${pad(show(mailproof), 12)}${pad(show(theirs), 12)}${marks}`);
  }

  const all = figures(outcomes);
  console.log('\nFigures');
  console.log(
    `  Mailproof agrees with the RFC verdict:   ${ratio(all.mailproofMatchesRfc, all.scenarios)}, ${all.mailproofChosen.length} documented difference(s) (a draft's rule), ${all.mailproofWrong.length} undocumented`,
  );
  console.log(`  Mailproof agrees with mailauth:          ${ratio(all.mailproofMatchesMailauth, all.compared)}`);
  console.log(
    `  mailauth agrees with the RFC verdict:    ${ratio(all.mailauthMatchesRfc, all.compared)}, ${all.mailauthErrors.length} error(s) (mailauth threw)`,
  );
  for (const kind of ['spf', 'dmarc', 'mx']) {
    const part = figures(outcomes.filter((o) => o.scenario.kind === kind));
    const versus =
      part.compared > 0
        ? `, with mailauth ${part.mailproofMatchesMailauth}/${part.compared}, mailauth with the RFC ${part.mailauthMatchesRfc}/${part.compared}`
        : ' (mailauth does not evaluate MX)';
    console.log(`    ${pad(kind.toUpperCase(), 6)} Mailproof with the RFC ${part.mailproofMatchesRfc}/${part.scenarios}${versus}`);
  }

  if (all.mailproofChosen.length > 0) {
    console.log('\nMailproof differs from the RFC verdict on purpose (documented, not counted as agreeing):');
    for (const { scenario, mailproof } of all.mailproofChosen)
      console.log(`  ${scenario.id}: Mailproof ${show(mailproof)}, RFC ${show(scenario.verdict)} — ${scenario.mailproofDiffers}`);
  }
  if (all.mailauthErrors.length > 0) {
    console.log('\nmailauth threw (counted as its error):');
    for (const { scenario, mailauthError } of all.mailauthErrors) console.log(`  ${scenario.id}: ${mailauthError}`);
  }
  if (all.mailproofWrong.length > 0) {
    console.log('\nMailproof differs from the RFC verdict:');
    for (const { scenario, mailproof } of all.mailproofWrong)
      console.log(`  ${scenario.id}: Mailproof ${show(mailproof)}, RFC ${show(scenario.verdict)} — ${scenario.rule}`);
  }
  console.log(`\nDifferences between Mailproof and mailauth (${all.differences.length}), with the rule that decides each:`);
  for (const { scenario, mailproof, mailauth: theirs } of all.differences) {
    console.log(`  ${scenario.id}: Mailproof ${show(mailproof)}, mailauth ${show(theirs)}, RFC ${show(scenario.verdict)}`);
    console.log(`    rule: ${scenario.rule}`);
    const why = mailproof === scenario.verdict ? scenario.mailauthDiffers : theirs === scenario.verdict ? scenario.mailproofDiffers : undefined;
    console.log(`    why:  ${why ?? 'UNEXPLAINED'}`);
  }
  const ok = all.mailproofWrong.length === 0 && all.unexplained.length === 0 && all.mailauthErrors.length === 0;
  console.log(
    `\nTarget (Mailproof gives every RFC verdict or documents why not, every difference from mailauth documented, no mailauth error): ${ok ? 'met' : `NOT met (${all.mailproofWrong.length} wrong, ${all.unexplained.length} unexplained, ${all.mailauthErrors.length} mailauth errors)`}`,
  );
  process.exitCode = ok ? 0 : 1;
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
