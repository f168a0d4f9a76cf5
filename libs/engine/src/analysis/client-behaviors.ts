import type { AtRule, ChildNode, Declaration, Root, Rule } from 'postcss';
import type { Severity } from '../clients/severity';
import {
  AdditionBehavior,
  ClientBehavior,
  Decl,
  DeclarationSite,
  DropBlockBehavior,
  Poison,
  RewriteBehavior,
  SanitizeBehavior,
  SheetFacts,
  elementRuleOn,
} from '../clients/models/client-behavior';
import { ClientRules, rulesOf, sanitizesElement } from '../clients/models/client-rules';
import { browserBase, relativeUrls } from '../clients/models/base-url';
import { CLIENT_INDEX } from '../clients/email-clients';
import type { ClientId } from '../clients/email-client';
import { ELEMENT_FEATURES, getTrackedFeature } from '../clients/feature-catalog';
import { HtmlComment, HtmlElement, HtmlText, isElement, positionOf } from '../parse/dom';
import { EmailStyleSheet, InlineStyle, ParsedEmail, cssNodePosition } from '../parse/parse-email';
import type { CssDeclaration } from '../parse/css-syntax';
import type { StyleCascade } from './style-cascade';
import { utf8Length } from '../parse/utf8-length';

/** A behavior of the client's model that fired on this email: it becomes a cssReport finding. */
export interface BehaviorFinding {
  behavior: ClientBehavior;
  severity: Severity;
  property: string;
  message: string;
  suggestion: string;
  line: number;
  column: number;
  occurrences: number;
}

/** What a client's documented behaviors do to one email, computed once per client and shared by the transform and the report. */
export interface BehaviorOutcome {
  rules: ClientRules;
  /** `<style>` elements the client removes whole (a poison inside, a size limit, a place it ignores). */
  droppedSheets: Map<HtmlElement, Poison & { behavior: ClientBehavior }>;
  /** Top-level nodes of a sheet the client ignores (from a 'rest' poison to the block's end). */
  droppedCss: Set<ChildNode>;
  findings: BehaviorFinding[];
  /** Properties the client's element rules govern: their caniemail finding gives way to the element-aware one. */
  elementGoverned: Set<string>;
  /** Text nodes the client adds markup to, with their new markup (Apple's data detectors). */
  texts: Map<HtmlText, string>;
  /** Inline declarations (equal `style` attributes share theirs) a rewrite changes: what each becomes (null: dropped). */
  inlineRewrites: Map<CssDeclaration, Decl | null>;
  /** `<style>` declarations a rewrite changes (Gmail's inlined rules read these too). */
  sheetRewrites: Map<Declaration, Decl | null>;
  /** `<style>` at-rules whose prelude a rewrite changes (null: the at-rule is removed). */
  atRuleRewrites: Map<AtRule, string | null>;
  /** `style` attribute values the client removes whole. */
  droppedStyleValues: Set<string>;
  /** HTML comments the client rewrites: the markup it writes instead. */
  commentRewrites: Map<HtmlComment, string>;
  /** Markup the client wraps the body's content in. */
  bodyWrapper?: { open: string; close: string };
}

/** A `<style>` declaration as rewrites read it, prepared once per email. */
interface SheetDeclaration {
  node: Declaration;
  sheet: EmailStyleSheet;
  top: ChildNode;
  property: string;
}

/** A `<style>` at-rule as prelude rewrites read it. */
interface SheetAtRule {
  node: AtRule;
  sheet: EmailStyleSheet;
  top: ChildNode;
  name: string;
  nested: boolean;
  /** The nearest enclosing at-rule's name (lower-case), if any. */
  parentAtRule: string | undefined;
}

/** The elements whose `style` attribute has one text. */
interface InlineGroup {
  value: string;
  declarations: readonly CssDeclaration[];
  count: number;
  first: { line: number; column: number };
}

/** An inline declaration with the style attributes that hold it. */
interface InlineEntry {
  declaration: CssDeclaration;
  group: InlineGroup;
}

/**
 * The email's declarations indexed by property, by importance and in full, built once per email: a rewrite
 * rule reads only the declarations it can change (its `properties`, `importantOnly`, `valueMatches`).
 */
class DeclarationIndex {
  readonly inline: IndexedList<InlineEntry>;
  readonly sheet: IndexedList<SheetDeclaration>;

  constructor(groups: readonly InlineGroup[], sheetDeclarations: readonly SheetDeclaration[]) {
    const inlineEntries: InlineEntry[] = [];
    const seen = new Set<CssDeclaration>();
    for (const group of groups) {
      for (const declaration of group.declarations) {
        if (seen.has(declaration)) continue;
        seen.add(declaration);
        inlineEntries.push({ declaration, group });
      }
    }
    this.inline = indexList(inlineEntries, (e) => e.declaration.property);
    this.sheet = indexList(sheetDeclarations, (d) => d.property);
  }

  /** A rule's declarations in a list; memoized per rule, as the clients that share a rule but not a signature ask again. */
  select<T>(list: IndexedList<T>, rule: RewriteBehavior, important: (item: T) => boolean, value: (item: T) => string): readonly T[] {
    let items = list.selected.get(rule);
    if (!items) {
      items = this.choose(list, rule, important, value);
      list.selected.set(rule, items);
    }
    return items;
  }

  private choose<T>(list: IndexedList<T>, rule: RewriteBehavior, important: (item: T) => boolean, value: (item: T) => string): readonly T[] {
    let items: readonly T[] = list.all;
    if (rule.properties) {
      const chosen: T[] = [];
      for (const property of rule.properties) {
        if (property.endsWith('*')) {
          const prefix = property.slice(0, -1);
          for (const [name, entries] of list.byProperty) if (name.startsWith(prefix)) chosen.push(...entries);
        } else chosen.push(...(list.byProperty.get(property) ?? []));
      }
      items = chosen;
    }
    if (rule.importantOnly) items = items.filter(important);
    if (rule.valueMatches) {
      const pattern = rule.valueMatches;
      items = items.filter((item) => pattern.test(value(item)));
    }
    return items;
  }
}

interface IndexedList<T> {
  all: readonly T[];
  byProperty: ReadonlyMap<string, T[]>;
  /** DeclarationIndex.select's answers by rule. */
  selected: Map<RewriteBehavior, readonly T[]>;
}

function indexList<T>(items: readonly T[], propertyOf: (item: T) => string): IndexedList<T> {
  const byProperty = new Map<string, T[]>();
  for (const item of items) {
    const property = propertyOf(item);
    const list = byProperty.get(property);
    if (list) list.push(item);
    else byProperty.set(property, [item]);
  }
  return { all: items, byProperty, selected: new Map() };
}

/** The declarations element rules read (BehaviorFacts.elementRuleReads). */
interface ElementRuleReads {
  inline: Array<{ element: HtmlElement; declaration: CssDeclaration; inline: InlineStyle }>;
  matched: Array<{ element: HtmlElement; property: string; declaration: Declaration }>;
}

/** What a set of rewrite rules does to one email (BehaviorFacts.rewritesFor). */
interface SharedRewrites {
  inlineRewrites: Map<CssDeclaration, Decl | null>;
  sheetRewrites: Map<Declaration, Decl | null>;
  atRuleRewrites: Map<AtRule, string | null>;
  droppedStyleValues: Set<string>;
  commentRewrites: Map<HtmlComment, string>;
  hits: Array<{ by: RewriteBehavior; position: { line: number; column: number } | undefined; count: number; wholeAttribute?: true }>;
}

/**
 * A client's rules sorted by the hook computeRewrites and evaluateBehaviors call, built once per client (catalog
 * data): each email's evaluation walked every rule list again per hook and client to find the few that apply.
 */
interface RuleHooks {
  commentRewriters: readonly RewriteBehavior[];
  styleDroppers: readonly RewriteBehavior[];
  declarationRewriters: readonly RewriteBehavior[];
  attributeDroppers: readonly RewriteBehavior[];
  atRuleRewriters: readonly RewriteBehavior[];
  /** `[...removes, ...unwraps]` with what each entry does (a tag in both lists removes, twice, as it always did). */
  sanitized: ReadonlyArray<{ tag: string; behavior: SanitizeBehavior; how: 'removes' | 'unwraps' }>;
  /** The properties element rules govern whole (rules reading no values). */
  governed: readonly string[];
}

const RULE_HOOKS = new WeakMap<ClientRules, RuleHooks>();

function hooksOf(rules: ClientRules): RuleHooks {
  let hooks = RULE_HOOKS.get(rules);
  if (!hooks) {
    hooks = {
      commentRewriters: rules.rewrites.filter((r) => r.rewriteComment),
      styleDroppers: rules.rewrites.filter((r) => r.dropsStyleAttribute),
      declarationRewriters: rules.rewrites.filter((r) => r.rewrite),
      attributeDroppers: rules.rewrites.filter((r) => r.dropsAttributes),
      atRuleRewriters: rules.rewrites.filter((r) => r.rewriteAtRule),
      sanitized: [...rules.removes, ...rules.unwraps].map(([tag, behavior]) => ({ tag, behavior, how: rules.removes.has(tag) ? 'removes' : 'unwraps' })),
      // A rule that reads some values or elements only, or only reports, leaves caniemail's finding for the property in place.
      governed: [...rules.elementRules]
        .filter(([, list]) => list.some((behavior) => !behavior.valueMatches && !behavior.when && !behavior.keeps))
        .map(([property]) => property),
    };
    RULE_HOOKS.set(rules, hooks);
  }
  return hooks;
}

function computeRewrites(facts: BehaviorFacts, rules: ClientRules, drops: Pick<BehaviorOutcome, 'droppedSheets' | 'droppedCss'>): SharedRewrites {
  const result: SharedRewrites = {
    inlineRewrites: new Map(),
    sheetRewrites: new Map(),
    atRuleRewrites: new Map(),
    droppedStyleValues: new Set(),
    commentRewrites: new Map(),
    hits: [],
  };
  const hooks = hooksOf(rules);
  for (const rule of hooks.commentRewriters) {
    for (const comment of facts.parsed.comments) {
      if (result.commentRewrites.has(comment)) continue;
      const markup = rule.rewriteComment?.(comment.data);
      if (markup === undefined) continue;
      result.commentRewrites.set(comment, markup);
      result.hits.push({ by: rule, position: positionOf(comment), count: 1 });
    }
  }
  const { styleDroppers } = hooks;
  if (styleDroppers.length > 0) {
    for (const group of facts.inlineGroups()) {
      const dropper = styleDroppers.find((r) => facts.dropsStyle(r, group.value));
      if (dropper) {
        result.droppedStyleValues.add(group.value);
        result.hits.push({ by: dropper, position: group.first, count: group.count, wholeAttribute: true });
      }
    }
  }
  // Only the declarations some rule can change are offered to the rules (facts.declarationIndex narrows them).
  const index = facts.declarationIndex();
  const inlineCandidates = new Set<InlineEntry>();
  const sheetCandidates = new Set<SheetDeclaration>();
  for (const rule of hooks.declarationRewriters) {
    for (const entry of index.select(index.inline, rule, inlineImportant, inlineValue)) inlineCandidates.add(entry);
    for (const item of index.select(index.sheet, rule, sheetImportant, sheetValue)) sheetCandidates.add(item);
  }
  for (const entry of inlineCandidates) {
    if (result.droppedStyleValues.has(entry.group.value)) continue;
    const hit = rewriteEntry(rules.rewritesFor(entry.declaration.property), entry);
    if (!hit) continue;
    result.inlineRewrites.set(entry.declaration, hit.result);
    result.hits.push({ by: hit.by, position: entry.group.first, count: entry.group.count });
  }
  for (const rule of hooks.attributeDroppers) {
    for (const { element } of facts.attributeDrops(rule)) result.hits.push({ by: rule, position: positionOf(element), count: 1 });
  }
  const { atRuleRewriters } = hooks;
  const { atRules } = facts.cssNodes();
  for (const item of atRuleRewriters.length > 0 ? atRules : []) {
    if (drops.droppedSheets.has(item.sheet.element) || drops.droppedCss.has(item.top)) continue;
    let params: string | null | undefined;
    let by: RewriteBehavior | undefined;
    for (const rule of atRuleRewriters) {
      const next = rule.rewriteAtRule?.(item.name, params ?? item.node.params, item.nested, item.parentAtRule);
      if (next === undefined) continue;
      by ??= rule;
      params = next;
      if (next === null) break;
    }
    if (!by || params === undefined) continue;
    result.atRuleRewrites.set(item.node, params);
    // The same prelude only keeps the at-rule over caniemail's flag (a documented correction): no finding.
    if (params !== item.node.params) result.hits.push({ by, position: sheetNodePosition(item.sheet, item.node), count: 1 });
  }
  for (const item of sheetCandidates) {
    const candidates = rules.rewritesFor(item.property);
    if (candidates.length === 0 || drops.droppedSheets.has(item.sheet.element) || drops.droppedCss.has(item.top)) continue;
    const hit = rewriteEntry(candidates, item);
    if (!hit) continue;
    result.sheetRewrites.set(item.node, hit.result);
    result.hits.push({ by: hit.by, position: sheetNodePosition(item.sheet, item.node), count: 1 });
  }
  return result;
}

const inlineImportant = (entry: InlineEntry): boolean => entry.declaration.important;
const inlineValue = (entry: InlineEntry): string => entry.declaration.value;
const sheetImportant = (item: SheetDeclaration): boolean => item.node.important === true;
const sheetValue = (item: SheetDeclaration): string => item.node.value;

/** A declaration's rewrite through one list of rules (rewriteDeclaration with its site). */
function rewriteEntry(rules: readonly RewriteBehavior[], entry: InlineEntry | SheetDeclaration): RewriteHit | undefined {
  if ('group' in entry) {
    const { declaration } = entry;
    return rewriteDeclaration(rules, declaration, { inline: true, raw: declaration.important ? rawInlineDeclaration(declaration) : undefined });
  }
  const { node } = entry;
  const important = node.important === true;
  return rewriteDeclaration(
    rules,
    { property: entry.property, value: node.value, important },
    { inline: false, raw: important ? rawDeclaration(node) : undefined },
  );
}

/** The name of the nearest at-rule around a node (lower-case), walking up through style rules; undefined at the top. */
function enclosingAtRule(node: ChildNode): string | undefined {
  let parent = node.parent;
  while (parent && (parent.type === 'rule' || parent.type === 'atrule')) {
    if (parent.type === 'atrule') return (parent as AtRule).name.toLowerCase();
    parent = (parent as Rule).parent;
  }
  return undefined;
}

/** Per-email facts behaviors read, computed once for every client. */
export class BehaviorFacts {
  private sheetFactList?: SheetFacts[];
  private textNodes?: HtmlText[];
  private sheetNodes?: { declarations: SheetDeclaration[]; atRules: SheetAtRule[] };
  private readonly styleDrops = new Map<RewriteBehavior, Map<string, boolean>>();
  private inlineGroupList?: InlineGroup[];
  private readonly overrides = new Map<AdditionBehavior, HtmlElement[]>();

  /** What an addition overrides in this email, looked up once: the clients that share the addition (Outlook's, Yahoo's) ask again. */
  overriddenBy(addition: AdditionBehavior): readonly HtmlElement[] {
    let found = this.overrides.get(addition);
    if (!found) {
      found = findOverridden(this.parsed, addition);
      this.overrides.set(addition, found);
    }
    return found;
  }

  /** The email's `style` attributes grouped by text (equal texts share their declarations): how many, and the first. */
  inlineGroups(): readonly InlineGroup[] {
    if (this.inlineGroupList) return this.inlineGroupList;
    const groups = new Map<string, InlineGroup>();
    for (const inline of this.parsed.inlineStyles.values()) {
      const group = groups.get(inline.value);
      if (!group)
        groups.set(inline.value, { value: inline.value, declarations: inline.declarations, count: 1, first: { line: inline.line, column: inline.column } });
      else {
        group.count++;
        if (inline.line > 0 && (group.first.line === 0 || inline.line < group.first.line)) group.first = { line: inline.line, column: inline.column };
      }
    }
    this.inlineGroupList = [...groups.values()];
    return this.inlineGroupList;
  }

  /** Whether a rule empties a `style` attribute with this text, asked once per rule and distinct text. */
  dropsStyle(behavior: RewriteBehavior, value: string): boolean {
    let byValue = this.styleDrops.get(behavior);
    if (!byValue) this.styleDrops.set(behavior, (byValue = new Map()));
    let drops = byValue.get(value);
    if (drops === undefined) {
      drops = behavior.dropsStyleAttribute?.(value) === true;
      byValue.set(value, drops);
    }
    return drops;
  }

  private readonly attributeDropHits = new Map<RewriteBehavior, Array<{ element: HtmlElement; dropped: readonly string[] }>>();

  /**
   * The elements a rule removes attributes from, with the names, in its tags' order: found once per email, as
   * rules are shared by clients and the transform asks again for each of them.
   */
  attributeDrops(rule: RewriteBehavior): ReadonlyArray<{ element: HtmlElement; dropped: readonly string[] }> {
    let found = this.attributeDropHits.get(rule);
    if (!found) {
      found = [];
      for (const tag of rule.dropsAttributesOn ?? []) {
        for (const element of this.parsed.elementsByTag.get(tag) ?? []) {
          const dropped = rule.dropsAttributes?.(element) ?? [];
          if (dropped.length > 0) found.push({ element, dropped });
        }
      }
      this.attributeDropHits.set(rule, found);
    }
    return found;
  }

  private readonly rewriteResults = new Map<string, SharedRewrites>();
  private index?: DeclarationIndex;

  declarationIndex(): DeclarationIndex {
    this.index ??= new DeclarationIndex(this.inlineGroups(), this.cssNodes().declarations);
    return this.index;
  }

  /** The rewrites of a client's rules on this email, shared by the clients whose rewrite and drop-block rules are the same. */
  rewritesFor(rules: ClientRules, drops: Pick<BehaviorOutcome, 'droppedSheets' | 'droppedCss'>): SharedRewrites {
    const key = rules.rewriteSignature;
    let result = this.rewriteResults.get(key);
    if (!result) {
      result = computeRewrites(this, rules, drops);
      this.rewriteResults.set(key, result);
    }
    return result;
  }

  /** What each drop-block rule found in each sheet: clients that share a rule (Gmail's three) look once. */
  private readonly poisons = new Map<DropBlockBehavior, Map<EmailStyleSheet, Poison | null>>();

  poisonOf(behavior: DropBlockBehavior, facts: SheetFacts): Poison | undefined {
    let bySheet = this.poisons.get(behavior);
    if (!bySheet) this.poisons.set(behavior, (bySheet = new Map()));
    let poison = bySheet.get(facts.sheet);
    if (poison === undefined) {
      poison = behavior.find(facts) ?? null;
      bySheet.set(facts.sheet, poison);
    }
    return poison ?? undefined;
  }

  /** Every declaration and at-rule of the email's `<style>` blocks, with its top-level node. */
  cssNodes(): { declarations: SheetDeclaration[]; atRules: SheetAtRule[] } {
    if (this.sheetNodes) return this.sheetNodes;
    const declarations: SheetDeclaration[] = [];
    const atRules: SheetAtRule[] = [];
    for (const sheet of this.parsed.styleSheets) {
      for (const top of sheet.root.nodes) {
        const visit = (node: ChildNode): void => {
          if (node.type === 'decl') {
            declarations.push({ node, sheet, top, property: node.prop.toLowerCase() });
          } else if (node.type === 'atrule') {
            atRules.push({ node, sheet, top, name: node.name.toLowerCase(), nested: node.parent?.type === 'rule', parentAtRule: enclosingAtRule(node) });
          }
          if ('nodes' in node && node.nodes) for (const child of node.nodes) visit(child);
        };
        visit(top);
      }
    }
    this.sheetNodes = { declarations, atRules };
    return this.sheetNodes;
  }

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
      return { sheet, inBody: isInBody(sheet.element), totalStyleBytes: 0, parsed: this.parsed };
    });
    for (const fact of facts) fact.totalStyleBytes = bytes;
    this.sheetFactList = facts;
    return this.sheetFactList;
  }

  private elementReads?: ElementRuleReads;

  /**
   * What element rules read, flattened once per email in document order: every inline declaration, and every
   * declaration of a `<style>` rule with the element it styles (property lower-cased). Six clients have element
   * rules; each walked the cascade's matches and lower-cased every property again.
   */
  elementRuleReads(): ElementRuleReads {
    if (this.elementReads) return this.elementReads;
    const inline: ElementRuleReads['inline'] = [];
    for (const [element, style] of this.parsed.inlineStyles) for (const declaration of style.declarations) inline.push({ element, declaration, inline: style });
    const matched: ElementRuleReads['matched'] = [];
    for (const [element, matches] of this.cascade?.matches ?? []) {
      for (const match of matches) {
        for (const declaration of match.declarations) {
          const property = HAS_UPPERCASE.test(declaration.prop) ? declaration.prop.toLowerCase() : declaration.prop;
          matched.push({ element, property, declaration });
        }
      }
    }
    this.elementReads = { inline, matched };
    return this.elementReads;
  }

  private readonly additionHits = new Map<AdditionBehavior, Array<{ text: HtmlText; added: { text: string; count: number } }>>();

  /** The visible texts an addition adds markup to, with the markup: scanned once per email, as Outlook's three clients share one. */
  additionsOf(addition: AdditionBehavior): ReadonlyArray<{ text: HtmlText; added: { text: string; count: number } }> {
    let hits = this.additionHits.get(addition);
    if (!hits) {
      hits = [];
      for (const text of this.visibleTexts()) {
        const added = addition.addTo?.(text.value, this.parsed, text);
        if (added) hits.push({ text, added });
      }
      this.additionHits.set(addition, hits);
    }
    return hits;
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

/** Per client and tag: caniemail's own finding already flags the element (unsupported, or partial with the behaviour in its notes). */
const FLAGGED_ELEMENTS = new Map<ClientId, Map<string, boolean>>();
function flaggedElement(client: ClientId, tag: string): boolean {
  let byTag = FLAGGED_ELEMENTS.get(client);
  if (!byTag) FLAGGED_ELEMENTS.set(client, (byTag = new Map()));
  let flagged = byTag.get(tag);
  if (flagged === undefined) {
    const slug = ELEMENT_FEATURES[tag];
    const level = slug ? getTrackedFeature(slug)?.support.byClient[CLIENT_INDEX[client]].level : undefined;
    flagged = level === 'unsupported' || level === 'partial';
    byTag.set(tag, flagged);
  }
  return flagged;
}

const HAS_UPPERCASE = /[A-Z]/;
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

/** Findings per behavior and property; the message is built once, for the first occurrence. */
class FindingTally {
  private readonly byBehavior = new Map<ClientBehavior, Map<string, BehaviorFinding>>();
  private readonly order: BehaviorFinding[] = [];
  add(
    behavior: ClientBehavior,
    severity: Severity,
    property: string,
    message: () => string,
    suggestion: string,
    position?: { line: number; column: number },
    count = 1,
  ): void {
    let byProperty = this.byBehavior.get(behavior);
    if (!byProperty) this.byBehavior.set(behavior, (byProperty = new Map()));
    const existing = byProperty.get(property);
    if (existing) {
      existing.occurrences += count;
      if (position && position.line > 0 && (existing.line === 0 || position.line < existing.line)) {
        existing.line = position.line;
        existing.column = position.column;
      }
      return;
    }
    const finding = {
      behavior,
      severity,
      property,
      message: message(),
      suggestion,
      line: position?.line ?? 0,
      column: position?.column ?? 0,
      occurrences: count,
    };
    byProperty.set(property, finding);
    this.order.push(finding);
  }
  list(): BehaviorFinding[] {
    return this.order;
  }
}

/** The top-level node of a sheet that holds `node` (a parent below the root is a rule or an at-rule). */
export function topLevelOf(node: ChildNode): ChildNode {
  let current = node;
  while (current.parent && current.parent.type !== 'root' && current.parent.type !== 'document') current = current.parent as Rule | AtRule;
  return current;
}

function sheetNodePosition(sheet: EmailStyleSheet, node: ChildNode | undefined): { line: number; column: number } {
  if (!node) return positionOf(sheet.element) ?? { line: 0, column: 0 };
  const [line, column] = cssNodePosition(sheet.line, sheet.column, node);
  return { line, column };
}

/** A rewrite that fired on a declaration: what it became (null: dropped) and the first rule that changed it. */
export interface RewriteHit {
  result: Decl | null;
  by: RewriteBehavior;
}

/** Applies a client's rewrite rules to one declaration; undefined when none changes it (the common case allocates nothing). */
export function rewriteDeclaration(rewrites: readonly RewriteBehavior[], declaration: Decl, site: DeclarationSite): RewriteHit | undefined {
  let current: Decl = declaration;
  let by: RewriteBehavior | undefined;
  for (const rule of rewrites) {
    if (!rule.rewrite) continue;
    const next = rule.rewrite(current, site);
    if (next === undefined) continue;
    by ??= rule;
    if (next === null) return { result: null, by: rule };
    current = next;
  }
  return by ? { result: current, by } : undefined;
}

/** The raw text of a postcss declaration as written (`! important` spelled as the author did). */
export function rawDeclaration(declaration: Declaration): string {
  return `${declaration.prop}:${declaration.raws.value?.raw ?? declaration.value}${declaration.important ? (declaration.raws.important ?? ' !important') : ''}`;
}

/** The raw text of an inline declaration, `!important` as the author spelled it. */
export function rawInlineDeclaration(declaration: CssDeclaration): string {
  return `${declaration.property}:${declaration.value}${declaration.important ? (declaration.importantRaw ?? ' !important') : ''}`;
}

/** Whole-block and rest-of-block drops: the first poison of a block decides. */
function findPoisons(facts: BehaviorFacts, outcome: BehaviorOutcome, tally: FindingTally, clientName: string): void {
  if (outcome.rules.dropBlocks.length > 0) {
    for (const sheetFacts of facts.sheets()) {
      for (const behavior of outcome.rules.dropBlocks) {
        const poison = facts.poisonOf(behavior, sheetFacts);
        if (!poison) continue;
        const position = sheetNodePosition(sheetFacts.sheet, poison.node);
        if (behavior.scope === 'block' || !poison.node) {
          outcome.droppedSheets.set(sheetFacts.sheet.element, { ...poison, behavior });
          tally.add(
            behavior,
            behavior.severity,
            poison.label,
            () => `${clientName} removes the whole <style> block: ${behavior.summary}`,
            behavior.suggestion,
            position,
          );
        } else {
          const root = sheetFacts.sheet.root as Root;
          const first = root.index(topLevelOf(poison.node));
          root.nodes.forEach((node, index) => {
            if (index >= first) outcome.droppedCss.add(node);
          });
          tally.add(
            behavior,
            behavior.severity,
            poison.label,
            () => `${clientName} ignores the rest of the <style> block from ${poison.label} on: ${behavior.summary}`,
            behavior.suggestion,
            position,
          );
        }
        break;
      }
    }
  }
}

/** Markup the client adds: a wrapper around the body's content, links in the text. */
function addMarkup(facts: BehaviorFacts, outcome: BehaviorOutcome, tally: FindingTally, clientName: string): void {
  const { parsed } = facts;
  // The wrapper scoped selectors need (Yahoo's #yiv… div) is outermost, as the client serves it.
  if (outcome.rules.prefix?.scopeWrapper) outcome.bodyWrapper = outcome.rules.prefix.scopeWrapper;
  for (const addition of outcome.rules.additions) {
    if (addition.disabledBy(parsed)) continue;
    if (addition.wrapsBody) {
      const outer = outcome.bodyWrapper;
      outcome.bodyWrapper = outer ? { open: outer.open + addition.wrapsBody.open, close: addition.wrapsBody.close + outer.close } : addition.wrapsBody;
      const body = parsed.elementsByTag.get('body')?.[0];
      if (body && addition.breaksRules?.(parsed))
        tally.add(addition, addition.severity, addition.id, () => `${clientName}: ${addition.summary}`, addition.suggestion, positionOf(body));
      continue;
    }
    if (addition.addsAttributes || addition.addsDeclarations) {
      reportOverrides(facts, addition, tally, clientName);
      continue;
    }
    if (!addition.addTo) continue;
    let count = 0;
    let first: { line: number; column: number } | undefined;
    for (const { text, added } of facts.additionsOf(addition)) {
      if (outcome.texts.has(text)) continue;
      outcome.texts.set(text, added.text);
      count += added.count;
      first ??= positionOf(text);
    }
    if (count === 0) continue;
    const restyled = addition.restyledBy(parsed);
    const severity: Severity = restyled ? 'info' : addition.severity;
    const message = `${clientName} ${addition.summary.replace(/\.$/, '')}: ${count} found in this email${restyled ? '; the email restyles them to look like its text' : ''}.`;
    tally.add(addition, severity, addition.id, () => message, addition.suggestion, first);
    const finding = tally.list().find((f) => f.behavior === addition);
    if (finding) finding.occurrences = count;
  }
}

/**
 * Attributes and declarations a client forces: the markup changes on every element of the tags, but a finding
 * is given only where the email says otherwise (loading="eager", table-layout:auto, a transition's duration), so
 * an email that does not care gets no note. A declaration the client sets without `!important` loses to the
 * email's own, so it never overrides anything and gives no finding. Tag `*` is every element.
 */
function reportOverrides(facts: BehaviorFacts, addition: AdditionBehavior, tally: FindingTally, clientName: string): void {
  for (const element of facts.overriddenBy(addition)) {
    tally.add(addition, addition.severity, addition.id, () => `${clientName} ${addition.summary}`, addition.suggestion, positionOf(element));
  }
}

/**
 * Whether a style attribute sets (itself or by a shorthand) a property an addition forces, to another value. The
 * client's rule is a style sheet's: an `!important` declaration in the attribute still wins over it (the rewritten
 * markup paints it so), so it is not overridden.
 */
function overridesInline(
  own: readonly CssDeclaration[] | undefined,
  forcedList: readonly { property: string; value: string }[],
  sets: (property: string, forced: string) => boolean,
): boolean {
  if (own === undefined) return false;
  return forcedList.some((forced) => own.some((d) => !d.important && sets(d.property, forced.property) && d.value.trim().toLowerCase() !== forced.value));
}

/** The source elements whose own attribute or `!important` declaration an addition overrides, in the order reported. */
function findOverridden(parsed: ParsedEmail, addition: AdditionBehavior): HtmlElement[] {
  const attributes = addition.addsAttributes?.attributes ?? [];
  const declarations = (addition.addsDeclarations?.declarations ?? []).filter((d) => d.important);
  const tags = [...(addition.addsAttributes?.on ?? []), ...(declarations.length > 0 ? (addition.addsDeclarations?.on ?? []) : [])];
  // The forced property itself, or a shorthand that sets it (transition sets transition-duration).
  const sets = (property: string, forced: string): boolean => property === forced || forced.startsWith(`${property}-`);
  const changesInline = (element: HtmlElement, own: readonly CssDeclaration[] | undefined): boolean =>
    addition.changesElement ? own !== undefined && addition.changesElement(element, own) : overridesInline(own, declarations, sets);
  const overridden = (element: HtmlElement): boolean =>
    attributes.some((forced) => element.attrs.some((a) => !a.prefix && a.name === forced.name && a.value.trim().toLowerCase() !== forced.value)) ||
    (declarations.length > 0 && changesInline(element, parsed.inlineStyles.get(element)?.declarations));
  const found: HtmlElement[] = [];
  for (const tag of new Set(tags)) {
    for (const element of tag === '*' ? parsed.elements : (parsed.elementsByTag.get(tag) ?? [])) {
      if (element.sourceCodeLocation && overridden(element)) found.push(element);
    }
  }
  return found;
}

/** Evaluates the client's model against the email once: drops, rewrites and element rules that fire, with their findings. */
export function evaluateBehaviors(facts: BehaviorFacts, client: ClientId, clientName: string): BehaviorOutcome {
  const rules = rulesOf(client);
  const { parsed } = facts;
  const tally = new FindingTally();
  const outcome: BehaviorOutcome = {
    rules,
    droppedSheets: new Map(),
    droppedCss: new Set(),
    findings: [],
    elementGoverned: new Set(),
    texts: new Map(),
    inlineRewrites: new Map(),
    sheetRewrites: new Map(),
    atRuleRewrites: new Map(),
    droppedStyleValues: new Set(),
    commentRewrites: new Map(),
  };

  findPoisons(facts, outcome, tally, clientName);

  // Rewrites: inline declarations, then the declarations of the blocks the client keeps. Each distinct
  // declaration is rewritten once, and clients with the same rules (Gmail's three) share the result; the
  // transform reads it.
  if (rules.rewrites.length > 0) {
    const rewrites = facts.rewritesFor(rules, outcome);
    outcome.inlineRewrites = rewrites.inlineRewrites;
    outcome.sheetRewrites = rewrites.sheetRewrites;
    outcome.atRuleRewrites = rewrites.atRuleRewrites;
    outcome.droppedStyleValues = rewrites.droppedStyleValues;
    outcome.commentRewrites = rewrites.commentRewrites;
    for (const hit of rewrites.hits) {
      const how = hit.wholeAttribute ? ' removes the whole style attribute:' : ':';
      tally.add(hit.by, hit.by.severity, hit.by.label, () => `${clientName}${how} ${hit.by.summary}`, hit.by.suggestion, hit.position, hit.count);
    }
  }

  // Element rules: a governed property used on an element the client ignores it on (inline, or through a
  // <style> rule that styles that element); used where it works, it gives no finding at all.
  if (rules.elementRules.size > 0) {
    for (const property of hooksOf(rules).governed) outcome.elementGoverned.add(property);
    const report = (element: HtmlElement, property: string, value: string, position: () => { line: number; column: number } | undefined): void => {
      const behavior = elementRuleOn(rules.elementRules.get(property), element, value, facts.parsed);
      if (!behavior) return;
      const label = behavior.valueMatches ? `${property}: ${value.trim()}` : property;
      const how = behavior.keeps
        ? `paints ${label} differently`
        : behavior.becomes !== undefined
          ? `paints ${label} as ${behavior.becomes}`
          : `ignores ${label}`;
      tally.add(behavior, 'warning', label, () => `${clientName} ${how} on <${element.tagName}>: ${behavior.summary}`, behavior.suggestion, position());
    };
    for (const { element, declaration, inline } of facts.elementRuleReads().inline) {
      if (rules.elementRules.has(declaration.property))
        report(element, declaration.property, declaration.value, () => ({ line: inline.line, column: inline.column }));
    }
    for (const { element, property, declaration } of facts.elementRuleReads().matched) {
      if (rules.elementRules.has(property)) report(element, property, declaration.value, () => positionOf(element));
    }
  }

  // Elements the sanitizer removes or unwraps.
  for (const { tag, behavior, how } of hooksOf(rules).sanitized) {
    if (flaggedElement(client, tag)) continue;
    for (const element of parsed.elementsByTag.get(tag) ?? []) {
      if (!element.sourceCodeLocation) continue;
      if (!sanitizesElement(how === 'unwraps' ? rules.unwraps : rules.removes, element, parsed)) continue;
      tally.add(behavior, behavior.severity, `<${tag}>`, () => `${clientName} ${how} <${tag}>: ${behavior.summary}`, behavior.suggestion, positionOf(element));
    }
  }

  // Markup the client writes in front of elements (Word's list split at an <li value>).
  for (const behavior of rules.sanitize) {
    for (const tag of behavior.writesBefore?.on ?? []) {
      if (flaggedElement(client, tag)) continue;
      for (const element of parsed.elementsByTag.get(tag) ?? []) {
        if (!element.sourceCodeLocation || !behavior.writesBefore?.before(element)) continue;
        tally.add(behavior, behavior.severity, `<${tag}>`, () => `${clientName}: ${behavior.summary}`, behavior.suggestion, positionOf(element));
      }
    }
  }

  // Relative URLs resolved against another base than a browser's (the first <base href> of the document).
  const urlBase = rules.urlBase;
  const base = urlBase?.resolvesUrlsAgainst?.(parsed);
  if (urlBase && base && base !== browserBase(parsed)) {
    const first = relativeUrls(parsed)[0];
    if (first) tally.add(urlBase, urlBase.severity, '<base>', () => `${clientName}: ${urlBase.summary}`, urlBase.suggestion, positionOf(first.element));
  }

  addMarkup(facts, outcome, tally, clientName);

  outcome.findings = tally.list();
  return outcome;
}
