// Every finding of a full analysis (analyzeEmail's result), keyed so that the same finding before and after a
// change has the same key, and the findings an "after" analysis has that its "before" did not. Used by
// `npm run check:fix` to measure what a fix introduces independently of the fix's own findings ledger (which
// also decides what the fix rolls back, so it reads zero by construction). Tested by
// test/unit/analysis-findings.spec.ts.
'use strict';

/** Quality reports whose findings are in `issues` (the spam report's are `triggers` and `compliance`). */
const ISSUE_REPORTS = ['sizeReport', 'linkReport', 'accessibilityReport', 'imageReport', 'inboxPreview', 'templateReport', 'designReport', 'vmlReport'];

/** The tag of an element excerpt ("<img src=…>" → "img"): attributes change under a fix, the element does not. */
function tagOf(excerpt) {
  const match = /^<\s*([a-z][a-z0-9:-]*)/i.exec(excerpt ?? '');
  return match ? match[1].toLowerCase() : '';
}

/**
 * Each finding as { report, key, severity }. The key is the report, rule, client, and what the finding is
 * about: the property for compatibility findings and transform warnings, the element's tag and URL for a
 * quality report's issue, the text for a contrast failure. Never a line, a column or a message: a fix moves
 * lines and a message quotes counts.
 */
function findingsOf(analysis) {
  const findings = [];
  const add = (report, severity, parts) => findings.push({ report, severity, key: [report, ...parts].map((part) => part ?? '').join('\u0000') });
  for (const finding of analysis.cssReport ?? []) add('css', finding.severity, [finding.rule, finding.client, finding.property]);
  for (const transform of analysis.transforms ?? [])
    for (const warning of transform.warnings) add('transform', warning.severity, [transform.clientId, warning.property]);
  for (const [client, variant] of Object.entries(analysis.darkMode ?? {}))
    for (const warning of variant.warnings) add('dark-mode', warning.severity, [client, warning.property]);
  const issueKey = (issue) => [issue.rule, tagOf(issue.element), issue.url];
  if (analysis.spamReport) {
    for (const trigger of analysis.spamReport.triggers) add('spam', trigger.severity, issueKey(trigger));
    for (const issue of analysis.spamReport.compliance) add('spam', issue.severity, issueKey(issue));
  }
  for (const name of ISSUE_REPORTS) for (const issue of analysis[name]?.issues ?? []) add(name, issue.severity, issueKey(issue));
  for (const warning of analysis.plainText?.warnings ?? []) add('plainText', warning.severity, issueKey(warning));
  for (const [client, report] of Object.entries(analysis.darkContrast?.clients ?? {})) {
    for (const issue of report.issues) add('darkContrast', issue.severity, [issue.rule, client, tagOf(issue.element), issue.text]);
    // Failures past the listing limit have no text: each counts under one key per client.
    for (let i = 0; i < report.omitted; i++) add('darkContrast', 'warning', ['omitted', client]);
  }
  // Rendered in Chromium by worker-render: analyzeEmail leaves it null, a rendered result carries it.
  for (const report of analysis.mobileContrast?.clients ?? [])
    for (const failure of report.failures) add('mobileContrast', 'warning', [report.clientId, report.mode, failure.tag, failure.sample]);
  return findings;
}

function tallyByKey(findings) {
  const tallies = new Map();
  for (const finding of findings) {
    const tally = tallies.get(finding.key) ?? { report: finding.report, errors: 0, problems: 0, infos: 0 };
    if (finding.severity === 'info') tally.infos++;
    else {
      tally.problems++;
      if (finding.severity === 'error') tally.errors++;
    }
    tallies.set(finding.key, tally);
  }
  return tallies;
}

/**
 * What `after` has that `before` did not, per report: `problems` (errors and warnings: more errors for a key,
 * or more errors and warnings together, whichever is more; an error that became a warning is not new) and
 * `infos` (notes), with up to `examples` keys of new problems.
 */
function introducedFindings(before, after, examples = 3) {
  const earlier = tallyByKey(findingsOf(before));
  const later = tallyByKey(findingsOf(after));
  const byReport = {};
  let problems = 0;
  let infos = 0;
  const sample = [];
  for (const [key, tally] of later) {
    const was = earlier.get(key) ?? { errors: 0, problems: 0, infos: 0 };
    const newProblems = Math.max(0, tally.errors - was.errors, tally.problems - was.problems);
    const newInfos = Math.max(0, tally.infos - was.infos);
    if (newProblems === 0 && newInfos === 0) continue;
    const entry = byReport[tally.report] ?? { problems: 0, infos: 0 };
    entry.problems += newProblems;
    entry.infos += newInfos;
    byReport[tally.report] = entry;
    problems += newProblems;
    infos += newInfos;
    if (newProblems > 0 && sample.length < examples) sample.push(key.split('\u0000').filter(Boolean).join(' / '));
  }
  return { problems, infos, byReport, examples: sample };
}

module.exports = { findingsOf, introducedFindings };
