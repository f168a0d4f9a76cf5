import type { AtRule, ChildNode, Declaration, Rule } from 'postcss';
import { CollectedFeatures, FeatureUse } from '../analysis/collect-features';
import { Severity } from '../analysis/css-finding';
import { getTrackedFeature } from '../analysis/feature-catalogue';
import { StyleCascade } from '../analysis/style-cascade';
import { CLIENT_IDS, ClientId } from '../clients/email-client';
import { getClient } from '../clients/email-clients';
import { CssDeclaration, serializeDeclarations } from '../parse/css-syntax';
import { HtmlElement, getAttribute, positionOf } from '../parse/dom';
import { EmailStyleSheet, ParsedEmail } from '../parse/parse-email';
import { sanitisedTags } from '../clients/models/client-rules';
import { ignoredOnElement } from '../clients/models/client-behaviour';
import { BehaviourFacts, BehaviourOutcome, evaluateBehaviours, rawDeclaration, rawInlineDeclaration, rewriteDeclaration } from './client-behaviours';
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
  /** Attributes of elements the client rewrote (style, prefixed class and id), before any dark-mode change. */
  attributes: Map<HtmlElement, AttributeValue[]>;
  /** What the client's documented behaviours did (blocks dropped, rewrites, additions). */
  behaviours: BehaviourOutcome;
  /**
   * Writes a `<style>` block as this client keeps it (its drops, prefixes and rewrites), with the dark
   * variant's additions: a value recoloring, at-rules unwrapped, nodes skipped. Undefined for a removed block.
   */
  writeSheet(sheet: EmailStyleSheet, extra?: SheetWriteExtras): string | undefined;
  warnings: TransformWarning[];
}

/** What the dark variant adds when it re-writes a client's `<style>` block. */
export type SheetWriteExtras = Pick<CssWriteOptions, 'valueFor' | 'unwrap'> & { skip?(node: ChildNode): boolean };

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
  add(severity: Severity, property: string, message: (n: number) => string, position?: { line: number; column: number }): void {
    const key = `${severity}\u0000${property}\u0000${message(1)}`;
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

type Decl = Pick<CssDeclaration, 'property' | 'value' | 'important'>;

/**
 * The markup as `client` delivers it: Gmail-style inlining, removal of what the client drops
 * (elements, at-rules, rules, declarations, comments), the Word engine's conditional comments, and the
 * documented behaviours of the client's model (clients/models/): blocks it drops whole, declarations it
 * rewrites, names it prefixes, properties it ignores on some elements, markup it adds.
 */
export function transformForClient(context: TransformContext, client: ClientId): ClientView {
  const { parsed, features, cascade } = context;
  const clientIndex = CLIENT_IDS.indexOf(client);
  const bit = 1 << clientIndex;
  const name = getClient(client).name;
  const plan = emptyPlan();
  const styles: ClientView['styles'] = new Map();
  const attributes: ClientView['attributes'] = new Map();
  const tally = new WarningTally(client);
  const inlines = GMAIL.has(client);
  const wordEngine = client === 'outlook-windows-legacy';
  const outcome = context.behaviourOutcome(client);
  const { rules } = outcome;
  const prefix = rules.prefix;

  removeElements(context, client, plan, tally);

  // Comments: dropped where unsupported; the Word engine reads its conditional comments.
  if (wordEngine) {
    plan.dropNotMsoRanges = parsed.notMsoRanges.length > 0;
    for (const conditional of parsed.msoConditionals) plan.comments.set(conditional.comment, wordVisibleMarkup(conditional.content));
    if (parsed.msoConditionals.length > 0) tally.add('info', 'conditional comments', () => `${name} renders ${plural(parsed.msoConditionals.length, '<!--[if mso]> block')} and skips <!--[if !mso]> content.`);
  } else if (unsupported('html-comments', clientIndex) && parsed.comments.length > 0) {
    for (const comment of parsed.comments) plan.comments.set(comment, '');
    tally.add('info', 'HTML comments', () => `${name} removed ${plural(parsed.comments.length, 'HTML comment')}.`);
  }

  // <style> blocks the client drops whole (a construct it rejects, a size limit, a place it ignores).
  for (const [element, poison] of outcome.droppedSheets) {
    if (plan.removed.has(element)) continue;
    plan.removed.add(element);
    tally.add('warning', poison.label, (n) => `${name} removed ${plural(n, '<style> block')}: ${poison.behaviour.summary}`, positionOf(element));
  }
  const sheetKept = (rule: Rule): boolean => {
    const root = rule.root();
    const sheet = parsed.styleSheets.find((s) => s.root === root);
    if (sheet && plan.removed.has(sheet.element)) return false;
    let top: ChildNode = rule;
    while (top.parent && top.parent.type !== 'root') top = top.parent as unknown as ChildNode;
    return !outcome.droppedCss.has(top);
  };

  // Declarations as the client keeps them: caniemail drops, then its rewrites and element rules.
  const rewrites = rules.rewrites;
  const clientDeclaration = (declaration: Decl, element: HtmlElement | undefined, raw?: string): Decl | null => {
    let result: Decl | null = declaration;
    if (rewrites.length > 0) result = rewriteDeclaration(rewrites, declaration, { element, raw }).result;
    if (result && element && rules.elementRules.size > 0) {
      const elementRule = rules.elementRules.get(result.property);
      if (elementRule && ignoredOnElement(elementRule, element.tagName)) {
        tally.add('warning', `${result.property} on <${element.tagName}>`, (n) => `${name} ignores ${result?.property} on <${element.tagName}> (${plural(n, 'declaration')}).`, positionOf(element));
        return null;
      }
    }
    return result;
  };
  const needsStyleWork = rewrites.length > 0 || rules.elementRules.size > 0;

  // Inline styles: drop what the client does not support; Gmail first merges matching <style> rules.
  const inlinedRuleCount = { value: 0 };
  for (const element of context.styled) {
    const inline = parsed.inlineStyles.get(element);
    const matched = inlines ? cascade.matches.get(element)?.filter((m) => sheetKept(m.rule)) : undefined;
    if (!matched?.length && !inline) continue;
    if (!matched?.length && inline && !needsStyleWork && (context.styleMask(inline.value, inline.declarations) & bit) === 0) continue;
    const merged = new Map<string, Decl>();
    const position = inline ? { line: inline.line, column: inline.column } : positionOf(element);
    for (const rule of matched ?? []) {
      inlinedRuleCount.value++;
      for (const declaration of rule.declarations) {
        if ((context.cssNodeMask(declaration) & bit) !== 0) continue;
        const kept = clientDeclaration({ property: declaration.prop.toLowerCase(), value: declaration.value, important: declaration.important === true }, element, rawDeclaration(declaration));
        if (!kept) continue;
        const existing = merged.get(kept.property);
        if (existing?.important && !kept.important) continue;
        merged.set(kept.property, kept);
      }
    }
    const dropsAttribute = inline !== undefined && rewrites.some((r) => r.dropsStyleAttribute?.(inline.value));
    for (const declaration of dropsAttribute ? [] : (inline?.declarations ?? [])) {
      // A documented rewrite (Yahoo's height -> min-height) says what happens instead of caniemail's "unsupported".
      const rewritten = rewrites.length > 0 && rewriteDeclaration(rewrites, declaration, { element, raw: rawInlineDeclaration(declaration) }).by !== undefined;
      if (!rewritten && (context.declarationMask(declaration) & bit) !== 0) {
        const use = context.firstDroppingUse(features.inlineDeclarationUses.get(declaration) ?? [], bit);
        const label = use?.label ?? declaration.property;
        tally.add('warning', label, (n) => `${name} strips ${label} (${plural(n, 'declaration')}).`, position);
        continue;
      }
      const kept = needsStyleWork ? clientDeclaration(declaration, element, rawInlineDeclaration(declaration)) : declaration;
      if (!kept) continue;
      const existing = merged.get(kept.property);
      if (existing?.important && !kept.important) continue;
      merged.delete(kept.property); // the inline declaration comes last, as in the source
      merged.set(kept.property, kept);
    }
    if (dropsAttribute) tally.add('warning', 'style', (n) => `${name} removed ${plural(n, 'style attribute')} whose text it rejects.`, position);
    const declarations = [...merged.values()];
    const unchanged = !matched?.length && inline !== undefined && !dropsAttribute && sameDeclarations(declarations, inline.declarations);
    if (unchanged) continue;
    styles.set(element, declarations);
    const attrs = element.attrs.filter((a) => a.name !== 'style' || a.prefix);
    const styleIndex = element.attrs.findIndex((a) => a.name === 'style' && !a.prefix);
    if (declarations.length > 0) {
      const value = serializeDeclarations(declarations);
      attrs.splice(styleIndex >= 0 ? styleIndex : attrs.length, 0, { name: 'style', value });
    }
    attributes.set(element, attrs);
  }

  // Attributes the client removes from some elements (Yahoo's class on <img>).
  const attributeDroppers = rewrites.filter((r) => r.dropsAttributes);
  if (attributeDroppers.length > 0) {
    for (const element of context.named) {
      const dropped = new Set(attributeDroppers.flatMap((r) => r.dropsAttributes?.(element) ?? []));
      if (dropped.size === 0) continue;
      attributes.set(element, (attributes.get(element) ?? element.attrs).filter((a) => a.prefix || !dropped.has(a.name)));
      tally.add('warning', [...dropped].join(', '), (n) => `${name} removed ${[...dropped].join(', ')} from ${plural(n, `<${element.tagName}> element`)}.`, positionOf(element));
    }
  }

  // Class and id names the client prefixes (Outlook.com's x_, Yahoo's yiv…, Word's first class only).
  if (prefix) {
    for (const element of context.named) {
      const attrs = attributes.get(element) ?? element.attrs;
      attributes.set(
        element,
        attrs.map((a) => {
          if (a.prefix) return a;
          if (a.name === 'class') return { ...a, value: prefixClassList(a.value, prefix.classPrefix, prefix.firstClassOnly === true) };
          if (a.name === 'id' && prefix.idPrefix) return { ...a, value: `${prefix.idPrefix}${a.value}` };
          return a;
        }),
      );
    }
    if (context.named.length > 0) tally.add('info', 'class names', () => `${name} ${prefix.summary.replace(/^\w/, (c) => c.toLowerCase())}`);
  }
  for (const [element, attrs] of attributes) plan.startTags.set(element, serializeStartTag(element.tagName, attrs));

  // <style> blocks: keep what the client supports; Gmail keeps only what it cannot inline.
  let keptRules = 0;
  const rewriteOf = needsStyleWork
    ? (declaration: Declaration): Decl | null | undefined => {
        if (rewrites.length === 0) return undefined;
        const { result, by } = rewriteDeclaration(rewrites, { property: declaration.prop.toLowerCase(), value: declaration.value, important: declaration.important === true }, { raw: rawDeclaration(declaration) });
        return by ? result : undefined;
      }
    : undefined;
  const selectorOf = (rule: Rule): string => {
    let selector = inlines && rule.parent?.type === 'root' ? (cascade.keptSelectors.get(rule)?.join(',') ?? rule.selector) : rule.selector;
    if (prefix) {
      selector = prefixSelector(selector, prefix.classPrefix, prefix.idPrefix);
      if (prefix.rewriteSelector) selector = prefix.rewriteSelector(selector) ?? '';
    }
    return selector;
  };
  const atRuleRewriters = rewrites.filter((r) => r.rewriteAtRule);
  const atRuleParams =
    atRuleRewriters.length > 0
      ? (atRule: AtRule): string | null | undefined => {
          let params: string | undefined;
          const nested = atRule.parent?.type === 'rule';
          for (const rule of atRuleRewriters) {
            const next = rule.rewriteAtRule?.(atRule.name.toLowerCase(), params ?? atRule.params, nested);
            if (next === null) return null;
            if (next !== undefined) params = next;
          }
          return params;
        }
      : undefined;
  const keepNode = (node: ChildNode, position: ReturnType<typeof positionOf>): boolean => {
    if (node.parent?.type === 'root' && outcome.droppedCss.has(node)) return false;
    // A documented rewrite decides over caniemail's "unsupported" (the writer then renames, neutralises or drops).
    if (node.type === 'decl' && rewriteOf?.(node) !== undefined) return true;
    if (node.type === 'atrule' && atRuleParams?.(node) !== undefined) return true;
    if (node.type === 'rule' && prefix?.rewriteSelector && selectorOf(node) === '') return false;
    if ((context.cssNodeMask(node) & bit) === 0) {
      if (inlines && node.type === 'rule' && node.parent?.type === 'root' && !cascade.keptSelectors.has(node)) return false;
      if (node.type === 'rule' && inlines) keptRules++;
      return node.type !== 'comment';
    }
    const use = context.firstDroppingUse(features.cssNodeUses.get(node) ?? [], bit);
    const label = use?.label ?? (node.type === 'decl' ? node.prop : node.type === 'atrule' ? `@${node.name}` : 'selector');
    const what = node.type === 'decl' ? 'declaration' : node.type === 'atrule' ? `@${(node as { name: string }).name} block` : 'rule';
    tally.add('warning', label, (n) => `${name} drops ${plural(n, what)} that ${n === 1 ? 'uses' : 'use'} ${label}.`, position);
    return false;
  };
  const writeSheet = (sheet: EmailStyleSheet, extra: SheetWriteExtras = {}): string | undefined => {
    if (plan.removed.has(sheet.element) || outcome.droppedSheets.has(sheet.element)) return undefined;
    const position = positionOf(sheet.element);
    return writeCss(sheet.root, {
      keep: (node) => !extra.skip?.(node) && keepNode(node, position),
      selectorOf: inlines || prefix ? selectorOf : undefined,
      rewrite: rewriteOf,
      atRuleParams,
      valueFor: extra.valueFor,
      unwrap: extra.unwrap,
    });
  };
  const sheetsTouched = outcome.droppedCss.size > 0 || rewriteOf !== undefined || prefix !== undefined || atRuleParams !== undefined;
  for (const sheet of parsed.styleSheets) {
    if (plan.removed.has(sheet.element)) continue;
    if (!inlines && !sheetsTouched && (context.sheetMask(sheet.root) & bit) === 0) continue;
    const text = writeSheet(sheet) ?? '';
    if (text.trim() === '') plan.removed.add(sheet.element);
    else plan.styleTexts.set(sheet.element, text);
  }
  if (inlines && parsed.styleSheets.length > 0) {
    tally.add('info', '<style>', () => `${name} inlined ${plural(inlinedRuleCount.value, 'rule match', 'rule matches')} into style attributes and kept ${plural(keptRules, 'rule')} (media queries, pseudo-classes) in <style>.`);
  }
  if (outcome.droppedCss.size > 0) tally.add('warning', '<style>', () => `${name} ignored ${plural(outcome.droppedCss.size, 'top-level rule')} after a construct it rejects.`);

  // Markup the client adds (data detectors).
  for (const [text, markup] of outcome.texts) plan.texts.set(text, markup);
  for (const finding of outcome.findings) {
    if (finding.behaviour.kind === 'addition') tally.add(finding.severity, finding.property, () => finding.message);
  }

  return { client, plan, styles, attributes, behaviours: outcome, writeSheet, warnings: tally.list() };
}

function sameDeclarations(a: readonly Decl[], b: readonly Decl[]): boolean {
  return a.length === b.length && a.every((d, i) => d.property === b[i].property && d.value === b[i].value && d.important === b[i].important);
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
