import type { AtRule, ChildNode, Declaration, Rule } from 'postcss';
import { CollectedFeatures, FeatureUse } from '../analysis/collect-features';
import { Severity } from '../analysis/css-finding';
import { getTrackedFeature } from '../analysis/feature-catalogue';
import { MatchedRule, StyleCascade } from '../analysis/style-cascade';
import { CLIENT_IDS, ClientId } from '../clients/email-client';
import { CLIENT_INDEX, getClient } from '../clients/email-clients';
import { CssDeclaration, serializeDeclarations } from '../parse/css-syntax';
import { HtmlElement, getAttribute, positionOf } from '../parse/dom';
import { EmailStyleSheet, ParsedEmail } from '../parse/parse-email';
import { sanitisedTags } from '../clients/models/client-rules';
import { PrefixBehaviour, ignoredOnElement } from '../clients/models/client-behaviour';
import { BehaviourFacts, BehaviourOutcome, evaluateBehaviours } from './client-behaviours';
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
  /** What the client's documented behaviours did (blocks dropped, rewrites, additions). */
  behaviours: BehaviourOutcome;
  /**
   * Writes a `<style>` block as this client keeps it (its drops, prefixes and rewrites), with the dark
   * variant's additions: a value recoloring, at-rules unwrapped, nodes skipped. Undefined for a removed block.
   */
  writeSheet(sheet: EmailStyleSheet, extra?: SheetWriteExtras): string | undefined;
  warnings: TransformWarning[];
}

type SelectorWriter = (rule: Rule) => string;

/** Attributes with the client's class and id prefix. */
function prefixedAttributes(attrs: readonly AttributeValue[], prefix: PrefixBehaviour): AttributeValue[] {
  return attrs.map((a) => {
    if (a.prefix) return a;
    if (a.name === 'class') return { ...a, value: prefixClassList(a.value, prefix.classPrefix, prefix.firstClassOnly === true) };
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
const REMOVABLE_TAGS = new Set(['script', 'iframe', 'link', 'svg', 'form', 'style', ...sanitisedTags()]);
const GMAIL: ReadonlySet<ClientId> = new Set(['gmail-web', 'gmail-android', 'gmail-ios']);

/** Shared per-email state every client transform reads. */
export class TransformContext {
  private readonly useMasks = new Map<FeatureUse, number>();
  private readonly declarationMasks = new Map<CssDeclaration, number>();
  private readonly cssNodeMasks = new Map<ChildNode, number>();
  private readonly styleMasks = new Map<string, number>();
  /** Elements some client may remove or unwrap (computed once, not per client). */
  readonly removable: readonly HtmlElement[];
  /** Elements with a style attribute or matched by a plain `<style>` rule, in document order. */
  readonly styled: readonly HtmlElement[];
  /** Elements with a class or id (a client that prefixes names rewrites them). */
  readonly named: readonly HtmlElement[];
  readonly behaviourFacts: BehaviourFacts;
  private readonly outcomes = new Map<ClientId, BehaviourOutcome>();

  constructor(
    readonly parsed: ParsedEmail,
    readonly features: CollectedFeatures,
    readonly cascade: StyleCascade,
  ) {
    this.removable = parsed.elements.filter((e) => REMOVABLE_TAGS.has(e.tagName));
    this.styled = parsed.elements.filter((e) => parsed.inlineStyles.has(e) || cascade.matches.has(e));
    this.named = parsed.elements.filter((e) => e.attrs.some((a) => (a.name === 'class' || a.name === 'id') && !a.prefix));
    this.behaviourFacts = new BehaviourFacts(parsed, cascade);
  }

  private readonly prefixedTags = new Map<PrefixBehaviour, Map<HtmlElement, string>>();
  private readonly prefixedAttrs = new Map<PrefixBehaviour, Map<HtmlElement, AttributeValue[]>>();

  /** A named element's attributes with the prefix (what a dark variant recolors), memoised per prefix. */
  prefixedAttributesOf(element: HtmlElement, prefix: PrefixBehaviour): readonly AttributeValue[] {
    let byElement = this.prefixedAttrs.get(prefix);
    if (!byElement) this.prefixedAttrs.set(prefix, (byElement = new Map()));
    let attrs = byElement.get(element);
    if (!attrs) byElement.set(element, (attrs = prefixedAttributes(element.attrs, prefix)));
    return attrs;
  }
  private readonly selectorWriters = new Map<string, SelectorWriter>();

  /** The start tags of the email's named elements with their class and id prefixed (one map per prefix, shared by its clients). */
  prefixedStartTags(prefix: PrefixBehaviour): ReadonlyMap<HtmlElement, string> {
    let tags = this.prefixedTags.get(prefix);
    if (!tags) {
      tags = new Map();
      // Without a prefix (Word's first-class-only rule) only elements with several class names change.
      const renames = prefix.classPrefix !== undefined || prefix.idPrefix !== undefined;
      for (const element of this.named) {
        if (!renames && !MULTIPLE_CLASSES.test(getAttribute(element, 'class') ?? '')) continue;
        tags.set(element, serializeStartTag(element.tagName, prefixedAttributes(element.attrs, prefix)));
      }
      this.prefixedTags.set(prefix, tags);
    }
    return tags;
  }

  /**
   * The selector text a client writes for a rule: Gmail's kept selectors (what it could not inline), then the
   * client's prefix; memoised per kind of client, as several clients share one (the Yahoo family, Gmail's three).
   */
  selectorWriter(inlines: boolean, prefix: PrefixBehaviour | undefined): SelectorWriter | undefined {
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

  /** What the client's documented behaviours do to this email (computed once per client). */
  behaviourOutcome(client: ClientId): BehaviourOutcome {
    let outcome = this.outcomes.get(client);
    if (!outcome) {
      outcome = evaluateBehaviours(this.behaviourFacts, client, getClient(client).name);
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
    let mask = 0;
    root.walk((node) => {
      mask |= this.cssNodeMask(node);
    });
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
  private readonly entries = new Map<string, { severity: Severity; property: string; count: number; message: (n: number) => string; line?: number; column?: number }>();
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
      .sort((a, b) => order[a.severity] - order[b.severity] || (a.line ?? 0) - (b.line ?? 0) || (a.property < b.property ? -1 : a.property > b.property ? 1 : 0));
  }
}

const plural = (n: number, one: string, many = `${one}s`): string => `${n} ${n === 1 ? one : many}`;
/** A class attribute with more than one name. */
const MULTIPLE_CLASSES = /\S\s+\S/;
/** Tests for a written sheet with content, without trimming (a copy of) the whole CSS text. */
const NON_BLANK = /\S/;

type Decl = Pick<CssDeclaration, 'property' | 'value' | 'important'>;

/**
 * The markup as `client` delivers it: Gmail-style inlining, removal of what the client drops
 * (elements, at-rules, rules, declarations, comments), the Word engine's conditional comments, and the
 * documented behaviours of the client's model (clients/models/): blocks it drops whole, declarations it
 * rewrites, names it prefixes, properties it ignores on some elements, markup it adds.
 */
export function transformForClient(context: TransformContext, client: ClientId): ClientView {
  const pass = new ClientPass(context, client);
  removeElements(context, client, pass.plan, pass.tally);
  pass.comments();
  pass.dropWholeBlocks();
  pass.styleAttributes();
  pass.attributeRules();
  pass.styleBlocks();
  pass.additions();
  return pass.view();
}

/** One client's transform in steps, each reading and extending the same plan (transformForClient). */
class ClientPass {
  readonly plan = emptyPlan();
  readonly tally: WarningTally;
  readonly styles: ClientView['styles'] = new Map();
  readonly attributes: ClientView['attributes'] = new Map();
  private readonly parsed: ParsedEmail;
  private readonly bit: number;
  private readonly name: string;
  /** Gmail inlines `<style>` rules into style attributes. */
  private readonly inlines: boolean;
  private readonly outcome: BehaviourOutcome;
  private readonly rules: BehaviourOutcome['rules'];
  private readonly prefix: PrefixBehaviour | undefined;
  private inlinedRuleCount = 0;
  private keptRules = 0;
  /** Declarations an element rule removes, counted per property and tag (warned about once). */
  private readonly ignoredCounts = new Map<string, { property: string; tag: string; count: number; element: HtmlElement }>();

  constructor(
    private readonly context: TransformContext,
    private readonly client: ClientId,
  ) {
    this.parsed = context.parsed;
    this.bit = 1 << CLIENT_INDEX[client];
    this.name = getClient(client).name;
    this.tally = new WarningTally(client);
    this.inlines = GMAIL.has(client);
    this.outcome = context.behaviourOutcome(client);
    this.rules = this.outcome.rules;
    this.prefix = this.rules.prefix;
  }

  /** Comments: dropped where unsupported; the Word engine reads its conditional comments. */
  comments(): void {
    const { parsed, plan, tally, name } = this;
    if (this.client === 'outlook-windows-legacy') {
      plan.dropNotMsoRanges = parsed.notMsoRanges.length > 0;
      for (const conditional of parsed.msoConditionals) plan.comments.set(conditional.comment, wordVisibleMarkup(conditional.content));
      if (parsed.msoConditionals.length > 0) tally.add('info', 'conditional comments', () => `${name} renders ${plural(parsed.msoConditionals.length, '<!--[if mso]> block')} and skips <!--[if !mso]> content.`);
    } else if (unsupported('html-comments', CLIENT_INDEX[this.client]) && parsed.comments.length > 0) {
      for (const comment of parsed.comments) plan.comments.set(comment, '');
      tally.add('info', 'HTML comments', () => `${name} removed ${plural(parsed.comments.length, 'HTML comment')}.`);
    }
  }

  /** `<style>` blocks the client drops whole (a construct it rejects, a size limit, a place it ignores). */
  dropWholeBlocks(): void {
    for (const [element, poison] of this.outcome.droppedSheets) {
      if (this.plan.removed.has(element)) continue;
      this.plan.removed.add(element);
      this.tally.add('warning', poison.label, (n) => `${this.name} removed ${plural(n, '<style> block')}: ${poison.behaviour.summary}`, positionOf(element));
    }
  }

  /**
   * Style attributes as the client keeps them: Gmail first merges the matching rules of the blocks it keeps;
   * then caniemail's drops, the model's rewrites (computed once per distinct declaration) and element rules.
   */
  styleAttributes(): void {
    const { context, parsed, outcome, bit } = this;
    const dropsCss = outcome.droppedSheets.size > 0 || outcome.droppedCss.size > 0;
    for (const element of context.styled) {
      const inline = parsed.inlineStyles.get(element);
      const allMatched = this.inlines ? context.cascade.matches.get(element) : undefined;
      const matched = allMatched && dropsCss ? allMatched.filter((m) => this.sheetKept(m.rule)) : allMatched;
      if (!matched?.length && !inline) continue;
      const dropsAttribute = inline !== undefined && outcome.droppedStyleValues.has(inline.value);
      const unchanged = !matched?.length && inline && !dropsAttribute && (context.styleMask(inline.value, inline.declarations) & bit) === 0 && !this.inlineChanges(element, inline.declarations);
      if (unchanged) continue;
      const merged = new Map<string, Decl>();
      for (const rule of matched ?? []) this.mergeRule(rule, element, merged);
      const position = inline ? { line: inline.line, column: inline.column } : positionOf(element);
      if (inline && !dropsAttribute) this.mergeInline(inline.declarations, element, merged, position);
      if (dropsAttribute) this.tally.add('warning', 'style', (n) => `${this.name} removed ${plural(n, 'style attribute')} whose text it rejects.`, position);
      const declarations = [...merged.values()];
      this.styles.set(element, declarations);
      const attrs = element.attrs.filter((a) => a.name !== 'style' || a.prefix);
      const styleIndex = element.attrs.findIndex((a) => a.name === 'style' && !a.prefix);
      if (declarations.length > 0) attrs.splice(styleIndex >= 0 ? styleIndex : attrs.length, 0, { name: 'style', value: serializeDeclarations(declarations) });
      this.attributes.set(element, attrs);
    }
    for (const [key, { property, tag, count, element }] of this.ignoredCounts) {
      this.tally.add('warning', key, () => `${this.name} ignores ${property} on <${tag}> (${plural(count, 'declaration')}).`, positionOf(element));
    }
  }

  /** A rule Gmail inlines into the element's style (the inline declarations merge after it). */
  private mergeRule(rule: MatchedRule, element: HtmlElement, merged: Map<string, Decl>): void {
    this.inlinedRuleCount++;
    for (const declaration of rule.declarations) {
      if ((this.context.cssNodeMask(declaration) & this.bit) !== 0) continue;
      const rewritten = this.outcome.sheetRewrites.get(declaration);
      const kept = rewritten !== undefined ? rewritten : { property: declaration.prop.toLowerCase(), value: declaration.value, important: declaration.important === true };
      if (!kept || this.ignoredHere(kept.property, element)) continue;
      const existing = merged.get(kept.property);
      if (existing?.important && !kept.important) continue;
      merged.set(kept.property, kept);
    }
  }

  private mergeInline(declarations: readonly CssDeclaration[], element: HtmlElement, merged: Map<string, Decl>, position: ReturnType<typeof positionOf>): void {
    const { context, bit, name } = this;
    for (const declaration of declarations) {
      // A documented rewrite (Yahoo's height -> min-height) says what happens instead of caniemail's "unsupported".
      const rewritten = this.outcome.inlineRewrites.get(declaration);
      if (rewritten === undefined && (context.declarationMask(declaration) & bit) !== 0) {
        const use = context.firstDroppingUse(context.features.inlineDeclarationUses.get(declaration) ?? [], bit);
        const label = use?.label ?? declaration.property;
        this.tally.add('warning', label, (n) => `${name} strips ${label} (${plural(n, 'declaration')}).`, position, 'strips');
        continue;
      }
      const kept = rewritten !== undefined ? rewritten : declaration;
      if (!kept || this.ignoredHere(kept.property, element)) continue;
      const existing = merged.get(kept.property);
      if (existing?.important && !kept.important) continue;
      merged.delete(kept.property); // the inline declaration comes last, as in the source
      merged.set(kept.property, kept);
    }
  }

  /** Whether an element rule makes the client ignore this property here (counted for one warning per property and tag). */
  private ignoredHere(property: string, element: HtmlElement): boolean {
    const elementRule = this.rules.elementRules.size > 0 ? this.rules.elementRules.get(property) : undefined;
    if (!elementRule || !ignoredOnElement(elementRule, element.tagName)) return false;
    const key = `${property} on <${element.tagName}>`;
    const counted = this.ignoredCounts.get(key);
    if (counted) counted.count++;
    else this.ignoredCounts.set(key, { property, tag: element.tagName, count: 1, element });
    return true;
  }

  /** Whether the model changes a style attribute that caniemail leaves alone (a rewrite, an element rule). */
  private inlineChanges(element: HtmlElement, declarations: readonly CssDeclaration[]): boolean {
    const { inlineRewrites } = this.outcome;
    const { elementRules } = this.rules;
    if (inlineRewrites.size === 0 && elementRules.size === 0) return false;
    for (const d of declarations) {
      if (inlineRewrites.has(d)) return true;
      const elementRule = elementRules.size > 0 ? elementRules.get(d.property) : undefined;
      if (elementRule && ignoredOnElement(elementRule, element.tagName)) return true;
    }
    return false;
  }

  /** Gmail inlines the rules of the blocks it keeps only. */
  private sheetKept(rule: Rule): boolean {
    let top: ChildNode = rule;
    while (top.parent && top.parent.type !== 'root') top = top.parent as unknown as ChildNode;
    if (this.outcome.droppedCss.has(top)) return false;
    const root = rule.root();
    const sheet = this.parsed.styleSheets.find((s) => s.root === root);
    return !(sheet && this.plan.removed.has(sheet.element));
  }

  /** Attributes the client removes (Yahoo's class on <img>, the body's bgcolor), names it prefixes, the body wrapper. */
  attributeRules(): void {
    const { parsed, plan, attributes, tally, name, prefix, outcome } = this;
    for (const rule of this.rules.rewrites) {
      if (!rule.dropsAttributes) continue;
      for (const tag of rule.dropsAttributesOn ?? []) {
        for (const element of parsed.elementsByTag.get(tag) ?? []) {
          const dropped = rule.dropsAttributes(element);
          if (dropped.length === 0) continue;
          attributes.set(element, (attributes.get(element) ?? element.attrs).filter((a) => a.prefix || !dropped.includes(a.name)));
          tally.add('warning', dropped.join(', '), (n) => `${name} removed ${dropped.join(', ')} from ${plural(n, `<${element.tagName}> element`)}.`, positionOf(element));
        }
      }
    }
    // Class and id names the client prefixes (Outlook.com's x_, Yahoo's yiv…, Word's first class only). Clients
    // that share a prefix share the prefixed start tags of elements they leave otherwise unchanged.
    if (prefix) {
      for (const [element, changed] of attributes) attributes.set(element, prefixedAttributes(changed, prefix));
      plan.prefixedStartTags = this.context.prefixedStartTags(prefix);
      if (plan.prefixedStartTags.size > 0) tally.add('info', 'class names', () => `${name} ${prefix.summary.replace(/^\w/, (c) => c.toLowerCase())}`);
    }
    for (const [element, attrs] of attributes) plan.startTags.set(element, serializeStartTag(element.tagName, attrs));
    // A wrapper the client puts around the body's content (Thunderbird).
    const body = outcome.bodyWrapper ? parsed.elementsByTag.get('body')?.[0] : undefined;
    if (body && outcome.bodyWrapper) {
      const bodyTag = plan.startTags.get(body) ?? plan.prefixedStartTags?.get(body) ?? serializeStartTag('body', body.attrs);
      plan.startTags.set(body, bodyTag + outcome.bodyWrapper.open);
      plan.endTags = new Map([[body, `${outcome.bodyWrapper.close}</body>`]]);
    }
  }

  /** A documented rewrite of a `<style>` declaration (undefined: none). */
  private readonly rewriteOf = (declaration: Declaration): Decl | null | undefined => this.outcome.sheetRewrites.get(declaration);
  private readonly atRuleParams = (atRule: AtRule): string | null | undefined => this.outcome.atRuleRewrites.get(atRule);
  private selectorWriter?: SelectorWriter | null;
  private get selectorOf(): SelectorWriter | undefined {
    if (this.selectorWriter === undefined) this.selectorWriter = this.context.selectorWriter(this.inlines, this.prefix) ?? null;
    return this.selectorWriter ?? undefined;
  }

  /** Whether the client keeps a `<style>` node (warning about what caniemail says it drops). */
  private keepNode(node: ChildNode, position: ReturnType<typeof positionOf>): boolean {
    const { context, bit, outcome } = this;
    if (node.parent?.type === 'root' && outcome.droppedCss.has(node)) return false;
    // A documented rewrite decides over caniemail's "unsupported" (the writer then renames, neutralises or drops).
    if (node.type === 'decl' && outcome.sheetRewrites.has(node)) return true;
    if (node.type === 'atrule' && outcome.atRuleRewrites.has(node)) return true;
    if (node.type === 'rule' && this.prefix?.rewriteSelector && this.selectorOf?.(node) === '') return false;
    if ((context.cssNodeMask(node) & bit) === 0) {
      if (this.inlines && node.type === 'rule' && node.parent?.type === 'root' && !context.cascade.keptSelectors.has(node)) return false;
      if (node.type === 'rule' && this.inlines) this.keptRules++;
      return node.type !== 'comment';
    }
    const use = context.firstDroppingUse(context.features.cssNodeUses.get(node) ?? [], bit);
    const label = use?.label ?? (node.type === 'decl' ? node.prop : node.type === 'atrule' ? `@${node.name}` : 'selector');
    const what = node.type === 'decl' ? 'declaration' : node.type === 'atrule' ? `@${(node as { name: string }).name} block` : 'rule';
    this.tally.add('warning', label, (n) => `${this.name} drops ${plural(n, what)} that ${n === 1 ? 'uses' : 'use'} ${label}.`, position, `drops ${what}`);
    return false;
  }

  /** A `<style>` block as the client keeps it, with the dark variant's additions; undefined for a removed block. */
  readonly writeSheet = (sheet: EmailStyleSheet, extra: SheetWriteExtras = {}): string | undefined => {
    const { outcome, plan } = this;
    if (plan.removed.has(sheet.element) || outcome.droppedSheets.has(sheet.element)) return undefined;
    const position = positionOf(sheet.element);
    const rewriteOf = outcome.sheetRewrites.size > 0 ? this.rewriteOf : undefined;
    return writeCss(sheet.root, {
      keep: (node) => !extra.skip?.(node) && this.keepNode(node, position),
      selectorOf: this.selectorOf,
      rewrite: extra.rewrite
        ? (d) => {
            const dark = extra.rewrite?.(d);
            return dark !== undefined ? dark : rewriteOf?.(d);
          }
        : rewriteOf,
      atRuleParams: outcome.atRuleRewrites.size > 0 ? this.atRuleParams : undefined,
      valueFor: extra.valueFor,
      unwrap: extra.unwrap,
    });
  };

  /** `<style>` blocks: keep what the client supports; Gmail keeps only what it cannot inline. */
  styleBlocks(): void {
    const { parsed, plan, outcome, context, name } = this;
    const touched = outcome.droppedCss.size > 0 || outcome.sheetRewrites.size > 0 || this.selectorOf !== undefined || outcome.atRuleRewrites.size > 0;
    for (const sheet of parsed.styleSheets) {
      if (plan.removed.has(sheet.element)) continue;
      if (!this.inlines && !touched && (context.sheetMask(sheet.root) & this.bit) === 0) continue;
      const text = this.writeSheet(sheet) ?? '';
      if (!NON_BLANK.test(text)) plan.removed.add(sheet.element);
      else plan.styleTexts.set(sheet.element, text);
    }
    if (this.inlines && parsed.styleSheets.length > 0) {
      this.tally.add('info', '<style>', () => `${name} inlined ${plural(this.inlinedRuleCount, 'rule match', 'rule matches')} into style attributes and kept ${plural(this.keptRules, 'rule')} (media queries, pseudo-classes) in <style>.`);
    }
    if (outcome.droppedCss.size > 0) this.tally.add('warning', '<style>', () => `${name} ignored ${plural(outcome.droppedCss.size, 'top-level rule')} after a construct it rejects.`);
  }

  /** Markup the client adds to the text (data detectors). */
  additions(): void {
    for (const [text, markup] of this.outcome.texts) this.plan.texts.set(text, markup);
    for (const finding of this.outcome.findings) {
      if (finding.behaviour.kind === 'addition') this.tally.add(finding.severity, finding.property, () => finding.message);
    }
  }

  view(): ClientView {
    const { attributes, plan, prefix, context } = this;
    const attributesOf = (element: HtmlElement): readonly AttributeValue[] => {
      const changed = attributes.get(element);
      if (changed) return changed;
      return prefix && plan.prefixedStartTags?.has(element) ? context.prefixedAttributesOf(element, prefix) : element.attrs;
    };
    return { client: this.client, plan, styles: this.styles, attributes, attributesOf, behaviours: this.outcome, writeSheet: this.writeSheet, warnings: this.tally.list() };
  }
}


/** Elements the client removes: caniemail's unsupported elements, then its sanitiser's own list. */
function removeElements(context: TransformContext, client: ClientId, plan: RenderPlan, tally: WarningTally): void {
  const clientIndex = CLIENT_IDS.indexOf(client);
  const name = getClient(client).name;
  const { rules } = context.behaviourOutcome(client);
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
    } else if (rules.removes.has(tag)) {
      plan.removed.add(element);
      tally.add('warning', `<${tag}>`, (n) => `${name} removed ${plural(n, `<${tag}> element`)}.`, position);
    } else if (rules.unwraps.has(tag)) {
      plan.unwrapped.add(element);
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
