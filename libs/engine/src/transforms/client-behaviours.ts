import type { ChildNode, Declaration, Root } from 'postcss';
import type { Severity } from '../analysis/css-finding';
import { ClientBehaviour, Decl, DeclarationSite, Poison, RewriteBehaviour, SheetFacts, ignoredOnElement } from '../clients/models/client-behaviour';
import { ClientRules, rulesOf } from '../clients/models/client-rules';
import { CLIENT_INDEX } from '../clients/email-clients';
import type { ClientId } from '../clients/email-client';
import { ELEMENT_FEATURES, getTrackedFeature } from '../analysis/feature-catalogue';
import { HtmlElement, HtmlText, isElement, positionOf } from '../parse/dom';
import { EmailStyleSheet, ParsedEmail, cssNodePosition } from '../parse/parse-email';
import type { CssDeclaration } from '../parse/css-syntax';
import type { StyleCascade } from '../analysis/style-cascade';
import { utf8Length } from '../parse/utf8-length';

/** A behaviour of the client's model that fired on this email: it becomes a cssReport finding. */
export interface BehaviourFinding {
  behaviour: ClientBehaviour;
  severity: Severity;
  property: string;
  message: string;
  suggestion: string;
  line: number;
  column: number;
  occurrences: number;
}

/** What a client's documented behaviours do to one email, computed once per client and shared by the transform and the report. */
export interface BehaviourOutcome {
  rules: ClientRules;
  /** `<style>` elements the client removes whole (a poison inside, a size limit, a place it ignores). */
  droppedSheets: Map<HtmlElement, Poison & { behaviour: ClientBehaviour }>;
  /** Top-level nodes of a sheet the client ignores (from a 'rest' poison to the block's end). */
  droppedCss: Set<ChildNode>;
  findings: BehaviourFinding[];
  /** Properties the client's element rules govern: their caniemail finding gives way to the element-aware one. */
  elementGoverned: Set<string>;
  /** Text nodes the client adds markup to, with their new markup (Apple's data detectors). */
  texts: Map<HtmlText, string>;
}

/** Per-email facts behaviours read, computed once for every client. */
export class BehaviourFacts {
  private sheetFactList?: SheetFacts[];
  private textNodes?: HtmlText[];

  constructor(
    readonly parsed: ParsedEmail,
    /** Which `<style>` rules reach which elements: element rules judge class rules by the elements they style. */
    readonly cascade?: StyleCascade,
  ) {}

  sheets(): readonly SheetFacts[] {
    if (this.sheetFactList) return this.sheetFactList;
    let bytes = 0;
    const facts = this.parsed.styleSheets.map((sheet) => {
      bytes += utf8Length(sheet.text);
      return { sheet, inBody: isInBody(sheet.element), bytesUpToHere: bytes, totalStyleBytes: 0, parsed: this.parsed };
    });
    for (const fact of facts) fact.totalStyleBytes = bytes;
    this.sheetFactList = facts;
    return this.sheetFactList;
  }

  /** Text nodes a reader sees: inside `<body>`, outside links, scripts, styles and templates. */
  visibleTexts(): readonly HtmlText[] {
    if (this.textNodes) return this.textNodes;
    const texts: HtmlText[] = [];
    const body = this.parsed.elementsByTag.get('body')?.[0];
    if (body) collectTexts(body, texts);
    this.textNodes = texts;
    return texts;
  }
}

const SKIPPED_TEXT_PARENTS = new Set(['a', 'script', 'style', 'template', 'noscript', 'title', 'textarea', 'xml']);

function collectTexts(root: HtmlElement, into: HtmlText[]): void {
  const stack: HtmlElement[] = [root];
  while (stack.length > 0) {
    const element = stack.pop() as HtmlElement;
    for (const child of element.childNodes) {
      if (isElement(child)) {
        if (!SKIPPED_TEXT_PARENTS.has(child.tagName)) stack.push(child);
      } else if (child.nodeName === '#text') into.push(child as HtmlText);
    }
  }
}

function isInBody(element: HtmlElement): boolean {
  for (let node = element.parentNode; node && isElement(node); node = node.parentNode) {
    if (node.tagName === 'body') return true;
    if (node.tagName === 'head') return false;
  }
  return false;
}

class FindingTally {
  private readonly byKey = new Map<string, BehaviourFinding>();
  add(behaviour: ClientBehaviour, severity: Severity, property: string, message: string, suggestion: string, position?: { line: number; column: number }): void {
    const key = `${behaviour.id}\u0000${property}`;
    const existing = this.byKey.get(key);
    if (existing) {
      existing.occurrences++;
      if (position && position.line > 0 && (existing.line === 0 || position.line < existing.line)) {
        existing.line = position.line;
        existing.column = position.column;
      }
      return;
    }
    this.byKey.set(key, { behaviour, severity, property, message, suggestion, line: position?.line ?? 0, column: position?.column ?? 0, occurrences: 1 });
  }
  list(): BehaviourFinding[] {
    return [...this.byKey.values()];
  }
}

/** The top-level node of a sheet that holds `node`. */
function topLevelOf(node: ChildNode): ChildNode {
  let current = node;
  while (current.parent && current.parent.type !== 'root') current = current.parent as unknown as ChildNode;
  return current;
}

function sheetNodePosition(sheet: EmailStyleSheet, node: ChildNode | undefined): { line: number; column: number } {
  if (!node) return positionOf(sheet.element) ?? { line: 0, column: 0 };
  const [line, column] = cssNodePosition(sheet.line, sheet.column, node);
  return { line, column };
}

/** Applies a client's rewrite rules to one declaration: the declaration it becomes (null: dropped) and the rule that changed it. */
export function rewriteDeclaration(rewrites: readonly RewriteBehaviour[], declaration: Decl, site: DeclarationSite): { result: Decl | null; by?: RewriteBehaviour } {
  let current: Decl = declaration;
  let by: RewriteBehaviour | undefined;
  for (const rule of rewrites) {
    if (!rule.rewrite) continue;
    const next = rule.rewrite(current, site);
    if (next === undefined) continue;
    by ??= rule;
    if (next === null) return { result: null, by: rule };
    current = next;
  }
  return { result: current, by };
}

/** The raw text of a postcss declaration as written (`! important` spelled as the author did). */
export function rawDeclaration(declaration: Declaration): string {
  return `${declaration.prop}:${declaration.raws.value?.raw ?? declaration.value}${declaration.important ? (declaration.raws.important ?? ' !important') : ''}`;
}

/** The raw text of an inline declaration, `!important` as the author spelled it. */
export function rawInlineDeclaration(declaration: CssDeclaration): string {
  return `${declaration.property}:${declaration.value}${declaration.important ? (declaration.importantRaw ?? ' !important') : ''}`;
}

/** Evaluates the client's model against the email once: drops, rewrites and element rules that fire, with their findings. */
export function evaluateBehaviours(facts: BehaviourFacts, client: ClientId, clientName: string): BehaviourOutcome {
  const rules = rulesOf(client);
  const { parsed } = facts;
  const tally = new FindingTally();
  const outcome: BehaviourOutcome = { rules, droppedSheets: new Map(), droppedCss: new Set(), findings: [], elementGoverned: new Set(), texts: new Map() };

  // Whole-block and rest-of-block drops: the first poison of a block decides.
  if (rules.dropBlocks.length > 0) {
    for (const sheetFacts of facts.sheets()) {
      for (const behaviour of rules.dropBlocks) {
        const poison = behaviour.find(sheetFacts);
        if (!poison) continue;
        const position = sheetNodePosition(sheetFacts.sheet, poison.node);
        if (behaviour.scope === 'block' || !poison.node) {
          outcome.droppedSheets.set(sheetFacts.sheet.element, { ...poison, behaviour });
          tally.add(behaviour, behaviour.severity, poison.label, `${clientName} removes the whole <style> block: ${behaviour.summary}`, behaviour.suggestion, position);
        } else {
          const root = sheetFacts.sheet.root as Root;
          const first = root.index(topLevelOf(poison.node));
          root.nodes.forEach((node, index) => {
            if (index >= first) outcome.droppedCss.add(node);
          });
          tally.add(behaviour, behaviour.severity, poison.label, `${clientName} ignores the rest of the <style> block from ${poison.label} on: ${behaviour.summary}`, behaviour.suggestion, position);
        }
        break;
      }
    }
  }

  // Rewrites: inline declarations, then the declarations of the blocks the client keeps.
  if (rules.rewrites.length > 0) {
    const styleDroppers = rules.rewrites.filter((r) => r.dropsStyleAttribute);
    for (const [element, inline] of parsed.inlineStyles) {
      const position = { line: inline.line, column: inline.column };
      const dropper = styleDroppers.find((r) => r.dropsStyleAttribute?.(inline.value));
      if (dropper) {
        tally.add(dropper, dropper.severity, dropper.label, `${clientName} removes the whole style attribute: ${dropper.summary}`, dropper.suggestion, position);
        continue;
      }
      for (const declaration of inline.declarations) {
        const { by } = rewriteDeclaration(rules.rewrites, declaration, { element, raw: rawInlineDeclaration(declaration) });
        if (!by) continue;
        tally.add(by, by.severity, by.label, `${clientName}: ${by.summary}`, by.suggestion, position);
      }
    }
    const atRuleRewriters = rules.rewrites.filter((r) => r.rewriteAtRule);
    const attributeDroppers = rules.rewrites.filter((r) => r.dropsAttributes);
    for (const element of attributeDroppers.length > 0 ? parsed.elements : []) {
      for (const rule of attributeDroppers) {
        const dropped = rule.dropsAttributes?.(element) ?? [];
        if (dropped.length > 0) tally.add(rule, rule.severity, rule.label, `${clientName}: ${rule.summary}`, rule.suggestion, positionOf(element));
      }
    }
    for (const { sheet } of facts.sheets()) {
      if (outcome.droppedSheets.has(sheet.element)) continue;
      if (atRuleRewriters.length > 0) {
        sheet.root.walkAtRules((atRule) => {
          if (outcome.droppedCss.has(topLevelOf(atRule))) return;
          const nested = atRule.parent?.type === 'rule';
          const rule = atRuleRewriters.find((r) => r.rewriteAtRule?.(atRule.name.toLowerCase(), atRule.params, nested) !== undefined);
          if (rule) tally.add(rule, rule.severity, rule.label, `${clientName}: ${rule.summary}`, rule.suggestion, sheetNodePosition(sheet, atRule));
        });
      }
      sheet.root.walkDecls((declaration) => {
        if (outcome.droppedCss.has(topLevelOf(declaration))) return;
        const decl = { property: declaration.prop.toLowerCase(), value: declaration.value, important: declaration.important === true };
        const { by } = rewriteDeclaration(rules.rewrites, decl, { raw: rawDeclaration(declaration) });
        if (!by) return;
        tally.add(by, by.severity, by.label, `${clientName}: ${by.summary}`, by.suggestion, sheetNodePosition(sheet, declaration));
      });
    }
  }

  // Element rules: a governed property used on an element the client ignores it on (inline, or through a
  // <style> rule that styles that element); used where it works, it gives no finding at all.
  if (rules.elementRules.size > 0) {
    for (const property of rules.elementRules.keys()) outcome.elementGoverned.add(property);
    const report = (element: HtmlElement, property: string, position: { line: number; column: number } | undefined): void => {
      const behaviour = rules.elementRules.get(property);
      if (!behaviour || !ignoredOnElement(behaviour, element.tagName)) return;
      tally.add(behaviour, 'warning', property, `${clientName} ignores ${property} on <${element.tagName}>: ${behaviour.summary}`, behaviour.suggestion, position);
    };
    for (const [element, inline] of parsed.inlineStyles) {
      for (const declaration of inline.declarations) report(element, declaration.property, { line: inline.line, column: inline.column });
    }
    for (const [element, matched] of facts.cascade?.matches ?? []) {
      for (const match of matched) for (const declaration of match.declarations) report(element, declaration.prop.toLowerCase(), positionOf(element));
    }
  }

  // Elements the sanitiser removes or unwraps.
  if (rules.removes.size > 0 || rules.unwraps.size > 0) {
    for (const element of parsed.elements) {
      const behaviour = rules.removes.get(element.tagName) ?? rules.unwraps.get(element.tagName);
      if (!behaviour || !element.sourceCodeLocation) continue;
      // caniemail's own finding already says the client drops it.
      const slug = ELEMENT_FEATURES[element.tagName];
      if (slug && getTrackedFeature(slug)?.support.byClient[CLIENT_INDEX[client]].level === 'unsupported') continue;
      const how = rules.removes.has(element.tagName) ? 'removes' : 'unwraps';
      tally.add(behaviour, behaviour.severity, `<${element.tagName}>`, `${clientName} ${how} <${element.tagName}>: ${behaviour.summary}`, behaviour.suggestion, positionOf(element));
    }
  }

  // Markup the client adds to the text.
  for (const addition of rules.additions) {
    if (addition.disabledBy(parsed)) continue;
    let count = 0;
    let first: { line: number; column: number } | undefined;
    for (const text of facts.visibleTexts()) {
      const added = outcome.texts.has(text) ? undefined : addition.addTo(text.value, parsed);
      if (!added) continue;
      outcome.texts.set(text, added.text);
      count += added.count;
      first ??= positionOf(text);
    }
    if (count === 0) continue;
    const restyled = addition.restyledBy(parsed);
    const severity: Severity = restyled ? 'info' : addition.severity;
    const message = `${clientName} ${addition.summary.replace(/\.$/, '')}: ${count} found in this email${restyled ? '; the email restyles them to look like its text' : ''}.`;
    tally.add(addition, severity, addition.id, message, addition.suggestion, first);
    const finding = tally.list().find((f) => f.behaviour === addition);
    if (finding) finding.occurrences = count;
  }

  outcome.findings = tally.list();
  return outcome;
}
