import type { ChildNode } from 'postcss';
import { HtmlElement, isElement } from '../parse/dom';
import { CssDeclaration } from '../parse/css-syntax';
import { ParsedEmail, elementNumber } from '../parse/parse-email';
import type { FeatureUse } from './collect-features';

/** Findings an MSO ghost table fallback covers in the Word engine. */
const MSO_COVERED_LABELS: ReadonlySet<string> = new Set([
  'display:flex',
  'display:grid',
  'max-width',
  'min-width',
  'gap',
  'row-gap',
  'column-gap',
  'flex-direction',
  'flex-wrap',
  'justify-content',
  'align-items',
  'float',
  '@media',
  'display',
  'width',
  'box-sizing',
]);
/** Findings a VML shape covers in the Word engine, by VML element. */
const VML_COVERED_LABELS: Record<string, readonly string[]> = {
  roundrect: [
    'border-radius',
    'border-top-left-radius',
    'border-top-right-radius',
    'border-bottom-left-radius',
    'border-bottom-right-radius',
    'background-color',
  ],
  rect: ['background-image', 'background', 'background-size', 'background-position', 'background-repeat', 'linear-gradient()', 'radial-gradient()'],
  fill: ['background-image', 'background', 'background-size', 'background-position', 'background-repeat', 'linear-gradient()', 'radial-gradient()'],
  image: ['background-image', 'background'],
  shadow: ['box-shadow'],
};
const TRACKED_LABELS: ReadonlySet<string> = new Set([...MSO_COVERED_LABELS, ...Object.values(VML_COVERED_LABELS).flat()]);
/** What Word reads and never shows: document settings (`<xml>` islands, `<o:…>`), styles, `<noscript>`, metadata. */
const NON_MARKUP =
  /<xml\b[\s\S]*?<\/xml\s*>|<noscript\b[\s\S]*?<\/noscript\s*>|<style\b[\s\S]*?<\/style\s*>|<\/?(?:o:[\w-]+|meta|link|title|noscript|xml)\b[^>]*>/gi;

export interface FeatureUses {
  elementUses: ReadonlyMap<HtmlElement, readonly FeatureUse[]>;
  inlineDeclarationUses: ReadonlyMap<CssDeclaration, readonly FeatureUse[]>;
  cssNodeUses: ReadonlyMap<ChildNode, readonly FeatureUse[]>;
}

/**
 * Which findings an MSO or VML fallback really covers in the Word engine. A fallback is an
 * `<!--[if mso]>` block in the body that holds markup (a ghost table, a VML shape); it covers the
 * element holding it and everything in that element (the block's siblings, which a ghost table wraps
 * or a VML shape replaces) and, with `<!--[if !mso]>`
 * ranges, what Word never shows. A block of document settings only (`OfficeDocumentSettings` in the
 * head) covers nothing. A label is covered when every element using it is covered; its uses in
 * `<style>` rules count as covered when the email has such a fallback at all (a rule applies anywhere).
 */
export class WordEngineFallbacks {
  /** Per fallback kind (`mso`, `vml:roundrect`, …), which elements (by number) it covers. */
  private readonly fallbacks = new Map<string, boolean[]>();
  private readonly coveredRoots = new Set<string>();
  private readonly labelElements = new Map<string, number[]>();
  private readonly labelsInSheets = new Set<string>();

  constructor(parsed: ParsedEmail, uses: FeatureUses) {
    const count = parsed.elements.length;
    for (const conditional of parsed.msoConditionals) {
      const parent = conditional.comment.parentNode;
      if (!parent || !isElement(parent) || parent.tagName === 'head' || isInHead(parent)) continue;
      const markup = conditional.content.replace(NON_MARKUP, '');
      if (!/<[a-z]/i.test(markup)) continue;
      const kinds = ['mso', ...[...markup.matchAll(/<v:([a-z]+)/gi)].map((match) => `vml:${match[1].toLowerCase()}`)];
      // The element holding the block (a VML background fills its cell) and everything in it.
      for (const kind of kinds) this.coverSubtree(kind, parent, count, parsed);
    }
    if (this.fallbacks.size === 0) return;
    // What Word never shows is covered by every fallback the email has.
    for (const range of parsed.notMsoRanges) {
      const siblings = range.start.parentNode?.childNodes ?? [];
      const from = siblings.indexOf(range.start);
      const to = siblings.indexOf(range.end);
      for (let i = from + 1; i < to; i++) {
        const node = siblings[i];
        if (isElement(node)) for (const kind of this.fallbacks.keys()) this.coverSubtree(kind, node, count, parsed);
      }
    }
    this.indexUses(parsed, uses);
  }

  /** How the email covers `label` in the Word engine, or undefined when it does not (everywhere it is used). */
  coverage(label: string): string | undefined {
    if (this.fallbacks.size === 0) return undefined;
    for (const [shape, labels] of Object.entries(VML_COVERED_LABELS)) {
      if (labels.includes(label) && this.covers(`vml:${shape}`, label)) return `a VML <v:${shape}> fallback`;
    }
    if (MSO_COVERED_LABELS.has(label) && this.covers('mso', label)) return 'an MSO conditional (<!--[if mso]>) fallback';
    return undefined;
  }

  private covers(kind: string, label: string): boolean {
    const covered = this.fallbacks.get(kind);
    if (!covered) return false;
    const elements = this.labelElements.get(label) ?? [];
    if (elements.length === 0 && !this.labelsInSheets.has(label)) return false;
    return elements.every((index) => covered[index]);
  }

  private coverSubtree(kind: string, root: HtmlElement, count: number, parsed: ParsedEmail): void {
    let covered = this.fallbacks.get(kind);
    if (!covered) {
      covered = new Array<boolean>(count).fill(false);
      this.fallbacks.set(kind, covered);
    }
    const rootIndex = elementNumber(root);
    const key = `${kind}\u0000${rootIndex}`;
    if (rootIndex === undefined || this.coveredRoots.has(key)) return;
    this.coveredRoots.add(key);
    covered[rootIndex] = true;
    // Elements are numbered depth first: the subtree is the run after its root whose parents are the root or
    // inside the run; the first element whose parent comes before the root is outside it.
    for (let i = rootIndex + 1; i < count && parsed.elementParents[i] >= rootIndex; i++) covered[i] = true;
  }

  private indexUses(parsed: ParsedEmail, uses: FeatureUses): void {
    const record = (label: string, index: number) => {
      if (!TRACKED_LABELS.has(label)) return;
      const list = this.labelElements.get(label);
      if (!list) this.labelElements.set(label, [index]);
      else if (list[list.length - 1] !== index) list.push(index);
    };
    parsed.elements.forEach((element, index) => {
      const elementUses = uses.elementUses.get(element);
      if (elementUses) for (const use of elementUses) record(use.label, index);
      const inline = parsed.inlineStyles.get(element);
      if (!inline) return;
      for (const declaration of inline.declarations) for (const use of uses.inlineDeclarationUses.get(declaration) ?? []) record(use.label, index);
    });
    for (const nodeUses of uses.cssNodeUses.values()) for (const use of nodeUses) if (TRACKED_LABELS.has(use.label)) this.labelsInSheets.add(use.label);
  }
}

function isInHead(element: HtmlElement): boolean {
  for (let node: HtmlElement | null = element; node; node = node.parentNode && isElement(node.parentNode) ? node.parentNode : null) {
    if (node.tagName === 'head') return true;
  }
  return false;
}
