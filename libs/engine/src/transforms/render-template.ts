import { escapeAttributeValue, escapeText } from '../parse/html-escape';
import {
  HTML_NAMESPACE,
  HtmlComment,
  HtmlElement,
  HtmlNode,
  HtmlParentNode,
  HtmlText,
  childrenOf,
  isComment,
  isElement,
  isText,
  positionOf,
} from '../parse/dom';
import { NotMsoRange, ParsedEmail } from '../parse/parse-email';

/**
 * What one client (or one client's dark variant) changes in the document. Everything not named
 * here renders exactly as parse5 would serialize it.
 */
export interface RenderPlan {
  /** Replacement start-tag markup (`<td style="…">`). */
  startTags: Map<HtmlElement, string>;
  /** A dark variant's light plan's `startTags`, read after its own (layerPlan): the variant holds only what it recolors. */
  baseStartTags?: ReadonlyMap<HtmlElement, string>;
  /**
   * Start tags with the client's class and id prefix, for elements `startTags` does not rewrite: one map per
   * prefix and email, shared by the clients (and dark variants) of that prefix instead of copied into each plan.
   */
  prefixedStartTags?: ReadonlyMap<HtmlElement, string>;
  /** Elements dropped with their content. */
  removed: Set<HtmlElement>;
  /** Elements whose tags are dropped but whose content stays. */
  unwrapped: Set<HtmlElement>;
  /** Replacement text of `<style>` elements. */
  styleTexts: Map<HtmlElement, string>;
  /** Replacement markup of comments ('' drops the comment). */
  comments: Map<HtmlComment, string>;
  /** Drop `<!--[if !mso]><!-->…<!--<![endif]-->` ranges (the Word engine). */
  dropNotMsoRanges: boolean;
  /** Replacement markup of text nodes (markup a client adds, such as Apple's data detectors). */
  texts: Map<HtmlText, string>;
  /** Replacement end-tag markup (`</div></body>` where a client wraps the body's content). */
  endTags?: Map<HtmlElement, string>;
  /**
   * Markup written right after an element's start tag (the wrapper a client puts around the body's content):
   * kept apart from `startTags` so that a dark variant that recolors the body keeps the wrapper.
   */
  afterStartTags?: Map<HtmlElement, string>;
}

export function emptyPlan(): RenderPlan {
  return {
    startTags: new Map(),
    removed: new Set(),
    unwrapped: new Set(),
    styleTexts: new Map(),
    comments: new Map(),
    dropNotMsoRanges: false,
    texts: new Map(),
  };
}

/**
 * A plan layered over a finished one (a dark variant over its client's light plan): start tags and `<style>`
 * texts set on it win, everything else is the light plan's. The dark variants only recolor start tags and
 * style texts, so the other collections are shared, not copied, and the light plan is never written again.
 */
export function layerPlan(plan: RenderPlan): RenderPlan {
  return {
    startTags: new Map(),
    baseStartTags: plan.startTags,
    removed: plan.removed,
    unwrapped: plan.unwrapped,
    styleTexts: new Map(plan.styleTexts),
    comments: plan.comments,
    dropNotMsoRanges: plan.dropNotMsoRanges,
    texts: plan.texts,
    prefixedStartTags: plan.prefixedStartTags,
    endTags: plan.endTags,
    afterStartTags: plan.afterStartTags,
  };
}

/**
 * Whether two plans hold the same changes, collection by collection (strings compared by content): they render
 * the same markup. Plans that agree only once layered (a dark variant and a light plan) are not recognized.
 * Sizes first, the `<style>` texts (long, and built by concatenation) last.
 */
export function samePlan(a: RenderPlan, b: RenderPlan): boolean {
  return (
    a.dropNotMsoRanges === b.dropNotMsoRanges &&
    a.startTags.size === b.startTags.size &&
    a.styleTexts.size === b.styleTexts.size &&
    a.removed.size === b.removed.size &&
    (a.baseStartTags?.size ?? 0) === (b.baseStartTags?.size ?? 0) &&
    (a.prefixedStartTags?.size ?? 0) === (b.prefixedStartTags?.size ?? 0) &&
    sameMembers(a.removed, b.removed) &&
    sameMembers(a.unwrapped, b.unwrapped) &&
    sameEntries(a.startTags, b.startTags) &&
    sameEntries(a.baseStartTags, b.baseStartTags) &&
    sameEntries(a.prefixedStartTags, b.prefixedStartTags) &&
    sameEntries(a.comments, b.comments) &&
    sameEntries(a.texts, b.texts) &&
    sameEntries(a.endTags, b.endTags) &&
    sameEntries(a.afterStartTags, b.afterStartTags) &&
    sameEntries(a.styleTexts, b.styleTexts)
  );
}

/**
 * A number equal plans share: the lengths of the plan's texts and the sizes of its collections, summed. Reading a
 * length never flattens a string, so plans that differ are told apart without comparing their texts.
 */
export function planWeight(plan: RenderPlan): number {
  let weight = plan.removed.size * 7 + plan.unwrapped.size * 11 + (plan.dropNotMsoRanges ? 13 : 0);
  for (const texts of [
    plan.startTags,
    plan.baseStartTags,
    plan.prefixedStartTags,
    plan.styleTexts,
    plan.comments,
    plan.texts,
    plan.endTags,
    plan.afterStartTags,
  ]) {
    if (!texts) continue;
    weight = weight * 3 + texts.size;
    for (const text of texts.values()) weight += text.length;
  }
  return weight;
}

/** Two maps of markup with the same keys and texts (a missing map is an empty one). */
function sameEntries<K>(a: ReadonlyMap<K, string> | undefined, b: ReadonlyMap<K, string> | undefined): boolean {
  if (a === b) return true;
  const size = a?.size ?? 0;
  if (size !== (b?.size ?? 0)) return false;
  if (!a || !b || size === 0) return true;
  for (const [key, value] of a) if (b.get(key) !== value) return false;
  return true;
}

function sameMembers<T>(a: ReadonlySet<T>, b: ReadonlySet<T>): boolean {
  if (a === b) return true;
  if (a.size !== b.size) return false;
  for (const member of a) if (!b.has(member)) return false;
  return true;
}

/** How render treats an Open (or Close) slot: the element dropped with its content, or only its tags. */
const REMOVED = 1;
const UNWRAPPED = 2;

const enum SlotKind {
  Open,
  Close,
  StyleText,
  Comment,
  Text,
}

interface Slot {
  kind: SlotKind;
  node: HtmlElement | HtmlComment | HtmlText;
  text: string;
  /** Open slots of an annotating template: ` data-mp-line="N"`, added to a rewritten start tag too. */
  annotation?: string;
  /** Open: index in `parts` of the matching Close (or itself for void elements). Comment: end of a !mso range. */
  jump: number;
}

const VOID_ELEMENTS = new Set([
  'area',
  'base',
  'basefont',
  'bgsound',
  'br',
  'col',
  'embed',
  'frame',
  'hr',
  'img',
  'input',
  'keygen',
  'link',
  'meta',
  'param',
  'source',
  'track',
  'wbr',
]);
const RAW_TEXT_PARENTS = new Set(['style', 'script', 'xmp', 'iframe', 'noembed', 'noframes', 'plaintext', 'noscript']);
const XML_NS = 'http://www.w3.org/XML/1998/namespace';
const XMLNS_NS = 'http://www.w3.org/2000/xmlns/';
const XLINK_NS = 'http://www.w3.org/1999/xlink';

export interface AttributeValue {
  name: string;
  value: string;
  namespace?: string;
  prefix?: string;
}

function attributeName(attr: AttributeValue): string {
  if (!attr.namespace) return attr.name;
  if (attr.namespace === XML_NS) return `xml:${attr.name}`;
  if (attr.namespace === XMLNS_NS) return attr.name === 'xmlns' ? attr.name : `xmlns:${attr.name}`;
  if (attr.namespace === XLINK_NS) return `xlink:${attr.name}`;
  return `${attr.prefix}:${attr.name}`;
}

/** The attribute an annotating RenderTemplate adds to every start tag: the element's line in the analyzed HTML. */
export const LINE_ATTRIBUTE = 'data-mp-line';

/** `<td …>` + ` data-mp-line="3"` -> `<td … data-mp-line="3">` (start tags always end with '>'). */
function withAnnotation(startTag: string, annotation: string | undefined): string {
  return annotation && startTag.endsWith('>') ? `${startTag.slice(0, -1)}${annotation}>` : startTag;
}

/** A start tag exactly as parse5's serializer writes it. */
export function serializeStartTag(tagName: string, attrs: readonly AttributeValue[]): string {
  let html = `<${tagName}`;
  for (const attr of attrs) html += ` ${attributeName(attr)}="${escapeAttributeValue(attr.value)}"`;
  return `${html}>`;
}

/**
 * The document pre-serialized once into constant strings and a few slots (elements a client may
 * rewrite, `<style>` texts, comments). Rendering a client is then one pass of string concatenation:
 * this is what makes 21 clients cost close to one.
 */
export class RenderTemplate {
  private readonly parts: Array<string | number> = [];
  private readonly slots: Slot[] = [];
  /** Slot indexes by node: an element's Open and Close slots; a `<style>`'s text, a text or a comment slot. */
  private readonly openSlots = new Map<HtmlElement, number>();
  private readonly closeSlots = new Map<HtmlElement, number>();
  private readonly contentSlots = new Map<HtmlElement | HtmlComment | HtmlText, number>();
  /** Slot texts of a shared prefixedStartTags map (several clients and their dark variants render with one). */
  private readonly prefixedTexts = new Map<ReadonlyMap<HtmlElement, string>, Array<string | undefined>>();

  /**
   * `annotateLines`: every start tag also carries `data-mp-line="<source line>"`, so that a rendered page
   * can say where an element came from (the render worker's overflow and contrast reports). The
   * attribute is added after the client's rewrites, so no client transform ever sees it.
   */
  constructor(
    parsed: ParsedEmail,
    editable: ReadonlySet<HtmlElement>,
    options: {
      annotateLines?: boolean;
      editableTexts?: ReadonlySet<HtmlText>;
      /** Each element's serialized start tag, shared by the templates of one analysis built with the same `annotateLines`: filled by the first, read by the next. */
      startTags?: Map<HtmlElement, string>;
    } = {},
  ) {
    const editableTexts = options.editableTexts;
    const annotationOf = (element: HtmlElement): string => {
      const line = options.annotateLines ? positionOf(element)?.line : undefined;
      return line === undefined ? '' : ` ${LINE_ATTRIBUTE}="${line}"`;
    };
    const rangeEnds = new Map<HtmlComment, NotMsoRange>();
    for (const range of parsed.notMsoRanges) rangeEnds.set(range.start, range);
    const pendingRanges = new Map<HtmlComment, number>();
    let buffer = '';
    const flush = (): void => {
      if (buffer) {
        this.parts.push(buffer);
        buffer = '';
      }
    };
    const pushSlot = (slot: Slot): number => {
      flush();
      this.slots.push(slot);
      const index = this.slots.length - 1;
      if (slot.kind === SlotKind.Open) this.openSlots.set(slot.node as HtmlElement, index);
      else if (slot.kind === SlotKind.Close) this.closeSlots.set(slot.node as HtmlElement, index);
      else this.contentSlots.set(slot.node, index);
      this.parts.push(this.slots.length - 1);
      return this.parts.length - 1;
    };

    // One object shape per open element and no closure: the end tag goes into the buffer (`tag`), or into a
    // Close slot the Open slot jumps to (`open`, an editable element); the document's frame has neither.
    type Frame = { nodes: HtmlNode[]; index: number; tag: string; open: Slot | null; node: HtmlElement | null };
    const stack: Frame[] = [];
    let frame: Frame = { nodes: childrenOf(parsed.document as HtmlParentNode) as HtmlNode[], index: 0, tag: '', open: null, node: null };
    for (;;) {
      if (frame.index >= frame.nodes.length) {
        if (frame.open !== null) frame.open.jump = pushSlot({ kind: SlotKind.Close, node: frame.node as HtmlElement, text: `</${frame.tag}>`, jump: -1 });
        else if (frame.tag) buffer += `</${frame.tag}>`;
        const parent = stack.pop();
        if (!parent) break;
        frame = parent;
        continue;
      }
      const node = frame.nodes[frame.index++];
      if (isElement(node)) {
        const tag = node.tagName;
        const isHtml = node.namespaceURI === HTML_NAMESPACE;
        const annotation = annotationOf(node);
        let startTag = options.startTags?.get(node);
        if (startTag === undefined) {
          startTag = withAnnotation(serializeStartTag(tag, node.attrs), annotation);
          options.startTags?.set(node, startTag);
        }
        const isVoid = isHtml && VOID_ELEMENTS.has(tag);
        const isStyle = isHtml && tag === 'style';
        if (!editable.has(node) && !isStyle) {
          buffer += startTag;
          if (isVoid) continue;
          stack.push(frame);
          frame = { nodes: childrenOf(node) as HtmlNode[], index: 0, tag, open: null, node };
          continue;
        }
        const openPart = pushSlot({ kind: SlotKind.Open, node, text: startTag, jump: -1, annotation });
        const openSlot = this.slots[this.parts[openPart] as number];
        if (isVoid) {
          openSlot.jump = openPart;
          continue;
        }
        if (isStyle) {
          const text = node.childNodes.map((c) => (isText(c) ? (c as HtmlText).value : '')).join('');
          pushSlot({ kind: SlotKind.StyleText, node, text, jump: -1 });
          openSlot.jump = pushSlot({ kind: SlotKind.Close, node, text: `</${tag}>`, jump: -1 });
          continue;
        }
        stack.push(frame);
        frame = { nodes: childrenOf(node) as HtmlNode[], index: 0, tag, open: openSlot, node };
      } else if (isText(node)) {
        const parent = node.parentNode;
        const raw = parent !== null && isElement(parent) && parent.namespaceURI === HTML_NAMESPACE && RAW_TEXT_PARENTS.has(parent.tagName);
        const text = raw ? node.value : escapeText(node.value);
        if (editableTexts?.has(node)) pushSlot({ kind: SlotKind.Text, node, text, jump: -1 });
        else buffer += text;
      } else if (isComment(node)) {
        const part = pushSlot({ kind: SlotKind.Comment, node, text: `<!--${node.data}-->`, jump: -1 });
        if (rangeEnds.has(node)) pendingRanges.set(rangeEnds.get(node)?.end as HtmlComment, part);
        const startPart = pendingRanges.get(node);
        if (startPart !== undefined) this.slots[this.parts[startPart] as number].jump = part;
      } else if (node.nodeName === '#documentType') {
        buffer += `<!DOCTYPE ${(node as { name: string }).name}>`;
      }
    }
    flush();
  }

  /**
   * One client's markup. The plan is first laid onto the slots (what replaces each slot's text, which slots are
   * removed or unwrapped): its maps are read once per entry, and the pass over the parts reads arrays, instead of
   * asking every map about every slot (the slots are every element any client or dark variant changes).
   */
  render(plan: RenderPlan): string {
    const { parts, slots } = this;
    const texts = this.replacementsOf(plan);
    const unwrappedOrRemoved = new Uint8Array(slots.length);
    for (const element of plan.unwrapped) {
      const open = this.openSlots.get(element);
      if (open !== undefined) unwrappedOrRemoved[open] = UNWRAPPED;
      const close = this.closeSlots.get(element);
      if (close !== undefined) unwrappedOrRemoved[close] = UNWRAPPED;
    }
    for (const element of plan.removed) {
      const open = this.openSlots.get(element);
      if (open !== undefined) unwrappedOrRemoved[open] = REMOVED;
    }
    let afterStart: Array<string | undefined> | undefined;
    if (plan.afterStartTags?.size) {
      afterStart = new Array<string | undefined>(slots.length);
      this.lay(plan.afterStartTags, this.openSlots, afterStart);
    }
    let out = '';
    for (let i = 0; i < parts.length; i++) {
      const part = parts[i];
      if (typeof part === 'string') {
        out += part;
        continue;
      }
      const slot = slots[part];
      const text = texts[part];
      switch (slot.kind) {
        case SlotKind.Open: {
          if (unwrappedOrRemoved[part] === REMOVED) {
            i = slot.jump;
            continue;
          }
          // An unwrapped element prints only what the client writes in place of its start tag (Outlook.com's [href]).
          if (unwrappedOrRemoved[part] !== UNWRAPPED) out += text === undefined ? slot.text : withAnnotation(text, slot.annotation);
          if (afterStart) out += afterStart[part] ?? '';
          break;
        }
        case SlotKind.Close:
          if (unwrappedOrRemoved[part] !== UNWRAPPED) out += text ?? slot.text;
          break;
        case SlotKind.Comment:
          if (plan.dropNotMsoRanges && slot.jump >= 0) {
            i = slot.jump;
            continue;
          }
          out += text ?? slot.text;
          break;
        default:
          out += text ?? slot.text;
      }
    }
    return out;
  }

  /** What replaces each slot's text under the plan (undefined: the slot's own text). */
  private replacementsOf(plan: RenderPlan): Array<string | undefined> {
    const prefixed = plan.prefixedStartTags;
    let texts: Array<string | undefined>;
    if (prefixed?.size) {
      let shared = this.prefixedTexts.get(prefixed);
      if (!shared) {
        shared = new Array<string | undefined>(this.slots.length);
        this.lay(prefixed, this.openSlots, shared);
        this.prefixedTexts.set(prefixed, shared);
      }
      texts = shared.slice();
    } else texts = new Array<string | undefined>(this.slots.length);
    // Later layers win: a dark variant's own start tags over its light plan's, both over the prefixed ones.
    if (plan.baseStartTags) this.lay(plan.baseStartTags, this.openSlots, texts);
    this.lay(plan.startTags, this.openSlots, texts);
    if (plan.endTags) this.lay(plan.endTags, this.closeSlots, texts);
    this.lay(plan.styleTexts, this.contentSlots, texts);
    this.lay(plan.texts, this.contentSlots, texts);
    this.lay(plan.comments, this.contentSlots, texts);
    return texts;
  }

  private lay<K>(entries: ReadonlyMap<K, string>, slotsOf: ReadonlyMap<K, number>, into: Array<string | undefined>): void {
    for (const [node, text] of entries) {
      const slot = slotsOf.get(node);
      if (slot !== undefined) into[slot] = text;
    }
  }
}
