import type { Declaration, Rule } from 'postcss';
import { MatchContext, ParsedSelector, compareSpecificity, matchesSelector, parseSelector, splitSelectorList } from '../parse/css-selector';
import { HtmlElement } from '../parse/dom';
import { ParsedEmail } from '../parse/parse-email';

export interface MatchedRule {
  rule: Rule;
  declarations: readonly Declaration[];
  specificity: readonly [number, number, number];
  /** Source order across every `<style>` block. */
  order: number;
  /** The selector of the rule's list that matched (a client that inlines reads its own limits on it). */
  selector?: string;
}

/**
 * Which plain `<style>` rules apply to which elements: computed once, used by the `<style>`
 * dependency check (a client that drops `<style>` is an error when classes have no inline fallback)
 * and by Gmail-style inlining.
 */
export interface StyleCascade {
  matches: ReadonlyMap<HtmlElement, readonly MatchedRule[]>;
  /** Selectors of a top-level rule that cannot be inlined (`:hover`, `::before`) and stay in `<style>`. */
  keptSelectors: ReadonlyMap<Rule, readonly string[]>;
  /** Elements styled by a class or id rule whose properties their inline style does not repeat. */
  elementsRelyingOnStyle: readonly HtmlElement[];
}

export class SelectorCache {
  private readonly lists = new Map<string, ParsedSelector[]>();
  list(text: string): ParsedSelector[] {
    let parsed = this.lists.get(text);
    if (!parsed) {
      parsed = splitSelectorList(text).map(parseSelector);
      this.lists.set(text, parsed);
    }
    return parsed;
  }
}

function candidates(parsed: ParsedEmail, selector: ParsedSelector): readonly HtmlElement[] {
  const key = selector.compounds[selector.compounds.length - 1];
  if (key.ids.length > 0) return parsed.elementsById.get(key.ids[0]) ?? [];
  if (key.classes.length > 0) return parsed.elementsByClass.get(key.classes[0]) ?? [];
  if (key.tag) return parsed.elementsByTag.get(key.tag) ?? [];
  return parsed.elements;
}

export function computeStyleCascade(parsed: ParsedEmail, selectors: SelectorCache): StyleCascade {
  const matches = new Map<HtmlElement, MatchedRule[]>();
  const keptSelectors = new Map<Rule, string[]>();
  const reliesOnStyle = new Set<HtmlElement>();
  let order = 0;
  for (const sheet of parsed.styleSheets) {
    for (const node of sheet.root.nodes) {
      if (node.type !== 'rule') continue;
      const declarations = node.nodes.filter((d): d is Declaration => d.type === 'decl');
      const kept: string[] = [];
      for (const selector of selectors.list(node.selector)) {
        if (!selector.matchable) {
          kept.push(selector.text);
          continue;
        }
        const entry: MatchedRule = { rule: node, declarations, specificity: selector.specificity, order: order++, selector: selector.text };
        const targetsClassOrId = selector.usesClass || selector.usesId;
        for (const element of candidates(parsed, selector)) {
          if (!matchesSelector(element, selector, parsed.matchContext)) continue;
          const list = matches.get(element);
          if (list) list.push(entry);
          else matches.set(element, [entry]);
          if (targetsClassOrId && declarations.length > 0 && !hasInlineFallback(parsed, element, declarations)) reliesOnStyle.add(element);
        }
      }
      if (kept.length > 0) keptSelectors.set(node, kept);
    }
  }
  for (const list of matches.values()) {
    list.sort((a, b) => compareSpecificity(a.specificity, b.specificity) || a.order - b.order);
  }
  const elementsRelyingOnStyle = parsed.elements.filter((element) => reliesOnStyle.has(element));
  return { matches, keptSelectors, elementsRelyingOnStyle };
}

/**
 * Matches rules outside the top-level cascade (inside `@media` blocks, or rules a document variant
 * re-evaluates) with the same selector engine. `orderOf` gives each rule's source order; `selectorOf`
 * may stand a rewritten selector in for the rule's own (the reports' link states).
 */
export function matchRules(
  parsed: ParsedEmail,
  selectors: SelectorCache,
  rules: Iterable<Rule>,
  orderOf: (rule: Rule) => number,
  context: MatchContext = parsed.matchContext,
  selectorOf: (rule: Rule) => string = (rule) => rule.selector,
): Map<HtmlElement, MatchedRule[]> {
  const matches = new Map<HtmlElement, MatchedRule[]>();
  for (const rule of rules) {
    const declarations = rule.nodes.filter((d): d is Declaration => d.type === 'decl');
    for (const selector of selectors.list(selectorOf(rule))) {
      if (!selector.matchable) continue;
      const entry: MatchedRule = { rule, declarations, specificity: selector.specificity, order: orderOf(rule) };
      for (const element of candidates(parsed, selector)) {
        if (!matchesSelector(element, selector, context)) continue;
        const list = matches.get(element);
        if (list) list.push(entry);
        else matches.set(element, [entry]);
      }
    }
  }
  for (const list of matches.values()) list.sort((a, b) => compareSpecificity(a.specificity, b.specificity) || a.order - b.order);
  return matches;
}

function hasInlineFallback(parsed: ParsedEmail, element: HtmlElement, declarations: readonly Declaration[]): boolean {
  const inline = parsed.inlineStyles.get(element);
  if (!inline) return false;
  return declarations.every((d) => inline.declarations.some((own) => own.property === d.prop.toLowerCase()));
}
