#!/usr/bin/env node
/**
 * npm run check:fix — the auto-fix (fixEmail, docs/fix.md) over every email of the shared corpus
 * (../shared/corpus, or the folder given as the first argument): HTML as it is, JSX, MJML and Maizzle
 * compiled by the sandbox with their local imports laid out as in their repositories
 * (scripts/lib/corpus-projects.js, as check:corpus does); an email that does not compile is listed with its reason.
 *
 * Two runs: the default tiers (safe) and safe + layout. Per email it prints the errors and warnings
 * before and after, the fixes applied and skipped, the findings introduced, whether fixing the output again
 * applies nothing and returns the same text (idempotent), and whether the visible text (the plain-text
 * report) and the links (every href of the link report, in order) are the same before and after.
 *
 * The resolved share: the findings the run's rules target (each rule's `resolves`, whatever FIX_RULES holds
 * when this runs) counted before and after fixing; the denominator is every one of them. Those a rule refused
 * on purpose (a content image without alt: only its author can write the words) stay in it and are also
 * counted apart: an element's finding is matched to a refusal on its line; a compatibility finding (one per
 * client and feature for the whole email) counts as refused when one of its rules refused a place and it is
 * still there after.
 *
 * Introduced is measured twice. The fix's own figure (`introduced` of its answer) comes from the findings
 * ledger that also decides what the fix rolls back, so it is zero by construction. The independent figure
 * runs the full analyzeEmail (every report: compatibility, transforms, dark mode, spam, size, links,
 * accessibility, images, inbox, template, design, VML, plain text, dark contrast) on the email before and
 * after the fix and counts, per report, the findings the after-analysis has that the before-analysis did not
 * (scripts/lib/analysis-findings.js: keyed by report, rule, client and property, element or text; never by
 * line or message). Mobile contrast needs a page rendered in Chromium: analyzeEmail has none, so it is in
 * this count only with --rendered, which paints the mobile clients' light and dark views of every email a
 * fix changed, before and after, with libs/render as worker-render does (from dist/: run npm run build first).
 *
 * Targets: safe run ≥ 80% of the targeted findings resolved; both runs 0 introduced (both figures), 100%
 * idempotent, 100% of texts and links preserved. Exits 1 when one is missed. Runs the TypeScript sources directly
 * (esbuild transform on require): no build needed. Method and figures: docs/fix.md, "Measured".
 */
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const { installTypeScriptLoader, ROOT } = require('./lib/ts-require');
const { layOutProjects } = require('./lib/corpus-projects');
const { introducedFindings } = require('./lib/analysis-findings');

const corpusDir = path.resolve(process.argv.slice(2).find((arg) => !arg.startsWith('--')) || path.join(ROOT, '..', 'shared', 'corpus'));
const verbose = process.argv.includes('--verbose');
/** --rendered: also paint each changed email's mobile clients in Chromium (libs/render from dist/: build first) for mobile contrast. */
const rendered = process.argv.includes('--rendered');
/** The sandbox's time limit per compile (the API's is lower; a cold compile process on a busy machine needs more). */
const COMPILE_TIMEOUT_MS = Number(process.env.CHECK_FIX_COMPILE_TIMEOUT_MS) || 5000;
const FORMATS = ['html', 'jsx', 'mjml', 'maizzle'];
const RESOLVED_TARGET = 0.8;
const RUNS = [
  { label: 'safe (default tiers)', tiers: undefined, ruleTiers: ['safe'], resolvedTarget: true },
  { label: 'safe + layout', tiers: ['safe', 'layout'], ruleTiers: ['safe', 'layout'], resolvedTarget: false },
];

if (!fs.existsSync(corpusDir)) {
  console.log(`check:fix: no corpus at ${corpusDir}; nothing to check.`);
  process.exit(0);
}

installTypeScriptLoader();
const engine = require(path.join(ROOT, 'libs/engine/src/index.ts'));
const { buildFindingLedger } = require(path.join(ROOT, 'libs/engine/src/autofix/finding-ledger.ts'));
const { parseEmail } = require(path.join(ROOT, 'libs/engine/src/parse/parse-email.ts'));

/** Every corpus email as HTML: HTML files as they are, the other formats compiled with their imports. */
async function loadCorpus() {
  const { compileEmail, disposeCompilers, warmCompilers } = require(path.join(ROOT, 'libs/sandbox/src/index.ts'));
  const projects = layOutProjects(corpusDir);
  const emails = [];
  const failed = [];
  try {
    // Warming is optional (a compile starts its process on first use): on a loaded machine the warm-up's own
    // time limit can pass before a process is ready, which must not end the check.
    await warmCompilers().catch((error) => console.log(`compile processes not warmed (${error.message}); the first compile starts them`));
    for (const format of FORMATS) {
      const dir = path.join(corpusDir, format);
      if (!fs.existsSync(dir)) continue;
      for (const file of fs.readdirSync(dir).sort()) {
        const name = `${format}/${file}`;
        const source = fs.readFileSync(path.join(dir, file), 'utf8');
        if (format === 'html') {
          emails.push({ name, format, html: source, compileWarnings: [], sourcePositions: undefined });
          continue;
        }
        const files = await projects.importsOf(name, source, format);
        try {
          const compiled = await compileEmail(source, format, { timeoutMs: COMPILE_TIMEOUT_MS, files });
          emails.push({ name, format, html: compiled.html, compileWarnings: compiled.warnings, sourcePositions: compiled.sourcePositions });
        } catch (error) {
          failed.push({
            name,
            reason: `${error && error.name}: ${String(error && error.message)
              .split('\n')[0]
              .slice(0, 160)}`,
          });
        }
      }
    }
  } finally {
    projects.dispose();
    await disposeCompilers();
  }
  return { emails, failed };
}

/**
 * The full analysis of one version of an email, and what no fix may change in it: the visible text (the
 * plain-text report) and the links, in document order.
 */
function contentOf(email, html) {
  const analysis = engine.analyzeEmail(html, { format: email.format, compileWarnings: email.compileWarnings, sourcePositions: email.sourcePositions });
  return { analysis, text: analysis.plainText.text, hrefs: analysis.linkReport.links.map((link) => link.href) };
}

const targetKey = (target) => `${target.report}/${target.rule}`;

/**
 * Findings of `target` before fixing that a refusal of one of its rules explains. A quality-report finding
 * is one element's: it is matched to a refusal on its line (as many as there are refusals there). A
 * compatibility finding is one per client and feature for the whole email, placed at the feature's first
 * use, so it cannot be matched by line: when a rule refused a place anywhere in the email, the findings of its
 * target still there after fixing are the ones it explains.
 */
function refusedCount(target, before, after, refusedLines) {
  if (refusedLines.length === 0) return 0;
  if (target.report === 'css') return Math.min(before.count(target), after.count(target));
  const left = new Map();
  for (const line of refusedLines) left.set(line, (left.get(line) ?? 0) + 1);
  let refused = 0;
  for (const finding of before.findings) {
    if (finding.report !== target.report || finding.rule !== target.rule || !left.get(finding.line)) continue;
    left.set(finding.line, left.get(finding.line) - 1);
    refused++;
  }
  return refused;
}

/** Per target of the run's rules: its findings before and after fixing, and how many a rule refused on purpose. */
function targetCounts(email, fixedHtml, rules) {
  const clients = engine.resolveClients(undefined);
  const ledger = (html) => buildFindingLedger(parseEmail(html), email.format, clients, email.compileWarnings);
  const before = ledger(email.html);
  const after = fixedHtml === email.html ? before : ledger(fixedHtml);
  const refusedLines = new Map();
  for (const rule of rules) {
    const { refusals } = rule.find({ parsed: before.parsed, report: before.report, clients, before });
    for (const target of rule.resolves) {
      const lines = refusedLines.get(targetKey(target)) ?? [];
      lines.push(...refusals.map((refusal) => refusal.line));
      refusedLines.set(targetKey(target), lines);
    }
  }
  const counts = new Map();
  for (const rule of rules) {
    for (const target of rule.resolves) {
      const key = targetKey(target);
      if (counts.has(key)) continue;
      counts.set(key, { before: before.count(target), after: after.count(target), refused: refusedCount(target, before, after, refusedLines.get(key)) });
    }
  }
  return counts;
}

/** One email through one run: the fix, the fix of its output, what the reader sees before and after. */
/**
 * Mobile contrast as worker-render measures it: the mobile clients' light and dark views of `html` painted in
 * Chromium (images stand in as broken, nothing is fetched), then the rendered report. Needs `dist/` (npm run build).
 */
async function paintedMobileContrast(html) {
  const render = require(path.join(ROOT, 'dist', 'libs', 'render', 'src'));
  if (!paintedMobileContrast.pool) paintedMobileContrast.pool = await render.RenderPool.launch({ concurrency: 2, pageTimeoutMs: 120_000, maxHeightPx: 6_000 });
  const clients = engine.CLIENT_IDS.filter((id) => engine.getClient(id).category === 'mobile');
  const views = engine.renderClientViews(html, { clients });
  const painted = await render.renderEmail(paintedMobileContrast.pool, views, ['light', 'dark'], new render.EmailImageLoader(null));
  paintedMobileContrast.versions = (paintedMobileContrast.versions ?? 0) + 1;
  paintedMobileContrast.failures = (paintedMobileContrast.failures ?? 0) + painted.failed.length;
  return { mobileContrast: render.renderedReports(painted.painted, clients, ['light', 'dark']).mobileContrast, failed: painted.failed.length };
}

/** With --rendered, an analysis with the rendered mobile contrast added (what a rendered preview result holds). */
async function withMobileContrast(content, html) {
  if (!rendered || content.rendered) return content;
  const { mobileContrast, failed } = await paintedMobileContrast(html);
  content.rendered = true;
  content.paintFailures = failed;
  content.analysis = { ...content.analysis, mobileContrast };
  return content;
}

async function checkEmail(email, run, rules, contentBefore) {
  const options = { format: email.format, tiers: run.tiers, compileWarnings: email.compileWarnings, sourcePositions: email.sourcePositions };
  const result = engine.fixEmail(email.html, options);
  const again = engine.fixEmail(result.html, options);
  const contentAfter = result.html === email.html ? contentBefore : contentOf(email, result.html);
  if (contentAfter !== contentBefore) {
    await withMobileContrast(contentBefore, email.html);
    await withMobileContrast(contentAfter, result.html);
  }
  return {
    name: email.name,
    before: result.before,
    after: result.after,
    applied: result.applied.length,
    skipped: result.skipped.length,
    introduced: result.introduced,
    analyzed: introducedFindings(contentBefore.analysis, contentAfter.analysis),
    idempotent: again.applied.length === 0 && again.html === result.html,
    textPreserved: contentAfter.text === contentBefore.text,
    linksPreserved: contentAfter.hrefs.length === contentBefore.hrefs.length && contentAfter.hrefs.every((href, i) => href === contentBefore.hrefs[i]),
    targets: targetCounts(email, result.html, rules),
    skippedFixes: result.skipped,
    appliedFixes: verbose ? result.applied : [],
  };
}

function printTable(header, rows) {
  const widths = header.map((title, i) => Math.max(title.length, ...rows.map((row) => String(row[i]).length)));
  const line = (cells) => cells.map((cell, i) => (i === 0 ? String(cell).padEnd(widths[i]) : String(cell).padStart(widths[i]))).join('  ');
  console.log(line(header));
  for (const row of rows) console.log(line(row));
}

const yesNo = (value) => (value ? 'yes' : 'NO');
const percent = (part, whole) => (whole === 0 ? '-' : `${((part / whole) * 100).toFixed(1)}%`);

/** Sums the per-target counts of every row: before, after, resolved, refused on purpose. */
function sumTargets(rows) {
  const totals = new Map();
  for (const row of rows) {
    for (const [key, count] of row.targets) {
      const total = totals.get(key) ?? { before: 0, after: 0, resolved: 0, refused: 0 };
      total.before += count.before;
      total.after += count.after;
      total.resolved += Math.max(0, count.before - count.after);
      total.refused += count.refused;
      totals.set(key, total);
    }
  }
  return totals;
}

/** Prints one run's table and totals; returns the targets it missed. */
function report(run, rows, errors, rules) {
  console.log(`\n== ${run.label}: rules ${rules.map((rule) => rule.id).join(', ') || '(none)'}`);
  const resolvedCell = (row) => {
    let before = 0;
    let resolved = 0;
    let refused = 0;
    for (const count of row.targets.values()) {
      before += count.before;
      resolved += Math.max(0, count.before - count.after);
      refused += count.refused;
    }
    return before === 0 ? '-' : `${resolved}/${before}${refused ? ` (${refused} refused)` : ''}`;
  };
  printTable(
    [
      'email',
      'before E/W',
      'after E/W',
      'applied',
      'skipped',
      'introduced (ledger)',
      'introduced (analysis)',
      'idempotent',
      'text',
      'links',
      'targeted: resolved/all',
    ],
    rows.map((row) => [
      row.name,
      `${row.before.errors}/${row.before.warnings}`,
      `${row.after.errors}/${row.after.warnings}`,
      row.applied,
      row.skipped,
      row.introduced.length,
      row.analyzed.problems + (row.analyzed.infos ? ` (+${row.analyzed.infos} info)` : ''),
      yesNo(row.idempotent),
      yesNo(row.textPreserved),
      yesNo(row.linksPreserved),
      resolvedCell(row),
    ]),
  );
  for (const error of errors) console.log(`${error.name}  fixEmail threw: ${error.reason}`);
  for (const row of rows) {
    for (const fix of row.appliedFixes) console.log(`  ${row.name} applied ${fix.id}: ${fix.description}`);
    if (row.analyzed.problems > 0) {
      const perReport = Object.entries(row.analyzed.byReport)
        .filter(([, entry]) => entry.problems > 0)
        .map(([name, entry]) => `${name} ${entry.problems}`)
        .join(', ');
      console.log(`  ${row.name} introduced (analysis): ${perReport}; e.g. ${row.analyzed.examples.join('; ')}`);
    }
    if (verbose) for (const skip of row.skippedFixes) console.log(`  ${row.name} skipped ${skip.rule}@${skip.line}: ${skip.reason}`);
  }
  const reasons = new Map();
  for (const row of rows) {
    for (const skip of row.skippedFixes) {
      // Reasons that quote sizes or names group by their wording: digits become N.
      const key = `${skip.rule}: ${skip.reason.replace(/\d+(?:\.\d+)?/g, 'N')}`;
      reasons.set(key, (reasons.get(key) ?? 0) + 1);
    }
  }
  console.log('\nskipped, by rule and reason (--verbose lists each):');
  for (const [reason, count] of [...reasons].sort((a, b) => b[1] - a[1])) console.log(`${String(count).padStart(6)}  ${reason}`);
  return summarize(run, rows, errors);
}

function summarize(run, rows, errors) {
  const totals = sumTargets(rows);
  console.log('');
  printTable(
    ['targeted finding (report/rule)', 'before', 'refused on purpose', 'resolved', 'after'],
    [...totals].map(([key, total]) => [key, total.before, total.refused, total.resolved, total.after]),
  );
  const sum = (field) => [...totals.values()].reduce((acc, total) => acc + total[field], 0);
  const targeted = sum('before');
  const count = (predicate) => rows.filter(predicate).length;
  const introduced = rows.reduce((acc, row) => acc + row.introduced.length, 0);
  const analyzed = { problems: 0, infos: 0, byReport: {} };
  for (const row of rows) {
    analyzed.problems += row.analyzed.problems;
    analyzed.infos += row.analyzed.infos;
    for (const [name, entry] of Object.entries(row.analyzed.byReport)) {
      const total = analyzed.byReport[name] ?? { problems: 0, infos: 0, emails: 0 };
      total.problems += entry.problems;
      total.infos += entry.infos;
      total.emails++;
      analyzed.byReport[name] = total;
    }
  }
  const sumTally = (side, field) => rows.reduce((acc, row) => acc + row[side][field], 0);
  console.log(`\n${run.label}: ${rows.length} emails fixed${errors.length ? `, ${errors.length} threw` : ''}`);
  console.log(
    `  errors ${sumTally('before', 'errors')} -> ${sumTally('after', 'errors')}, warnings ${sumTally('before', 'warnings')} -> ${sumTally('after', 'warnings')}; fixes applied ${rows.reduce((acc, row) => acc + row.applied, 0)}, skipped ${rows.reduce((acc, row) => acc + row.skipped, 0)}`,
  );
  console.log(
    `  targeted findings resolved: ${sum('resolved')} of ${targeted} (${percent(sum('resolved'), targeted)})${run.resolvedTarget ? `, target >= ${RESOLVED_TARGET * 100}%` : ''}; of the ${targeted}, refused on purpose by a rule: ${sum('refused')} (${percent(sum('refused'), targeted)}); without them ${sum('resolved')} of ${targeted - sum('refused')} (${percent(sum('resolved'), targeted - sum('refused'))})`,
  );
  console.log(`  introduced, the fix's own ledger (the one that rolls fixes back, zero by construction): ${introduced} (target 0)`);
  const perReport = Object.entries(analyzed.byReport)
    .map(([name, entry]) => `${name} ${entry.problems}${entry.infos ? ` (+${entry.infos} info)` : ''} in ${entry.emails} email(s)`)
    .join(', ');
  console.log(
    `  introduced, full analyzeEmail before and after${rendered ? ' with mobile contrast painted in Chromium' : ''} (independent): ${analyzed.problems} errors and warnings in ${count((row) => row.analyzed.problems > 0)} of ${rows.length} emails (target 0), ${analyzed.infos} info notes${perReport ? `; per report: ${perReport}` : ''}`,
  );
  console.log(
    `  idempotent: ${count((row) => row.idempotent)} of ${rows.length} (${percent(
      count((row) => row.idempotent),
      rows.length,
    )}, target 100%)`,
  );
  console.log(
    `  text preserved: ${count((row) => row.textPreserved)} of ${rows.length}; links preserved: ${count((row) => row.linksPreserved)} of ${rows.length} (target 100%)`,
  );
  const missed = [];
  if (run.resolvedTarget && targeted > 0 && sum('resolved') / targeted < RESOLVED_TARGET)
    missed.push(`${run.label}: ${percent(sum('resolved'), targeted)} of the targeted findings resolved (< ${RESOLVED_TARGET * 100}%)`);
  if (introduced > 0) missed.push(`${run.label}: ${introduced} finding(s) introduced (ledger)`);
  if (analyzed.problems > 0) missed.push(`${run.label}: ${analyzed.problems} error(s) and warning(s) introduced (full analysis)`);
  for (const row of rows) {
    if (!row.idempotent) missed.push(`${run.label}: ${row.name} is not idempotent`);
    if (!row.textPreserved) missed.push(`${run.label}: ${row.name} changed the visible text`);
    if (!row.linksPreserved) missed.push(`${run.label}: ${row.name} changed the links`);
  }
  for (const error of errors) missed.push(`${run.label}: ${error.name}: fixEmail threw`);
  return missed;
}

async function main() {
  const { FIX_RULES } = engine;
  const { emails, failed } = await loadCorpus();
  console.log(
    `check:fix: ${emails.length} corpus emails (${FORMATS.map((format) => `${format} ${emails.filter((e) => e.format === format).length}`).join(', ')})`,
  );
  for (const failure of failed) console.log(`${failure.name}  does not compile, left out: ${failure.reason}`);
  const contents = new Map(emails.map((email) => [email.name, contentOf(email, email.html)]));
  const missed = [];
  for (const run of RUNS) {
    const rules = FIX_RULES.filter((rule) => run.ruleTiers.includes(rule.tier));
    const rows = [];
    const errors = [];
    for (const email of emails) {
      try {
        rows.push(await checkEmail(email, run, rules, contents.get(email.name)));
      } catch (error) {
        errors.push({ name: email.name, reason: error && error.stack ? error.stack.split('\n').slice(0, 3).join(' | ') : String(error) });
      }
    }
    missed.push(...report(run, rows, errors, rules));
  }
  if (paintedMobileContrast.pool) {
    await paintedMobileContrast.pool.close();
    console.log(
      `\nmobile contrast (--rendered): ${paintedMobileContrast.versions} email versions painted in Chromium (each changed email before and after its fix), ${paintedMobileContrast.failures} screenshots failed`,
    );
  }
  console.log(`\nleft out, not compiling: ${failed.length === 0 ? 'none' : failed.map((failure) => failure.name).join(', ')}`);
  // exitCode, not process.exit(): a piped stdout would be cut short.
  if (missed.length > 0) {
    console.log(`\ntargets missed:\n  ${missed.join('\n  ')}`);
    process.exitCode = 1;
  } else {
    console.log('\nevery target met');
  }
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
