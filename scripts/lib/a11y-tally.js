// How npm run check:a11y counts the engine's accessibility findings against axe-core's, kept apart
// from the browser so that the counting itself is tested (test/unit/a11y-tally.spec.ts). Plain Node.
'use strict';

/**
 * Targets of issue 19 (docs/accuracy.md): precision and recall of at least 0.97 for every mapped rule.
 * A rule with no case on either side has no figure and is not judged.
 */
const TARGET = 0.97;

/**
 * A tracking pixel or spacer as the browser paints it: at most one pixel wide or high (zero
 * included), or not painted at all (display:none, visibility:hidden, no box). Decided from the
 * painted size, not from the engine's classification, so the check never grades the engine by the
 * engine's own opinion.
 */
function isInvisibleImage({ width, height, rendered }) {
  return !rendered || width <= 1 || height <= 1;
}

/**
 * One element rule over one email. `violations` and `incomplete` are axe's nodes (`at` is the
 * source position, null when the node cannot be mapped to one); `reported` are the engine's
 * findings with their positions; `exempt` holds positions left out on purpose (invisible images for
 * image-alt), counted apart.
 *
 * - TP: axe and the engine at the same element; FP: the engine only; FN: axe only.
 * - A violation without a source position cannot be matched, so it counts as FN (and as
 *   `unmapped`): dropping it would hide a miss.
 * - axe's "incomplete" (needs review) nodes are counted in `review`; an engine finding on one counts
 *   in `reportedOnReview`, neither TP nor FP, since axe decided nothing there.
 */
function tallyElementRule({ violations, incomplete, reported, exempt = new Set() }) {
  const counts = { tp: 0, fp: 0, fn: 0, unmapped: 0, review: incomplete.length, reportedOnReview: 0, exempt: 0 };
  const differences = [];
  const expected = new Map();
  for (const node of violations) {
    if (node.at) expected.set(node.at, node);
    else {
      counts.unmapped++;
      counts.fn++;
      differences.push(`FN without a source position: ${node.html} ${node.summary ?? ''}`.trim());
    }
  }
  const undecided = new Set(incomplete.map((node) => node.at).filter(Boolean));
  const found = new Map(reported.map((issue) => [issue.at, issue]));
  for (const [at, issue] of found) {
    if (expected.has(at)) counts.tp++;
    else if (undecided.has(at)) counts.reportedOnReview++;
    else {
      counts.fp++;
      differences.push(`FP at ${at}: ${issue.message}`);
    }
  }
  for (const [at, node] of expected) {
    if (found.has(at)) continue;
    if (exempt.has(at)) {
      counts.exempt++;
      continue;
    }
    counts.fn++;
    differences.push(`FN at ${at}: ${node.html} ${node.summary ?? ''}`.trim());
  }
  return { counts, differences };
}

/** A document rule (lang, title) over one email: axe's verdict against whether the engine reported it. */
function tallyDocumentRule({ violations, incomplete, reported }) {
  const counts = { tp: 0, fp: 0, fn: 0, unmapped: 0, review: incomplete.length, reportedOnReview: 0, exempt: 0 };
  const expected = violations.length > 0;
  if (expected && reported) counts.tp++;
  else if (reported) counts.fp++;
  else if (expected) counts.fn++;
  const differences = expected === reported ? [] : [reported ? 'reported, axe passes' : `missed (${violations[0].summary ?? ''})`];
  return { counts, differences };
}

function addCounts(total, part) {
  for (const key of Object.keys(part)) total[key] = (total[key] ?? 0) + part[key];
  return total;
}

const ratio = (part, whole) => (whole === 0 ? null : part / whole);

/** Precision and recall of each rule, and the rules below the target (null figures are not judged). */
function judge(totals, target = TARGET) {
  const rows = [];
  const misses = [];
  for (const [rule, c] of totals) {
    const precision = ratio(c.tp, c.tp + c.fp);
    const recall = ratio(c.tp, c.tp + c.fn);
    rows.push({ rule, precision, recall });
    if (precision !== null && precision < target) misses.push(`${rule} precision ${precision.toFixed(3)} < ${target}`);
    if (recall !== null && recall < target) misses.push(`${rule} recall ${recall.toFixed(3)} < ${target}`);
  }
  return { rows, misses };
}

module.exports = { TARGET, isInvisibleImage, tallyElementRule, tallyDocumentRule, addCounts, judge };
