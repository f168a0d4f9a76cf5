import type { Declaration, Rule } from 'postcss';
import { matchRules } from '../../analysis/style-cascade';
import { splitSelectorList } from '../../parse/css-selector';
import type { HtmlElement } from '../../parse/dom';
import type { ReportContext } from '../../reports/context/report-context';
import { CLIENT_IDS, ClientId } from '../../clients/email-client';
import { worstSupport } from '../../clients/tracked-properties';
import type { FindingLedger } from '../finding-ledger';
import type { ParsedEmail } from '../../parse/parse-email';
import { utf8Length } from '../../parse/utf8-length';
import { humanBytes } from '../../reports/context/text-utils';
import { GMAIL_CLIP_WARNING_BYTES } from '../../reports/size-report';
import type { FixCandidate, FixRule, FixRuleContext, FixRuleOutput } from '../fix-model';
import { elementLine } from '../source-ranges';
import {
  StyleDeclaration,
  appendStyleEdit,
  clientContextSelector,
  inBody,
  inlineDeclarations,
  oneLine,
  propertiesOverlap,
  sheetWinners,
  someClientTreatsWorseInline,
} from './layout-css';

/** A declaration of a rule the inliner leaves in `<style>` (a media query's, a `:hover` rule's). */
interface KeptDeclaration {
  property: string;
  important: boolean;
}

/** The kept rules' declarations per element they may apply to, and those of rules that may apply anywhere. */
interface KeptRules {
  byElement: Map<HtmlElement, KeptDeclaration[]>;
  everywhere: KeptDeclaration[];
}

/** State pseudo-classes and pseudo-elements, which a static document never matches: `a:hover` → `a`, `:focus` → `*`. */
const DYNAMIC_PSEUDO = /::?[a-z-]+(?:\((?:[^()]|\([^()]*\))*\))?/gi;

/**
 * The selector with its pseudo-classes and pseudo-elements taken out, which matches at least the elements
 * the selector can ever apply to (`.menu a:hover` → `.menu a`, `.x :focus` → `.x *`).
 */
export function withoutPseudos(selector: string): string {
  // A pseudo-class that is a whole compound (`.x :focus`, `:hover > a`) leaves the universal selector.
  return selector.replace(DYNAMIC_PSEUDO, (_match: string, offset: number, whole: string) => (/(?:^|[\s>+~,(])$/.test(whole.slice(0, offset)) ? '*' : ''));
}

function keptDeclarations(rule: Rule): KeptDeclaration[] {
  return rule.nodes
    .filter((node): node is Declaration => node.type === 'decl')
    .map((declaration) => ({ property: declaration.prop.toLowerCase(), important: declaration.important === true }));
}

/**
 * The rules an inliner keeps in `<style>`: those inside `@media` and `@supports` blocks, the selectors of
 * top-level rules that need a state or a pseudo-element, and client hacks (`[data-ogsc] .title` applies in
 * Outlook.com's dark mode, where an inlined `.title` color would beat it). Each is matched without its
 * pseudo-classes, a hack by its last compound (so against every element it may ever apply to); a selector
 * even that cannot match applies anywhere.
 */
function keptRules(report: ReportContext): KeptRules {
  const { parsed } = report.doc;
  const { selectors } = report.styles;
  const selectorOf = new Map<Rule, string>();
  const everywhere: KeptDeclaration[] = [];
  for (const entry of report.sheet.rules) {
    if (entry.nested) continue;
    const kept = entry.topLevel
      ? [
          ...(report.styles.cascade.keptSelectors.get(entry.rule) ?? []).map(withoutPseudos),
          ...splitSelectorList(entry.selectorText)
            .map(clientContextSelector)
            .filter((selector): selector is string => selector !== undefined),
        ]
      : [withoutPseudos(entry.selectorText)];
    if (kept.length === 0) continue;
    const stripped = kept.join(', ');
    if (selectors.list(stripped).some((selector) => !selector.matchable)) everywhere.push(...keptDeclarations(entry.rule));
    else selectorOf.set(entry.rule, stripped);
  }
  const byElement = new Map<HtmlElement, KeptDeclaration[]>();
  const matches = matchRules(
    parsed,
    selectors,
    selectorOf.keys(),
    () => 0,
    parsed.matchContext,
    (rule) => selectorOf.get(rule) ?? '',
  );
  for (const [element, list] of matches)
    byElement.set(
      element,
      list.flatMap((match) => keptDeclarations(match.rule)),
    );
  return { byElement, everywhere };
}

const WORD_ENGINE: ClientId = 'outlook-windows-legacy';

/**
 * Labels (`min-width`, `display:flex`, `linear-gradient()`) the Word engine does not support whose finding is
 * covered by the email's MSO or VML fallback only because `<style>` uses count as covered wherever the
 * fallback is: inlined onto an element outside the fallback, the finding would come back. They stay in `<style>`.
 */
function coveredInSheetsOnly(before: FindingLedger): string[] {
  const index = CLIENT_IDS.indexOf(WORD_ENGINE);
  const labels: string[] = [];
  for (const finding of before.findings) {
    if (finding.report !== 'css' || finding.client !== WORD_ENGINE || finding.severity !== 'info' || !finding.property) continue;
    if (worstSupport([finding.rule], index).level === 'unsupported') labels.push(finding.property.toLowerCase());
  }
  return labels;
}

function usesLabel(declaration: StyleDeclaration, label: string): boolean {
  if (label.endsWith('()')) return declaration.value.toLowerCase().includes(label.slice(0, -1));
  return label === declaration.property || label === `${declaration.property}:${declaration.value.toLowerCase()}`;
}

/** What decides, for one element, whether a winning declaration is inlined. */
interface InlineScope {
  /** The element's own `style` declarations. */
  own: readonly StyleDeclaration[];
  /** Declarations of kept rules that may apply to the element. */
  kept: readonly KeptDeclaration[];
  coveredLabels: readonly string[];
}

/**
 * Values the inliner leaves in `<style>`: custom properties and var() (the safe tier resolves them), text a
 * parse could not read whole, what some client treats worse inline, and what the Word fallbacks cover only there.
 */
function inlinable(declaration: StyleDeclaration, scope: InlineScope): boolean {
  if (declaration.property.startsWith('--') || /var\(|expression\(|[{}]/i.test(declaration.value) || declaration.value === '') return false;
  if (scope.coveredLabels.some((label) => usesLabel(declaration, label))) return false;
  return !someClientTreatsWorseInline({ ...declaration, important: false });
}

/** Equal values as an attribute holds them (a double quote inside `style="…"` is written as a single one). */
function sameValue(a: string, b: string): boolean {
  return oneLine(a).replace(/"/g, "'") === oneLine(b).replace(/"/g, "'");
}

function inlines(winner: StyleDeclaration, scope: InlineScope): boolean {
  if (!inlinable(winner, scope)) return false;
  const crossing = scope.own.filter((declaration) => propertiesOverlap(declaration.property, winner.property));
  const lastCrossing = crossing[crossing.length - 1];
  // Already there: the same value last (an earlier fix wrote it, or the author did).
  if (lastCrossing && lastCrossing.property === winner.property && sameValue(lastCrossing.value, winner.value)) return false;
  if (crossing.some((declaration) => declaration.important)) return false;
  if (crossing.length > 0 && !winner.important) return false;
  return winner.important || !scope.kept.some((declaration) => !declaration.important && propertiesOverlap(declaration.property, winner.property));
}

/**
 * What the element's `style` attribute gains: each winning top-level declaration that is not there yet.
 * An inline declaration of the same property (or a shorthand crossing it) wins over a normal one and is
 * left alone; a kept rule that sets it without !important must keep beating it, so it is not inlined
 * (inline style would beat the media query or `:hover`). Inlined values never carry `!important`: the
 * rule stays in `<style>` with it, and the Word engine ignores `!important` inline.
 */
function declarationsToInline(winners: readonly StyleDeclaration[], scope: InlineScope): StyleDeclaration[] {
  let added: StyleDeclaration[] = [];
  for (const winner of winners) {
    if (inlines(winner, scope)) {
      added.push({ property: winner.property, value: winner.value, important: false });
      continue;
    }
    // A declaration left out beats the earlier ones it crosses: inlined, they would show instead of it.
    added = added.filter((declaration) => !propertiesOverlap(declaration.property, winner.property));
  }
  return added;
}

/**
 * The candidates, unless together they take the email within 10% of Gmail's clipping limit or past it:
 * Gmail would hide the end of the email (the footer and its unsubscribe link) to give every element its style.
 */
function withinClipLimit(parsed: ParsedEmail, candidates: FixCandidate[]): FixRuleOutput {
  if (candidates.length === 0) return { candidates, refusals: [] };
  let bytes = parsed.byteLength;
  for (const candidate of candidates)
    for (const edit of candidate.edits) bytes += utf8Length(edit.text) - utf8Length(parsed.source.slice(edit.start, edit.end));
  if (bytes <= GMAIL_CLIP_WARNING_BYTES) return { candidates, refusals: [] };
  const reason = `inlining would make the email ${humanBytes(bytes)} (${humanBytes(parsed.byteLength)} now): within 10% of Gmail's 102 KB clipping limit or past it, where Gmail hides the rest of the email`;
  return { candidates: [], refusals: [{ rule: candidates[0].rule, line: candidates[0].line, reason }] };
}

/**
 * CSS inlining that keeps media queries and `!important`: the declarations of the plain top-level
 * `<style>` rules an element matches are appended to its `style` attribute (or a new one), so clients
 * that drop `<style>` (or the block) still show them. The `<style>` blocks stay as written: media
 * queries, `:hover` and client hacks keep working where they did, and nothing any client paints changes
 * where `<style>` is kept.
 */
export const inlineCss: FixRule = {
  id: 'inline-css',
  tier: 'layout',
  resolves: [{ report: 'css', rule: 'html-style' }],
  find({ parsed, report, before }: FixRuleContext) {
    const candidates: FixCandidate[] = [];
    const { cascade } = report.styles;
    if (cascade.matches.size === 0) return { candidates, refusals: [] };
    const kept = keptRules(report);
    const coveredLabels = coveredInSheetsOnly(before);
    for (const element of parsed.elements) {
      const matches = cascade.matches.get(element);
      if (!matches || !inBody(element)) continue;
      const scope: InlineScope = {
        own: inlineDeclarations(parsed, element),
        kept: [...kept.everywhere, ...(kept.byElement.get(element) ?? [])],
        coveredLabels,
      };
      const added = declarationsToInline(sheetWinners(matches), scope);
      if (added.length === 0) continue;
      const edit = appendStyleEdit(parsed.source, element, added);
      if (!edit) continue;
      candidates.push({
        rule: this.id,
        line: elementLine(element),
        edits: [edit],
        description: `inlined ${added.map((declaration) => declaration.property).join(', ')} on <${element.tagName}> from <style>`,
      });
    }
    return withinClipLimit(parsed, candidates);
  },
};
