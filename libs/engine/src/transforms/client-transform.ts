import type { AtRule, ChildNode, Declaration, Rule } from 'postcss';
import { CollectedFeatures, FeatureUse } from '../analysis/collect-features';
import { Severity } from '../analysis/css-finding';
import { getTrackedFeature } from '../clients/feature-catalog';
import { MatchedRule, StyleCascade } from '../analysis/style-cascade';
import { CLIENT_IDS, ClientId } from '../clients/email-client';
import { getClient } from '../clients/email-clients';
import { CssDeclaration, serializeDeclarations } from '../parse/css-syntax';
import { HtmlComment, HtmlElement, HtmlText, getAttribute, isElement, positionOf } from '../parse/dom';
import { utf8Length } from '../parse/utf8-length';
import { relativeUrls, resolveAgainst } from '../clients/models/base-url';
import { EmailStyleSheet, InlineStyle, ParsedEmail } from '../parse/parse-email';
import { ClientRules, sanitizedTags, sanitizesElement } from '../clients/models/client-rules';
import { PrefixBehavior, SanitizeBehavior, elementRuleOn } from '../clients/models/client-behavior';
import { BehaviorFacts, BehaviorOutcome, evaluateBehaviors, topLevelOf } from '../analysis/client-behaviors';
import { CssWriteOptions, writeCss } from './css-writer';
import { AttributeValue, RenderPlan, emptyPlan, serializeStartTag } from './render-template';
import { prefixClassList, prefixSelector } from './selector-prefix';

export interface TransformWarning {
  severity: Severity;
  client: ClientId;
  property: string;
  message: string;
  line?: number;
  column?: number;
}

/** A client's view of the email: its render plan plus what the dark-mode pass builds on. */
export interface ClientView {
  client: ClientId;
  plan: RenderPlan;
  /** Final `style` declarations of elements whose style changed (missing: unchanged). */
  styles: Map<HtmlElement, Array<Pick<CssDeclaration, 'property' | 'value' | 'important'>>>;
  /** Attributes of elements whose style or attributes the client changed, before any dark-mode change. */
  attributes: Map<HtmlElement, AttributeValue[]>;
  /** An element's attributes as the client writes them (its style, attribute drops and name prefixes). */
  attributesOf(element: HtmlElement): readonly AttributeValue[];
  /** What the client's documented behaviors did (blocks dropped, rewrites, additions). */
  behaviors: BehaviorOutcome;
  /**
   * Writes a `<style>` block as this client keeps it (its drops, prefixes and rewrites), with the dark
   * variant's additions: a value recoloring, at-rules unwrapped, nodes skipped. Undefined for a removed block.
   * Only the transform's own write (no extras) warns about what the client drops.
   */
  writeSheet(sheet: EmailStyleSheet, extra?: SheetWriteExtras): string | undefined;
  warnings: TransformWarning[];
}

type SelectorWriter = (rule: Rule) => string;

/** What prefixing an element reads of a prefix behaviour, as a key (catalog data: kept per behaviour, not per email). */
const PREFIX_KEYS = new WeakMap<PrefixBehavior, string>();
function prefixKey(prefix: PrefixBehavior): string {
  let key = PREFIX_KEYS.get(prefix);
  if (key === undefined) {
    key = JSON.stringify([prefix.classPrefix ?? null, prefix.idPrefix ?? null, prefix.firstClassOnly === true]);
    PREFIX_KEYS.set(prefix, key);
  }
  return key;
}

/** One email's elements and class lists with one class/id prefix (TransformContext.markupOf). */
interface PrefixedMarkup {
  /** Class attribute value -> its prefixed text. */
  classLists: Map<string, string>;
  attributes: Map<HtmlElement, AttributeValue[]>;
  /** Prefixed forms of the attribute lists clients rewrote (shared lists, see styledAttributes), by list. */
  lists: Map<readonly AttributeValue[], AttributeValue[]>;
  /** The named elements' prefixed start tags, once asked for. */
  startTags: Map<HtmlElement, string> | undefined;
}

/**
 * Attributes with the client's class and id prefix. `classLists` holds the prefixed text of each class
 * attribute value met so far for this prefix (one email's): a class list repeats over elements and clients.
 */
function prefixedAttributes(attrs: readonly AttributeValue[], prefix: PrefixBehavior, classLists: Map<string, string>): AttributeValue[] {
  return attrs.map((a) => {
    if (a.prefix) return a;
    if (a.name === 'class') {
      let value = classLists.get(a.value);
      if (value === undefined) {
        value = prefixClassList(a.value, prefix.classPrefix, prefix.firstClassOnly === true);
        classLists.set(a.value, value);
      }
      return { ...a, value };
    }
    if (a.name === 'id' && prefix.idPrefix) return { ...a, value: `${prefix.idPrefix}${a.value}` };
    return a;
  });
}

/** What the dark variant adds when it re-writes a client's `<style>` block. */
export type SheetWriteExtras = Pick<CssWriteOptions, 'valueFor' | 'unwrap'> & {
  skip?(node: ChildNode): boolean;
  /** A dark-variant rewrite, tried before the client's own. */
  rewrite?: CssWriteOptions['rewrite'];
};

/** Features whose lack never makes a client drop the declaration or rule that uses them. */
const NEVER_DROPS = new Set(['css-important', 'css-comments', 'css-unit-initial']);
const REMOVABLE_TAGS = new Set(['script', 'iframe', 'link', 'svg', 'form', 'style', ...sanitizedTags()]);
const GMAIL: ReadonlySet<ClientId> = new Set(['gmail-web', 'gmail-android', 'gmail-ios']);

/** Shared per-email state every client transform reads. */
export class TransformContext {
  private readonly useMasks = new Map<FeatureUse, number>();
  private readonly declarationMasks = new Map<CssDeclaration, number>();
  private readonly cssNodeMasks = new Map<ChildNode, number>();
  private readonly styleMasks = new Map<string, number>();
  private readonly sheetMasks = new Map<object, number>();
  /** Elements some client may remove or unwrap (computed once, not per client). */
  readonly removable: readonly HtmlElement[];
  /** Elements with a style attribute or matched by a plain `<style>` rule, in document order. */
  readonly styled: readonly HtmlElement[];
  /** `styled`'s style attributes, index for index (undefined where the element has none): no lookup per client. */
  readonly styledInline: ReadonlyArray<InlineStyle | undefined>;
  /** The positions in `styled` of the elements with a style attribute: all a client that inlines no rule reads. */
  readonly inlineStyled: readonly number[];
  /** Elements with a class or id (a client that prefixes names rewrites them). */
  readonly named: readonly HtmlElement[];
  readonly behaviorFacts: BehaviorFacts;
  private readonly outcomes = new Map<ClientId, BehaviorOutcome>();

  constructor(
    readonly parsed: ParsedEmail,
    readonly features: CollectedFeatures,
    readonly cascade: StyleCascade,
  ) {
    this.removable = parsed.elements.filter((e) => REMOVABLE_TAGS.has(e.tagName));
    this.styled = parsed.elements.filter((e) => parsed.inlineStyles.has(e) || cascade.matches.has(e));
    this.styledInline = this.styled.map((e) => parsed.inlineStyles.get(e));
    const inlineStyled: number[] = [];
    for (let i = 0; i < this.styledInline.length; i++) if (this.styledInline[i] !== undefined) inlineStyled.push(i);
    this.inlineStyled = inlineStyled;
    this.named = parsed.elements.filter((e) => e.attrs.some((a) => (a.name === 'class' || a.name === 'id') && !a.prefix));
    this.behaviorFacts = new BehaviorFacts(parsed, cascade);
  }

  /** Prefixed markup by prefix behaviour; several behaviours share one entry (see markupOf). */
  private readonly markupByPrefix = new Map<PrefixBehavior, PrefixedMarkup>();
  private readonly markupByKey = new Map<string, PrefixedMarkup>();

  /**
   * The prefixed markup memo of a prefix. Prefixing an element reads the class prefix, the id prefix and
   * firstClassOnly only, so prefixes that agree on them share one memo: each Yahoo client and each of Outlook.com's
   * two composes its own behaviour (their selector limits), and Outlook's apps have selector limits but no names to prefix.
   */
  private markupOf(prefix: PrefixBehavior): PrefixedMarkup {
    let markup = this.markupByPrefix.get(prefix);
    if (!markup) {
      const key = prefixKey(prefix);
      markup = this.markupByKey.get(key);
      if (!markup) this.markupByKey.set(key, (markup = { classLists: new Map(), attributes: new Map(), lists: new Map(), startTags: undefined }));
      this.markupByPrefix.set(prefix, markup);
    }
    return markup;
  }

  /** A named element's attributes with the prefix (what a dark variant recolors), memoized per prefix. */
  prefixedAttributesOf(element: HtmlElement, prefix: PrefixBehavior): readonly AttributeValue[] {
    const markup = this.markupOf(prefix);
    let attrs = markup.attributes.get(element);
    if (!attrs) markup.attributes.set(element, (attrs = prefixedAttributes(element.attrs, prefix, markup.classLists)));
    return attrs;
  }

  /** A rewritten attribute list with the prefix: the same list (shared by clients that wrote the same one) is prefixed once. */
  prefixedAttributeList(attrs: readonly AttributeValue[], prefix: PrefixBehavior): AttributeValue[] {
    const markup = this.markupOf(prefix);
    let prefixed = markup.lists.get(attrs);
    if (!prefixed) markup.lists.set(attrs, (prefixed = prefixedAttributes(attrs, prefix, markup.classLists)));
    return prefixed;
  }

  private readonly styledLists = new Map<HtmlElement, Array<{ declarations: readonly Decl[]; attributes: AttributeValue[] }>>();

  /**
   * The element's attributes with its style attribute written from these declarations. Clients that keep the
   * very same declaration objects for an element (Gmail's three inline the same rules, the Yahoo family and
   * Outlook.com's two strip the same ones) get the same list, and so share its prefixed form and start tag.
   */
  styledAttributes(element: HtmlElement, declarations: readonly Decl[]): AttributeValue[] {
    let written = this.styledLists.get(element);
    if (!written) this.styledLists.set(element, (written = []));
    for (const entry of written) if (sameItems(entry.declarations, declarations)) return entry.attributes;
    const attributes = withStyleAttribute(element, declarations);
    // A few variants per element cover the families; past that, comparing would cost more than it saves.
    if (written.length < STYLED_VARIANTS) written.push({ declarations, attributes });
    return attributes;
  }

  private readonly startTagsOfLists = new Map<readonly AttributeValue[], string>();

  /** An element's start tag with these attributes, serialized once per list (a list is built for one element). */
  startTagOf(element: HtmlElement, attrs: readonly AttributeValue[]): string {
    let tag = this.startTagsOfLists.get(attrs);
    if (tag === undefined) {
      tag = serializeStartTag(element.tagName, attrs);
      this.startTagsOfLists.set(attrs, tag);
    }
    return tag;
  }

  private readonly inlinedDeclarations = new Map<Declaration, Pick<CssDeclaration, 'property' | 'value' | 'important'>>();
  /** A `<style>` declaration as an inlining client writes it into a style attribute: one object per email, shared by Gmail's three. */
  inlinedDeclaration(declaration: Declaration): Pick<CssDeclaration, 'property' | 'value' | 'important'> {
    let inlined = this.inlinedDeclarations.get(declaration);
    if (!inlined) {
      inlined = { property: declaration.prop.toLowerCase(), value: declaration.value, important: declaration.important === true };
      this.inlinedDeclarations.set(declaration, inlined);
    }
    return inlined;
  }

  private readonly selectorWriters = new Map<string, SelectorWriter>();

  /** The start tags of the email's named elements with their class and id prefixed (one map per prefix, shared by its clients). */
  prefixedStartTags(prefix: PrefixBehavior): ReadonlyMap<HtmlElement, string> {
    const markup = this.markupOf(prefix);
    if (!markup.startTags) {
      const tags = new Map<HtmlElement, string>();
      // Without a prefix (Word's first-class-only rule) only elements with several class names change.
      const renames = prefix.classPrefix !== undefined || prefix.idPrefix !== undefined;
      for (const element of this.named) {
        if (!renames && !MULTIPLE_CLASSES.test(getAttribute(element, 'class') ?? '')) continue;
        tags.set(element, serializeStartTag(element.tagName, this.prefixedAttributesOf(element, prefix)));
      }
      markup.startTags = tags;
    }
    return markup.startTags;
  }

  /**
   * The selector text a client writes for a rule: Gmail's kept selectors (what it could not inline), then the
   * client's prefix; memoized per kind of client, as several clients share one (the Yahoo family, Gmail's three).
   */
  selectorWriter(inlines: boolean, prefix: PrefixBehavior | undefined): SelectorWriter | undefined {
    if (prefix && !prefix.classPrefix && !prefix.idPrefix && !prefix.rewriteSelector) prefix = undefined; // Word's first-class rule touches markup only
    if (!inlines && !prefix) return undefined;
    const key = `${inlines ? 'inline' : ''}\u0000${prefix?.id ?? ''}`;
    let writer = this.selectorWriters.get(key);
    if (!writer) {
      const memo = new Map<Rule, string>();
      const { cascade } = this;
      writer = (rule: Rule): string => {
        let selector = memo.get(rule);
        if (selector !== undefined) return selector;
        selector = inlines && rule.parent?.type === 'root' ? (cascade.keptSelectors.get(rule)?.join(',') ?? rule.selector) : rule.selector;
        if (prefix) {
          selector = prefixSelector(selector, prefix.classPrefix, prefix.idPrefix);
          if (prefix.rewriteSelector) selector = prefix.rewriteSelector(selector) ?? '';
        }
        memo.set(rule, selector);
        return selector;
      };
      this.selectorWriters.set(key, writer);
    }
    return writer;
  }

  private readonly inlineSelectorDrops = new Map<string, Map<MatchedRule, boolean>>();
  /**
   * Whether a client that inlines drops the selector a rule matched by before inlining it (Gmail's attribute
   * selectors): its prefix's selector rewrite, read on the selector as the client prefixes it; memoized per prefix
   * and match (one entry per selector of a list, shared by the elements it matches).
   */
  inlineDropsSelector(prefix: PrefixBehavior, match: MatchedRule): boolean {
    let memo = this.inlineSelectorDrops.get(prefix.id);
    if (!memo) {
      memo = new Map();
      this.inlineSelectorDrops.set(prefix.id, memo);
    }
    let drops = memo.get(match);
    if (drops === undefined) {
      drops = match.selector !== undefined && prefix.rewriteSelector?.(prefixSelector(match.selector, prefix.classPrefix, prefix.idPrefix)) === null;
      memo.set(match, drops);
    }
    return drops;
  }

  /** What the client's documented behaviors do to this email (computed once per client). */
  behaviorOutcome(client: ClientId): BehaviorOutcome {
    let outcome = this.outcomes.get(client);
    if (!outcome) {
      outcome = evaluateBehaviors(this.behaviorFacts, client, getClient(client).name);
      this.outcomes.set(client, outcome);
    }
    return outcome;
  }

  /** Bit i set: CLIENT_IDS[i] drops what carries this use. */
  useMask(use: FeatureUse): number {
    let mask = this.useMasks.get(use);
    if (mask === undefined) {
      mask = 0;
      for (const id of use.featureIds) if (!NEVER_DROPS.has(id)) mask |= getTrackedFeature(id)?.support.unsupportedMask ?? 0;
      this.useMasks.set(use, mask);
    }
    return mask;
  }

  declarationMask(declaration: CssDeclaration): number {
    let mask = this.declarationMasks.get(declaration);
    if (mask === undefined) {
      mask = 0;
      for (const use of this.features.inlineDeclarationUses.get(declaration) ?? []) mask |= this.useMask(use);
      this.declarationMasks.set(declaration, mask);
    }
    return mask;
  }

  cssNodeMask(node: ChildNode): number {
    let mask = this.cssNodeMasks.get(node);
    if (mask === undefined) {
      mask = 0;
      for (const use of this.features.cssNodeUses.get(node) ?? []) mask |= this.useMask(use);
      this.cssNodeMasks.set(node, mask);
    }
    return mask;
  }

  /** OR of the masks of a style attribute's declarations. */
  styleMask(value: string, declarations: readonly CssDeclaration[]): number {
    let mask = this.styleMasks.get(value);
    if (mask === undefined) {
      mask = 0;
      for (const d of declarations) mask |= this.declarationMask(d);
      this.styleMasks.set(value, mask);
    }
    return mask;
  }

  /** Whether anything inside a stylesheet is dropped by this client. */
  sheetMask(root: { walk(cb: (node: ChildNode) => void): void }): number {
    // The same for every client (each reads its own bit): one walk per sheet, not one per client.
    let mask = this.sheetMasks.get(root);
    if (mask === undefined) {
      let all = 0;
      root.walk((node) => {
        all |= this.cssNodeMask(node);
      });
      mask = all;
      this.sheetMasks.set(root, mask);
    }
    return mask;
  }

  firstDroppingUse(uses: readonly FeatureUse[], bit: number): FeatureUse | undefined {
    return uses.find((use) => (this.useMask(use) & bit) !== 0);
  }
}

function unsupported(id: string, clientIndex: number): boolean {
  return getTrackedFeature(id)?.support.byClient[clientIndex].level === 'unsupported';
}

class WarningTally {
  private readonly entries = new Map<
    string,
    { severity: Severity; property: string; count: number; message: (n: number) => string; line?: number; column?: number }
  >();
  constructor(private readonly client: ClientId) {}
  /**
   * `kind` names the call site when it is in a loop (`strips`, `drops rule`): the key is then built without
   * writing the message; otherwise the message itself tells two warnings about one property apart.
   */
  add(severity: Severity, property: string, message: (n: number) => string, position?: { line: number; column: number }, kind?: string): void {
    const key = `${severity}\u0000${property}\u0000${kind ?? message(1)}`;
    const entry = this.entries.get(key);
    if (entry) entry.count++;
    else this.entries.set(key, { severity, property, count: 1, message, line: position?.line, column: position?.column });
  }
  list(): TransformWarning[] {
    const order: Record<Severity, number> = { error: 0, warning: 1, info: 2 };
    return [...this.entries.values()]
      .map((e) => {
        const w: TransformWarning = { severity: e.severity, client: this.client, property: e.property, message: e.message(e.count) };
        if (e.line) {
          w.line = e.line;
          w.column = e.column;
        }
        return w;
      })
      .sort(
        (a, b) => order[a.severity] - order[b.severity] || (a.line ?? 0) - (b.line ?? 0) || (a.property < b.property ? -1 : a.property > b.property ? 1 : 0),
      );
  }
}

const plural = (n: number, one: string, many = `${one}s`): string => `${n} ${n === 1 ? one : many}`;
/** Attribute lists TransformContext.styledAttributes keeps per element. */
const STYLED_VARIANTS = 4;

/** Whether two lists hold the same objects in the same order (two missing lists are the same). */
export function sameItems<T>(a: readonly T[] | undefined, b: readonly T[] | undefined): boolean {
  if (a === b) return true;
  if (!a || !b || a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** A class attribute with more than one name. */
const MULTIPLE_CLASSES = /\S\s+\S/;
/** Tests for a written sheet with content, without trimming (a copy of) the whole CSS text. */
const NON_BLANK = /\S/;

type Decl = Pick<CssDeclaration, 'property' | 'value' | 'important'> & { alongside?: readonly Decl[] };

/**
 * The markup as `client` delivers it: Gmail-style inlining, removal of what the client drops
 * (elements, at-rules, rules, declarations, comments), the Word engine's conditional comments, and the
 * documented behaviors of the client's model (clients/models/): blocks it drops whole, declarations it
 * rewrites, names it prefixes, properties it ignores on some elements, markup it adds.
 *
 * Hot path (21 clients per email): the steps are module functions given what they read, not methods or
 * closures of a per-call object; a class with arrow-function fields cost +40 ms per corpus pass in garbage
 * collection (docs/benchmarks.md, "Session 10").
 */
export function transformForClient(context: TransformContext, client: ClientId): ClientView {
  const { parsed } = context;
  const clientIndex = CLIENT_IDS.indexOf(client);
  const bit = 1 << clientIndex;
  const name = getClient(client).name;
  const plan = emptyPlan();
  const styles: ClientView['styles'] = new Map();
  const attributes: ClientView['attributes'] = new Map();
  const tally = new WarningTally(client);
  const inlines = GMAIL.has(client);
  const outcome = context.behaviorOutcome(client);
  const { rules } = outcome;
  const prefix = rules.prefix;

  removeElements(context, client, plan, tally);
  dropComments(parsed, client === 'outlook-windows-legacy', clientIndex, name, plan, tally);
  for (const [comment, markup] of outcome.commentRewrites) plan.comments.set(comment, markup);
  dropWholeStyleBlocks(outcome, name, plan, tally);
  const inlinedRuleCount = writeInlineStyles(context, outcome, bit, inlines, name, plan, tally, styles, attributes);
  dropElementAttributes(context.behaviorFacts, rules, name, attributes, tally);
  addElementAttributes(parsed, rules, attributes);
  if (rules.urlBase) resolveRelativeUrls(parsed, rules.urlBase, attributes);
  if (prefix) prefixNames(context, prefix, name, plan, tally, attributes);
  for (const [element, attrs] of attributes) plan.startTags.set(element, context.startTagOf(element, attrs));
  writeMarkupBefore(parsed, rules, plan);
  wrapBody(parsed, outcome, plan);
  addClientStyleSheet(parsed, rules, plan);
  const writeSheet = writeStyleBlocks(context, outcome, bit, inlines, name, plan, tally, inlinedRuleCount);
  addClientMarkup(outcome, plan, tally);
  if (rules.clip) clipMessage(parsed, rules.clip, name, plan, tally);

  const attributesOf = (element: HtmlElement): readonly AttributeValue[] => {
    const changed = attributes.get(element);
    if (changed) return changed;
    return prefix && plan.prefixedStartTags?.has(element) ? context.prefixedAttributesOf(element, prefix) : element.attrs;
  };
  return { client, plan, styles, attributes, attributesOf, behaviors: outcome, writeSheet, warnings: tally.list() };
}

/** Comments: dropped where unsupported; the Word engine reads its conditional comments. */
function dropComments(parsed: ParsedEmail, wordEngine: boolean, clientIndex: number, name: string, plan: RenderPlan, tally: WarningTally): void {
  if (wordEngine) {
    plan.dropNotMsoRanges = parsed.notMsoRanges.length > 0;
    for (const conditional of parsed.msoConditionals) plan.comments.set(conditional.comment, wordVisibleMarkup(conditional.content));
    if (parsed.msoConditionals.length > 0)
      tally.add(
        'info',
        'conditional comments',
        () => `${name} renders ${plural(parsed.msoConditionals.length, '<!--[if mso]> block')} and skips <!--[if !mso]> content.`,
      );
  } else if (unsupported('html-comments', clientIndex) && parsed.comments.length > 0) {
    for (const comment of parsed.comments) plan.comments.set(comment, '');
    tally.add('info', 'HTML comments', () => `${name} removed ${plural(parsed.comments.length, 'HTML comment')}.`);
  }
}

/** `<style>` blocks the client drops whole (a construct it rejects, a size limit, a place it ignores). */
function dropWholeStyleBlocks(outcome: BehaviorOutcome, name: string, plan: RenderPlan, tally: WarningTally): void {
  for (const [element, poison] of outcome.droppedSheets) {
    if (plan.removed.has(element)) continue;
    plan.removed.add(element);
    tally.add('warning', poison.label, (n) => `${name} removed ${plural(n, '<style> block')}: ${poison.behavior.summary}`, positionOf(element));
  }
}

/** Whether the client keeps the `<style>` block and top-level node a rule is in (Gmail inlines the rules of the blocks it keeps only). */
function sheetKept(rule: Rule, parsed: ParsedEmail, outcome: BehaviorOutcome, plan: RenderPlan): boolean {
  if (outcome.droppedCss.has(topLevelOf(rule))) return false;
  const root = rule.root();
  const sheet = parsed.styleSheets.find((s) => s.root === root);
  return !(sheet && plan.removed.has(sheet.element));
}

/** Declarations an element rule removes, counted per property and tag (warned about once, after the inline styles). */
type IgnoredCounts = Map<string, { property: string; tag: string; count: number; element: HtmlElement }>;

/**
 * A declaration as the client's element rules leave it on this element: unchanged, dropped (null: the property
 * is ignored there) or painted as another value (`becomes`); a change is counted.
 */
function onElement(
  kept: Decl,
  element: HtmlElement,
  context: TransformContext,
  elementRules: ClientRules['elementRules'],
  ignoredCounts: IgnoredCounts,
): Decl | null {
  const elementRule = elementRules.size > 0 ? elementRuleOn(elementRules.get(kept.property), element, kept.value, context.parsed) : undefined;
  if (!elementRule || elementRule.keeps) return kept;
  const property = elementRule.valueMatches ? `${kept.property}: ${kept.value}` : kept.property;
  const key = `${property} on <${element.tagName}>`;
  const counted = ignoredCounts.get(key);
  if (counted) counted.count++;
  else ignoredCounts.set(key, { property, tag: element.tagName, count: 1, element });
  return elementRule.becomes !== undefined ? { ...kept, value: elementRule.becomes } : null;
}

/** Whether a rewrite or element rule changes one of an element's inline declarations. */
function inlineChanges(element: HtmlElement, declarations: readonly CssDeclaration[], outcome: BehaviorOutcome, parsed: ParsedEmail): boolean {
  const { inlineRewrites } = outcome;
  const { elementRules } = outcome.rules;
  if (inlineRewrites.size === 0 && elementRules.size === 0) return false;
  for (const d of declarations) {
    if (inlineRewrites.has(d)) return true;
    const elementRule = elementRules.size > 0 ? elementRuleOn(elementRules.get(d.property), element, d.value, parsed) : undefined;
    if (elementRule && !elementRule.keeps) return true;
  }
  return false;
}

/**
 * Inline styles: drop what the client does not support; Gmail first merges matching `<style>` rules.
 * Declarations are kept as the client keeps them: caniemail drops, then its rewrites (computed once per
 * distinct declaration by evaluateBehaviors) and its element rules. Fills `styles` and `attributes`;
 * returns the number of rule matches inlined.
 */
function writeInlineStyles(
  context: TransformContext,
  outcome: BehaviorOutcome,
  bit: number,
  inlines: boolean,
  name: string,
  plan: RenderPlan,
  tally: WarningTally,
  styles: ClientView['styles'],
  attributes: ClientView['attributes'],
): number {
  const { parsed, features, cascade } = context;
  const { inlineRewrites, sheetRewrites, droppedStyleValues } = outcome;
  const elementRules = outcome.rules.elementRules;
  const dropsCss = outcome.droppedSheets.size > 0 || outcome.droppedCss.size > 0;
  const limit = inlines && outcome.rules.prefix?.rewriteSelector ? outcome.rules.prefix : undefined;
  const ignoredCounts: IgnoredCounts = new Map();
  let inlinedRuleCount = 0;
  const { styled, styledInline } = context;
  // A client that inlines no rule changes only elements with a style attribute: the others are not visited.
  const visited = inlines ? undefined : context.inlineStyled;
  const count = visited ? visited.length : styled.length;
  for (let k = 0; k < count; k++) {
    const i = visited ? visited[k] : k;
    const element = styled[i];
    const inline = styledInline[i];
    const allMatched = inlines ? cascade.matches.get(element) : undefined;
    let matched = allMatched && dropsCss ? allMatched.filter((m) => sheetKept(m.rule, parsed, outcome, plan)) : allMatched;
    // The client's selector limits hold before it inlines: a selector it drops (Gmail's attribute selectors) is not inlined.
    if (matched && limit && matched.some((m) => context.inlineDropsSelector(limit, m))) matched = matched.filter((m) => !context.inlineDropsSelector(limit, m));
    if (!matched?.length && !inline) continue;
    const dropsAttribute = inline !== undefined && droppedStyleValues.has(inline.value);
    if (
      !matched?.length &&
      inline &&
      !dropsAttribute &&
      (context.styleMask(inline.value, inline.declarations) & bit) === 0 &&
      !inlineChanges(element, inline.declarations, outcome, parsed)
    )
      continue;
    const merged = new Map<string, Decl>();
    const position = inline ? { line: inline.line, column: inline.column } : positionOf(element);
    for (const rule of matched ?? []) {
      inlinedRuleCount++;
      for (const declaration of rule.declarations) {
        if ((context.cssNodeMask(declaration) & bit) !== 0) continue;
        const rewritten = sheetRewrites.get(declaration);
        const kept = rewritten !== undefined ? rewritten : context.inlinedDeclaration(declaration);
        const placed = kept && onElement(kept, element, context, elementRules, ignoredCounts);
        if (!placed) continue;
        const existing = merged.get(placed.property);
        if (existing?.important && !placed.important) continue;
        merged.set(placed.property, placed);
        if (placed.alongside) addAlongside(merged, placed.alongside);
      }
    }
    for (const declaration of dropsAttribute ? [] : (inline?.declarations ?? [])) {
      // A documented rewrite (Yahoo's height -> min-height) says what happens instead of caniemail's "unsupported".
      const rewritten = inlineRewrites.get(declaration);
      if (rewritten === undefined && (context.declarationMask(declaration) & bit) !== 0) {
        const use = context.firstDroppingUse(features.inlineDeclarationUses.get(declaration) ?? [], bit);
        const label = use?.label ?? declaration.property;
        tally.add('warning', label, (n) => `${name} strips ${label} (${plural(n, 'declaration')}).`, position, 'strips');
        continue;
      }
      const kept = rewritten !== undefined ? rewritten : declaration;
      const placed = kept && onElement(kept, element, context, elementRules, ignoredCounts);
      if (!placed) continue;
      const existing = merged.get(placed.property);
      if (existing?.important && !placed.important) continue;
      merged.delete(placed.property); // the inline declaration comes last, as in the source
      merged.set(placed.property, placed);
      if (placed.alongside) addAlongside(merged, placed.alongside);
    }
    if (dropsAttribute) tally.add('warning', 'style', (n) => `${name} removed ${plural(n, 'style attribute')} whose text it rejects.`, position);
    const declarations = [...merged.values()];
    styles.set(element, declarations);
    attributes.set(element, context.styledAttributes(element, declarations));
  }

  for (const [key, { property, tag, count, element }] of ignoredCounts) {
    tally.add('warning', key, () => `${name} ignores ${property} on <${tag}> (${plural(count, 'declaration')}).`, positionOf(element));
  }
  return inlinedRuleCount;
}

/** Declarations a rewrite adds right after the one it rewrote (Decl.alongside): written after it, as the client does. */
function addAlongside(merged: Map<string, Decl>, alongside: readonly Decl[]): void {
  for (const extra of alongside) {
    merged.delete(extra.property);
    merged.set(extra.property, extra);
  }
}

/** The element's attributes with its `style` attribute written from these declarations (where it was; none when empty). */
function withStyleAttribute(element: HtmlElement, declarations: readonly Decl[]): AttributeValue[] {
  const attrs = element.attrs.filter((a) => a.name !== 'style' || a.prefix);
  const styleIndex = element.attrs.findIndex((a) => a.name === 'style' && !a.prefix);
  if (declarations.length > 0) {
    const value = serializeDeclarations(declarations);
    attrs.splice(styleIndex >= 0 ? styleIndex : attrs.length, 0, { name: 'style', value });
  }
  return attrs;
}

/** Attributes the client removes from some elements (Yahoo's class on `<img>`, the body's bgcolor). */
function dropElementAttributes(facts: BehaviorFacts, rules: ClientRules, name: string, attributes: ClientView['attributes'], tally: WarningTally): void {
  for (const rule of rules.rewrites) {
    if (!rule.dropsAttributes) continue;
    // The rule's elements and names are found once per email (the clients sharing the rule ask again).
    for (const { element, dropped } of facts.attributeDrops(rule)) {
      attributes.set(
        element,
        (attributes.get(element) ?? element.attrs).filter((a) => a.prefix || !dropped.includes(a.name)),
      );
      tally.add(
        'warning',
        dropped.join(', '),
        (n) => `${name} removed ${dropped.join(', ')} from ${plural(n, `<${element.tagName}> element`)}.`,
        positionOf(element),
      );
    }
  }
}

/**
 * Declarations the client forces on every element of some tags (Outlook for Mac's table-layout: fixed): the
 * client's own style sheet, written first in `<head>` with `!important` so that it wins as the client's does.
 * One rule per client instead of a rewritten start tag per element keeps the cost independent of the email.
 */
function addClientStyleSheet(parsed: ParsedEmail, rules: ClientRules, plan: RenderPlan): void {
  let css = '';
  for (const addition of rules.additions) {
    const added = addition.addsDeclarations;
    if (added) css += `${added.on.join(',')}{${added.declarations.map((d) => `${d.property}:${d.value}${d.important ? ' !important' : ''}`).join(';')}}`;
  }
  const head = css ? parsed.elementsByTag.get('head')?.[0] : undefined;
  if (head) (plan.afterStartTags ??= new Map()).set(head, `<style>${css}</style>`);
}

/** Attributes the client sets on elements (HEY's loading="lazy" on images); the finding comes from the behavior outcome. */
function addElementAttributes(parsed: ParsedEmail, rules: ClientRules, attributes: ClientView['attributes']): void {
  for (const addition of rules.additions) {
    const added = addition.addsAttributes;
    if (!added) continue;
    const names = new Set(added.attributes.map((a) => a.name));
    for (const tag of added.on) {
      for (const element of parsed.elementsByTag.get(tag) ?? []) {
        const kept = (attributes.get(element) ?? element.attrs).filter((a) => a.prefix || !names.has(a.name));
        attributes.set(element, [...kept, ...added.attributes]);
      }
    }
  }
}

/** Markup the client writes in front of some elements (Word's new <ol> before an <li value>), joined to their start tag. */
function writeMarkupBefore(parsed: ParsedEmail, rules: ClientRules, plan: RenderPlan): void {
  for (const behavior of rules.sanitize) {
    const writes = behavior.writesBefore;
    if (!writes) continue;
    for (const tag of writes.on) {
      for (const element of parsed.elementsByTag.get(tag) ?? []) {
        const before = writes.before(element);
        if (!before) continue;
        const start = plan.startTags.get(element) ?? plan.prefixedStartTags?.get(element) ?? serializeStartTag(element.tagName, element.attrs);
        plan.startTags.set(element, before + start);
        if (writes.after) (plan.endTags ??= new Map()).set(element, `</${element.tagName}>${writes.after}`);
      }
    }
  }
}

/** Relative links, images and backgrounds the client writes absolute against the base it picks (Yahoo's last <base> in <body>). */
function resolveRelativeUrls(parsed: ParsedEmail, behavior: SanitizeBehavior, attributes: ClientView['attributes']): void {
  const base = behavior.resolvesUrlsAgainst?.(parsed);
  if (!base) return;
  for (const { element, attribute, value } of relativeUrls(parsed)) {
    const resolved = resolveAgainst(value, base);
    if (resolved === value) continue;
    attributes.set(
      element,
      (attributes.get(element) ?? element.attrs).map((a) => (!a.prefix && a.name === attribute ? { ...a, value: resolved } : a)),
    );
  }
}

/**
 * Class and id names the client prefixes (Outlook.com's x_, Yahoo's yiv…, Word's first class only). Clients
 * that share a prefix share the prefixed start tags of elements they leave otherwise unchanged.
 */
function prefixNames(
  context: TransformContext,
  prefix: PrefixBehavior,
  name: string,
  plan: RenderPlan,
  tally: WarningTally,
  attributes: ClientView['attributes'],
): void {
  for (const [element, changed] of attributes) attributes.set(element, context.prefixedAttributeList(changed, prefix));
  plan.prefixedStartTags = context.prefixedStartTags(prefix);
  if (plan.prefixedStartTags.size > 0) tally.add('info', 'class names', () => `${name} ${prefix.summary.replace(/^\w/, (c) => c.toLowerCase())}`);
}

/** A wrapper the client puts around the body's content (Thunderbird's lang div, Yahoo's #yiv… scope). */
function wrapBody(parsed: ParsedEmail, outcome: BehaviorOutcome, plan: RenderPlan): void {
  const body = outcome.bodyWrapper ? parsed.elementsByTag.get('body')?.[0] : undefined;
  if (body && outcome.bodyWrapper) {
    (plan.afterStartTags ??= new Map()).set(body, outcome.bodyWrapper.open);
    (plan.endTags ??= new Map()).set(body, `${outcome.bodyWrapper.close}</body>`);
  }
}

/**
 * `<style>` blocks: keep what the client supports; Gmail keeps only what it cannot inline. Writes the blocks
 * into the plan, warns about what they lose, and returns the view's `writeSheet`, which the dark variant calls
 * again with its own additions.
 */
function writeStyleBlocks(
  context: TransformContext,
  outcome: BehaviorOutcome,
  bit: number,
  inlines: boolean,
  name: string,
  plan: RenderPlan,
  tally: WarningTally,
  inlinedRuleCount: number,
): ClientView['writeSheet'] {
  const { parsed, features, cascade } = context;
  const { sheetRewrites } = outcome;
  const prefix = outcome.rules.prefix;
  let keptRules = 0;
  const rewriteOf = sheetRewrites.size > 0 ? (declaration: Declaration): Decl | null | undefined => sheetRewrites.get(declaration) : undefined;
  const selectorOf = context.selectorWriter(inlines, prefix);
  const atRuleParams = outcome.atRuleRewrites.size > 0 ? (atRule: AtRule): string | null | undefined => outcome.atRuleRewrites.get(atRule) : undefined;
  const flatten = prefix?.flattensNestedRules ? (rule: Rule): boolean => rule.parent?.type === 'rule' : undefined;
  /** Whether the client keeps a node; `report`: count and warn about what it drops (its own transform's write only). */
  const keepNode = (node: ChildNode, position: ReturnType<typeof positionOf>, report: boolean): boolean => {
    if (node.parent?.type === 'root' && outcome.droppedCss.has(node)) return false;
    // A documented rewrite decides over caniemail's "unsupported" (the writer then renames, neutralizes or drops).
    if (node.type === 'decl' && rewriteOf?.(node) !== undefined) return true;
    if (node.type === 'atrule' && atRuleParams?.(node) !== undefined) return true;
    // A nested style rule the client flattens: its declarations join the parent rule (Yahoo), over caniemail's flag.
    if (node.type === 'rule' && flatten?.(node)) return true;
    if (node.type === 'rule' && prefix?.rewriteSelector && selectorOf?.(node) === '') return false;
    if ((context.cssNodeMask(node) & bit) === 0) {
      if (inlines && node.type === 'rule' && node.parent?.type === 'root' && !cascade.keptSelectors.has(node)) return false;
      if (report && node.type === 'rule' && inlines) keptRules++;
      return node.type !== 'comment';
    }
    if (!report) return false;
    const use = context.firstDroppingUse(features.cssNodeUses.get(node) ?? [], bit);
    const label = use?.label ?? (node.type === 'decl' ? node.prop : node.type === 'atrule' ? `@${node.name}` : 'selector');
    const what = node.type === 'decl' ? 'declaration' : node.type === 'atrule' ? `@${(node as { name: string }).name} block` : 'rule';
    tally.add('warning', label, (n) => `${name} drops ${plural(n, what)} that ${n === 1 ? 'uses' : 'use'} ${label}.`, position, `drops ${what}`);
    return false;
  };
  const writeSheet = (sheet: EmailStyleSheet, extra?: SheetWriteExtras): string | undefined => {
    if (plan.removed.has(sheet.element) || outcome.droppedSheets.has(sheet.element)) return undefined;
    const position = positionOf(sheet.element);
    // The dark variants write the sheet again (with extras) after the view's warnings are listed: no report.
    const report = extra === undefined;
    return writeCss(sheet.root, {
      keep: (node) => !extra?.skip?.(node) && keepNode(node, position, report),
      selectorOf,
      rewrite: extra?.rewrite
        ? (d) => {
            const dark = extra.rewrite?.(d);
            return dark !== undefined ? dark : rewriteOf?.(d);
          }
        : rewriteOf,
      atRuleParams,
      flatten,
      valueFor: extra?.valueFor,
      unwrap: extra?.unwrap,
    });
  };
  const sheetsTouched = outcome.droppedCss.size > 0 || rewriteOf !== undefined || selectorOf !== undefined || atRuleParams !== undefined;
  for (const sheet of parsed.styleSheets) {
    if (plan.removed.has(sheet.element)) continue;
    if (!inlines && !sheetsTouched && (context.sheetMask(sheet.root) & bit) === 0) continue;
    const text = writeSheet(sheet) ?? '';
    if (!NON_BLANK.test(text)) plan.removed.add(sheet.element);
    else plan.styleTexts.set(sheet.element, text);
  }
  if (inlines && parsed.styleSheets.length > 0) {
    tally.add(
      'info',
      '<style>',
      () =>
        `${name} inlined ${plural(inlinedRuleCount, 'rule match', 'rule matches')} into style attributes and kept ${plural(keptRules, 'rule')} (media queries, pseudo-classes) in <style>.`,
    );
  }
  if (outcome.droppedCss.size > 0)
    tally.add('warning', '<style>', () => `${name} ignored ${plural(outcome.droppedCss.size, 'top-level rule')} after a construct it rejects.`);
  return writeSheet;
}

/** Markup the client adds (data detectors). */
function addClientMarkup(outcome: BehaviorOutcome, plan: RenderPlan, tally: WarningTally): void {
  for (const [text, markup] of outcome.texts) plan.texts.set(text, markup);
  for (const finding of outcome.findings) {
    if (finding.behavior.kind === 'addition') tally.add(finding.severity, finding.property, () => finding.message);
  }
}

/** The character offset in `source` where its UTF-8 length passes `bytes` (undefined when it never does). */
function charOffsetOfByte(source: string, bytes: number): number | undefined {
  if (source.length <= bytes / 4 || utf8Length(source) <= bytes) return undefined;
  let count = 0;
  for (let i = 0; i < source.length; i++) {
    const code = source.charCodeAt(i);
    const start = i;
    if (code < 0x80) count += 1;
    else if (code < 0x800) count += 2;
    else if (code >= 0xd800 && code <= 0xdbff && (source.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      count += 4;
      i++;
    } else count += 3;
    if (count > bytes) return start;
  }
  return undefined;
}

/**
 * A message the client clips (Gmail past 102 KB): what starts after the cut in the HTML source is hidden, the
 * client's notice ends the body. One walk down the nodes that straddle the cut: linear in the email's size.
 */
function clipMessage(parsed: ParsedEmail, clip: SanitizeBehavior, name: string, plan: RenderPlan, tally: WarningTally): void {
  const cut = charOffsetOfByte(parsed.source, clip.clipsAfterBytes ?? Infinity);
  const body = parsed.elementsByTag.get('body')?.[0];
  if (cut === undefined || !body) return;
  let hidden = 0;
  const stack: HtmlElement[] = [body];
  while (stack.length > 0) {
    const element = stack.pop() as HtmlElement;
    for (const child of element.childNodes) {
      const location = (child as { sourceCodeLocation?: { startOffset: number; endOffset: number } | null }).sourceCodeLocation;
      if (!location) continue;
      if (location.startOffset >= cut) {
        hidden++;
        if (isElement(child)) plan.removed.add(child);
        else if (child.nodeName === '#text') plan.texts.set(child as HtmlText, '');
        else if (child.nodeName === '#comment') plan.comments.set(child as HtmlComment, '');
      } else if (isElement(child) && location.endOffset > cut) stack.push(child);
    }
  }
  const notice = clip.clipNotice ?? '';
  const end = plan.endTags?.get(body) ?? '</body>';
  plan.endTags = new Map(plan.endTags ?? []).set(body, `${notice}${end}`);
  tally.add('warning', 'message size', () => `${name} clipped the message: ${clip.summary} ${plural(hidden, 'node')} after the cut hidden.`, positionOf(body));
}

/** Elements the client removes: caniemail's unsupported elements, then its sanitizer's own list. */
function removeElements(context: TransformContext, client: ClientId, plan: RenderPlan, tally: WarningTally): void {
  const clientIndex = CLIENT_IDS.indexOf(client);
  const name = getClient(client).name;
  const { rules } = context.behaviorOutcome(client);
  for (const element of context.removable) {
    const tag = element.tagName;
    const position = positionOf(element);
    if (tag === 'script' || tag === 'iframe') {
      plan.removed.add(element);
      tally.add('error', `<${tag}>`, (n) => `${name} removed ${plural(n, `<${tag}> element`)}.`, position);
    } else if (tag === 'link' && /(^|\s)stylesheet(\s|$)/i.test(getAttribute(element, 'rel') ?? '') && unsupported('html-link', clientIndex)) {
      plan.removed.add(element);
      tally.add('error', '<link rel="stylesheet">', (n) => `${name} removed ${plural(n, 'external stylesheet')}; their rules never apply.`, position);
    } else if (tag === 'svg' && unsupported('html-svg', clientIndex)) {
      plan.removed.add(element);
      tally.add('error', '<svg>', (n) => `${name} removed ${plural(n, 'inline <svg> image')}.`, position);
    } else if (tag === 'form' && (unsupported('html-form', clientIndex) || rules.unwraps.has('form'))) {
      plan.unwrapped.add(element);
      tally.add('error', '<form>', (n) => `${name} removed ${plural(n, '<form> wrapper')}; the fields cannot be submitted.`, position);
    } else if (tag === 'style' && unsupported('html-style', clientIndex)) {
      plan.removed.add(element);
      tally.add('error', '<style>', (n) => `${name} removed ${plural(n, '<style> block')}.`, position);
    } else if (sanitizesElement(rules.removes, element, context.parsed)) {
      plan.removed.add(element);
      tally.add('warning', `<${tag}>`, (n) => `${name} removed ${plural(n, `<${tag}> element`)}.`, position);
    } else {
      const unwrapping = sanitizesElement(rules.unwraps, element, context.parsed);
      if (!unwrapping) continue;
      plan.unwrapped.add(element);
      const text = unwrapping.unwrappedText?.(element);
      if (text) (plan.afterStartTags ??= new Map()).set(element, text);
      tally.add('warning', `<${tag}>`, (n) => `${name} removed ${plural(n, `<${tag}> tag`)} and kept the content.`, position);
    }
  }
}

/**
 * A conditional block as Word shows it: `<noscript>` and `<xml>` islands (OfficeDocumentSettings,
 * `<o:PixelsPerInch>96`) are hidden by Word; left in the view, a browser would print their text ("96"
 * at the top of the email).
 */
export function wordVisibleMarkup(content: string): string {
  if (!/<(xml|noscript)\b/i.test(content)) return content;
  return content.replace(/<noscript\b[\s\S]*?<\/noscript\s*>/gi, '').replace(/<xml\b[\s\S]*?<\/xml\s*>/gi, '');
}
