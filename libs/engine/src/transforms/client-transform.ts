import type { ChildNode, Rule } from 'postcss';
import { CollectedFeatures, FeatureUse } from '../analysis/collect-features';
import { Severity } from '../analysis/css-finding';
import { getTrackedFeature } from '../analysis/feature-catalogue';
import { StyleCascade } from '../analysis/style-cascade';
import { CLIENT_IDS, ClientId } from '../clients/email-client';
import { getClient } from '../clients/email-clients';
import { CssDeclaration, serializeDeclarations } from '../parse/css-syntax';
import { HtmlElement, getAttribute, positionOf } from '../parse/dom';
import { ParsedEmail } from '../parse/parse-email';
import { writeCss } from './css-writer';
import { RenderPlan, emptyPlan, serializeStartTag } from './render-template';

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
  warnings: TransformWarning[];
}

/** Features whose lack never makes a client drop the declaration or rule that uses them. */
const NEVER_DROPS = new Set(['css-important', 'css-comments', 'css-unit-initial']);
const REMOVABLE_TAGS = new Set(['script', 'iframe', 'link', 'svg', 'form', 'style']);
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

  constructor(
    readonly parsed: ParsedEmail,
    readonly features: CollectedFeatures,
    readonly cascade: StyleCascade,
  ) {
    this.removable = parsed.elements.filter((e) => REMOVABLE_TAGS.has(e.tagName));
    this.styled = parsed.elements.filter((e) => parsed.inlineStyles.has(e) || cascade.matches.has(e));
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

/**
 * The markup as `client` delivers it: Gmail-style inlining, removal of what the client drops
 * (elements, at-rules, rules, declarations, comments), the Word engine's conditional comments.
 */
export function transformForClient(context: TransformContext, client: ClientId): ClientView {
  const { parsed, features, cascade } = context;
  const clientIndex = CLIENT_IDS.indexOf(client);
  const bit = 1 << clientIndex;
  const name = getClient(client).name;
  const plan = emptyPlan();
  const styles: ClientView['styles'] = new Map();
  const tally = new WarningTally(client);
  const inlines = GMAIL.has(client);
  const wordEngine = client === 'outlook-windows-legacy';

  // Elements the client removes.
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
    } else if (tag === 'form' && unsupported('html-form', clientIndex)) {
      plan.unwrapped.add(element);
      tally.add('error', '<form>', (n) => `${name} removed ${plural(n, '<form> wrapper')}; the fields cannot be submitted.`, position);
    } else if (tag === 'style' && unsupported('html-style', clientIndex)) {
      plan.removed.add(element);
      tally.add('error', '<style>', (n) => `${name} removed ${plural(n, '<style> block')}.`, position);
    }
  }

  // Comments: dropped where unsupported; the Word engine reads its conditional comments.
  if (wordEngine) {
    plan.dropNotMsoRanges = parsed.notMsoRanges.length > 0;
    for (const conditional of parsed.msoConditionals) plan.comments.set(conditional.comment, wordVisibleMarkup(conditional.content));
    if (parsed.msoConditionals.length > 0) tally.add('info', 'conditional comments', () => `${name} renders ${plural(parsed.msoConditionals.length, '<!--[if mso]> block')} and skips <!--[if !mso]> content.`);
  } else if (unsupported('html-comments', clientIndex) && parsed.comments.length > 0) {
    for (const comment of parsed.comments) plan.comments.set(comment, '');
    tally.add('info', 'HTML comments', () => `${name} removed ${plural(parsed.comments.length, 'HTML comment')}.`);
  }

  // Inline styles: drop what the client does not support; Gmail first merges matching <style> rules.
  const inlinedRuleCount = { value: 0 };
  for (const element of context.styled) {
    const inline = parsed.inlineStyles.get(element);
    const matched = inlines ? cascade.matches.get(element) : undefined;
    if (!matched && !inline) continue;
    if (!matched && inline && (context.styleMask(inline.value, inline.declarations) & bit) === 0) continue;
    const merged = new Map<string, Pick<CssDeclaration, 'property' | 'value' | 'important'>>();
    const position = inline ? { line: inline.line, column: inline.column } : positionOf(element);
    for (const rule of matched ?? []) {
      inlinedRuleCount.value++;
      for (const declaration of rule.declarations) {
        if ((context.cssNodeMask(declaration) & bit) !== 0) continue;
        const property = declaration.prop.toLowerCase();
        const important = declaration.important === true;
        const existing = merged.get(property);
        if (existing?.important && !important) continue;
        merged.set(property, { property, value: declaration.value, important });
      }
    }
    for (const declaration of inline?.declarations ?? []) {
      if ((context.declarationMask(declaration) & bit) !== 0) {
        const use = context.firstDroppingUse(features.inlineDeclarationUses.get(declaration) ?? [], bit);
        const label = use?.label ?? declaration.property;
        tally.add('warning', label, (n) => `${name} strips ${label} (${plural(n, 'declaration')}).`, position);
        continue;
      }
      const existing = merged.get(declaration.property);
      if (existing?.important && !declaration.important) continue;
      merged.delete(declaration.property); // the inline declaration comes last, as in the source
      merged.set(declaration.property, declaration);
    }
    const declarations = [...merged.values()];
    styles.set(element, declarations);
    const attrs = element.attrs.filter((a) => a.name !== 'style' || a.prefix);
    const styleIndex = element.attrs.findIndex((a) => a.name === 'style' && !a.prefix);
    if (declarations.length > 0) {
      const value = serializeDeclarations(declarations);
      attrs.splice(styleIndex >= 0 ? styleIndex : attrs.length, 0, { name: 'style', value });
    }
    plan.startTags.set(element, serializeStartTag(element.tagName, attrs));
  }

  // <style> blocks: keep what the client supports; Gmail keeps only what it cannot inline.
  let keptRules = 0;
  for (const sheet of parsed.styleSheets) {
    if (plan.removed.has(sheet.element)) continue;
    if (!inlines && (context.sheetMask(sheet.root) & bit) === 0) continue;
    const position = positionOf(sheet.element);
    const text = writeCss(sheet.root, {
      keep: (node) => {
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
      },
      selectorOf: inlines ? (rule: Rule) => (rule.parent?.type === 'root' ? (cascade.keptSelectors.get(rule)?.join(',') ?? rule.selector) : rule.selector) : undefined,
    });
    if (text.trim() === '') plan.removed.add(sheet.element);
    else plan.styleTexts.set(sheet.element, text);
  }
  if (inlines && parsed.styleSheets.length > 0) {
    tally.add('info', '<style>', () => `${name} inlined ${plural(inlinedRuleCount.value, 'rule match', 'rule matches')} into style attributes and kept ${plural(keptRules, 'rule')} (media queries, pseudo-classes) in <style>.`);
  }

  return { client, plan, styles, warnings: tally.list() };
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
