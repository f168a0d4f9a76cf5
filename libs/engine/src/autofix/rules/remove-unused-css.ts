import type { AtRule, ChildNode, Container, Rule } from 'postcss';
import { SelectorCache, matchRules } from '../../analysis/style-cascade';
import { GMAIL_STYLE_LIMIT_BYTES } from '../../clients/models/gmail.model';
import { parseSelector, splitSelectorList } from '../../parse/css-selector';
import type { ParsedEmail } from '../../parse/parse-email';
import { GMAIL_CLIP_WARNING_BYTES, GMAIL_STYLE_BLOCK_LIMIT_BYTES } from '../../reports/size-report';
import type { ReportContext } from '../../reports/context/report-context';
import { humanBytes } from '../../reports/context/text-utils';
import type { FixCandidate, FixRule, TextEdit } from '../fix-model';
import { styleSheetOffset } from '../source-ranges';
import { lineAt } from '../text-edits';
import { withoutPseudos } from './inline-css';
import { CLIENT_HACK } from './layout-css';

/** Pseudo-classes whose selector matches, statically, at least what it does without them. */
const KNOWN_PSEUDO_CLASSES = new Set([
  ':hover',
  ':focus',
  ':focus-within',
  ':focus-visible',
  ':active',
  ':visited',
  ':link',
  ':any-link',
  ':target',
  ':checked',
  ':disabled',
  ':enabled',
  ':first-child',
  ':last-child',
  ':only-child',
  ':nth-child',
  ':nth-last-child',
  ':first-of-type',
  ':last-of-type',
  ':only-of-type',
  ':nth-of-type',
  ':nth-last-of-type',
  ':root',
  ':empty',
  ':not',
]);

/** Names in markup only the Word engine (or another conditional reader) sees: a rule for them looks unused and is not. */
function conditionalMarkupNames(parsed: ParsedEmail): Set<string> {
  const names = new Set<string>();
  for (const comment of parsed.comments) {
    if (!comment.data.includes('<')) continue;
    for (const match of comment.data.matchAll(/\b(class|id)\s*=\s*["']?([^"'>]+)/gi)) {
      for (const name of match[2].split(/\s+/)) if (name) names.add(`${match[1].toLowerCase() === 'id' ? '#' : '.'}${name.toLowerCase()}`);
    }
    for (const match of comment.data.matchAll(/<([a-z][\w:-]*)/gi)) names.add(match[1].toLowerCase());
  }
  return names;
}

interface UnusedScan {
  parsed: ParsedEmail;
  selectors: SelectorCache;
  conditionalNames: ReadonlySet<string>;
  base: number;
  edits: TextEdit[];
  removedRules: number;
  removedSelectors: number;
}

/**
 * Whether a selector may apply to something: it names a client hack, an attribute or an unknown
 * pseudo-class, a name that appears in conditional markup, cannot be evaluated, or (without its state
 * pseudo-classes) matches an element of the email.
 */
function mayApply(text: string, rule: Rule, scan: UnusedScan): boolean {
  const { parsed, selectors } = scan;
  const selector = parseSelector(text);
  if (CLIENT_HACK.test(text) || selector.usesAttribute || selector.pseudoClasses.some((name) => !KNOWN_PSEUDO_CLASSES.has(name))) return true;
  for (const compound of selector.compounds) {
    const names = [...compound.classes.map((name) => `.${name}`), ...compound.ids.map((name) => `#${name}`), ...(compound.tag ? [compound.tag] : [])];
    if (names.some((name) => scan.conditionalNames.has(name.toLowerCase()))) return true;
  }
  const stripped = withoutPseudos(text);
  if (selectors.list(stripped).some((parsedSelector) => !parsedSelector.matchable)) return true;
  return (
    matchRules(
      parsed,
      selectors,
      [rule],
      () => 0,
      parsed.matchContext,
      () => stripped,
    ).size > 0
  );
}

/** The node's text in the source with the white space in front of it; undefined when the parse's positions do not fit the text. */
function nodeRange(scan: UnusedScan, node: ChildNode): { start: number; end: number } | undefined {
  const start = node.source?.start?.offset;
  const end = node.source?.end?.offset;
  if (start === undefined || end === undefined) return undefined;
  const before = node.raws.before ?? '';
  const from = scan.base + start - before.length;
  if (!/^\s*$/.test(before) || scan.parsed.source.slice(from, scan.base + start) !== before) return undefined;
  return { start: from, end: scan.base + end };
}

/** Whether the rule is unused; a partly used selector list loses its unused selectors. */
function scanRule(scan: UnusedScan, rule: Rule): boolean {
  const list = splitSelectorList(rule.selector);
  const used = list.filter((text) => mayApply(text, rule, scan));
  if (used.length === 0) return true;
  const start = rule.source?.start?.offset;
  if (used.length < list.length && start !== undefined && rule.raws.selector === undefined) {
    const from = scan.base + start;
    if (scan.parsed.source.slice(from, from + rule.selector.length) === rule.selector) {
      scan.edits.push({ start: from, end: from + rule.selector.length, text: used.join(', ') });
      scan.removedSelectors += list.length - used.length;
    }
  }
  return false;
}

/** Removes the unused rules of a block; true when every node in it is an unused rule (the caller removes the block). */
function scanContainer(scan: UnusedScan, container: Container): boolean {
  const unused: ChildNode[] = [];
  let all = true;
  for (const node of container.nodes ?? []) {
    let removable = false;
    if (node.type === 'rule') removable = scanRule(scan, node);
    else if (node.type === 'atrule' && ['media', 'supports'].includes((node as AtRule).name.toLowerCase()) && (node as AtRule).nodes) {
      const edits = scan.edits.length;
      removable = scanContainer(scan, node as AtRule);
      // The whole at-rule goes: edits inside it would overlap its removal.
      if (removable) scan.edits.length = edits;
    }
    if (removable) unused.push(node);
    else all = false;
  }
  if (all && container.type !== 'root' && unused.length > 0) return true;
  for (const node of unused) {
    const range = nodeRange(scan, node);
    if (!range) continue;
    scan.edits.push({ ...range, text: '' });
    scan.removedRules += node.type === 'rule' ? 1 : ((node as AtRule).nodes?.length ?? 0);
  }
  return false;
}

/** Why the email needs its `<style>` text smaller (Gmail's limits), or undefined when it does not. */
function sizeProblem(parsed: ParsedEmail, report: ReportContext): string | undefined {
  const total = report.sheet.blocks.reduce((sum, block) => sum + block.bytes, 0);
  if (parsed.byteLength > GMAIL_CLIP_WARNING_BYTES) return `the email is ${humanBytes(parsed.byteLength)}, near or over Gmail's 102 KB clipping limit`;
  if (total > GMAIL_STYLE_LIMIT_BYTES) return `its <style> text is ${humanBytes(total)}, over Gmail's 16 KB limit`;
  if (report.sheet.blocks.some((block) => block.bytes > GMAIL_STYLE_BLOCK_LIMIT_BYTES)) return "a <style> block is over Gmail's 16 KB limit";
  return undefined;
}

/**
 * Unused CSS removed when the email is over (or within 10% of) Gmail's clipping limit or its `<style>`
 * text is over Gmail's 16 KB: rules whose selectors match no element of the email (by the engine's
 * selector matching, state pseudo-classes aside) go, and a selector list keeps its used selectors.
 * Client hacks, attribute selectors, unknown pseudo-classes, names used in conditional markup, at-rules
 * other than @media and @supports (@font-face, @keyframes, @import) and comments stay.
 */
export const removeUnusedCss: FixRule = {
  id: 'remove-unused-css',
  tier: 'layout',
  resolves: [{ report: 'css', rule: 'gmail-style-size-limit' }],
  helps: ['gmail-web', 'gmail-android', 'gmail-ios'],
  find({ parsed, report }) {
    const candidates: FixCandidate[] = [];
    const problem = sizeProblem(parsed, report);
    if (!problem) return { candidates, refusals: [] };
    const conditionalNames = conditionalMarkupNames(parsed);
    for (const sheet of parsed.styleSheets) {
      const base = styleSheetOffset(sheet);
      if (base === undefined || parsed.source.slice(base, base + sheet.text.length) !== sheet.text) continue;
      const scan: UnusedScan = { parsed, selectors: report.styles.selectors, conditionalNames, base, edits: [], removedRules: 0, removedSelectors: 0 };
      scanContainer(scan, sheet.root);
      if (scan.edits.length === 0) continue;
      const saved = scan.edits.reduce((sum, edit) => sum + (edit.end - edit.start - edit.text.length), 0);
      const parts = [
        scan.removedRules > 0 ? `${scan.removedRules} unused rule(s)` : '',
        scan.removedSelectors > 0 ? `${scan.removedSelectors} unused selector(s)` : '',
      ];
      candidates.push({
        rule: this.id,
        line: lineAt(parsed, scan.edits[0].start),
        edits: scan.edits.sort((a, b) => a.start - b.start),
        description: `removed ${parts.filter(Boolean).join(' and ')} (${humanBytes(saved)}) from a <style> block: ${problem}`,
      });
    }
    return { candidates, refusals: [] };
  },
};
