/**
 * Text contrast against WCAG 2 AA: 4.5:1 for normal text, 3:1 for large text (24px, or 18.66px bold).
 * Shared by the accessibility report (the email as written) and the dark-contrast report (each variant).
 */
import type { HtmlElement, HtmlNode } from '../../parse/dom';
import { childrenOf, isElement, isText } from '../../parse/dom';
import { colorCode, contrastRatio, displayedRatio, toHex } from './color-utils';
import type { VariantColors } from './color-cascade';
import { BLOCK_TAGS, perElement, type ReportDocument } from './report-document';
import type { ReportIssue } from './report-issue';
import type { ReportStyles } from './report-styles';
import { INVISIBLE_CHARACTERS, collapseWhitespace, shorten, stripInvisible } from './text-utils';

export interface ContrastIssue extends ReportIssue {
  text: string;
  color: string;
  background: string;
  ratio: number;
  required: number;
}

export interface TextRun {
  element: HtmlElement;
  /** The element's number in the document (ElementIndex). */
  index: number;
  text: string;
  /** WCAG's large text, where 3:1 suffices. */
  large: boolean;
  fontSizePx: number;
  /** Not only punctuation or emoji (isReadableText): contrast is checked. */
  readable: boolean;
}

const NOT_READ_AS_TEXT: ReadonlySet<string> = new Set(['noscript', 'title']);
/** Only white space (zero-width characters are not: the spam report looks for them). */
const BLANK = /^\s+$/;
/** Only ASCII white space (space, tab, CR, LF, FF): what HTML and html-to-text collapse. */
const ASCII_BLANK = /^[ \t\r\n\f]+$/;
/** A character that survives stripInvisible and collapseWhitespace. */
const SHOWS = new RegExp(`[^\\s${INVISIBLE_CHARACTERS}]`);

/**
 * Punctuation (axe-core's list) and emoji. WCAG's contrast rule is about text people read: axe-core's
 * color-contrast leaves out an element whose own text, collapsed and trimmed, is nothing once these are
 * removed ("|", "-", "★"; but ", ," keeps the space between the commas, as in axe).
 */
const NOT_READ_CHARACTERS =
  /[\u2000-\u206F\u2E00-\u2E7F\u3000-\u3004\u3008-\u3020\u3030\u3036-\u3037\u303D-\u303F\u30FB\uFE10-\uFE1F\uFE30-\uFE4F\uFE50-\uFE6F\uFF01-\uFF0F\uFF1A-\uFF20\uFF3B-\uFF40\uFF5B-\uFF65\\'!"#$%&\xa3\xa2\xa5\xa7\u20ac()*+,\-./:;<=>?@[\]^_`{|}~\xb1\p{Extended_Pictographic}\uFE0F]/gu;

/** Whether a run's text (collapsed and trimmed) has something to read besides punctuation and emoji. */
export function isReadableText(text: string): boolean {
  return text.replace(NOT_READ_CHARACTERS, '') !== '';
}

/** Kinds of VisibleBody entries. */
export const BODY_OPEN = 0;
export const BODY_CLOSE = 1;
export const BODY_TEXT = 2;
/** A text node of ASCII white space only (the indentation between tags, mostly). */
export const BODY_BLANK_TEXT = 3;

/**
 * The visible body as readVisibleText walked it, for later walks over the same nodes (the plain text)
 * that would otherwise read the whole tree again: each entry a kind and, for an element's opening and
 * closing, its number, for a text node its value. Hidden subtrees are not in it; `closeAt[n]` is the
 * entry where element n closes, so a walk can skip what it leaves out. (Reading every node of a large
 * tree is most of what such a walk costs: the nodes are scattered through the heap, the entries are not.)
 */
export interface VisibleBody {
  kinds: number[];
  refs: Array<number | string>;
  closeAt: Int32Array;
}

const NO_BODY: VisibleBody = { kinds: [], refs: [], closeAt: new Int32Array(0) };

/**
 * One walk of the visible body: the elements that carry their own visible text (each once, in document
 * order), the visible text as one string (block boundaries become spaces), white space not yet collapsed,
 * and the body as a flat list for later walks (VisibleBody). Elements are numbered as the walk meets them
 * (document order), so hidden subtrees are skipped by range.
 */
export function readVisibleText(doc: ReportDocument, styles: ReportStyles): { runs: TextRun[]; text: string; body: VisibleBody } {
  if (!doc.body) return { runs: [], text: '', body: NO_BODY };
  const { index } = doc;
  const own: Array<string | undefined> = perElement(index.elements.length);
  const seen = new Uint8Array(index.elements.length);
  const order: number[] = [];
  let text = '';
  const kinds: number[] = [];
  const refs: Array<number | string> = [];
  const closeAt = new Int32Array(index.elements.length);
  // Parallel stacks instead of one object per node: this walk visits every node of the body. A null
  // node closes the element its parent entry names.
  const nodes: Array<HtmlNode | null> = [];
  const parents: number[] = [];
  const reads: boolean[] = [];
  const push = (parent: HtmlElement, parentIndex: number, read: boolean): void => {
    const children = childrenOf(parent);
    for (let i = children.length - 1; i >= 0; i--) {
      nodes.push(children[i]);
      parents.push(parentIndex);
      reads.push(read);
    }
  };
  const bodyIndex = index.of(doc.body);
  let next = bodyIndex + 1;
  push(doc.body, bodyIndex, true);
  while (nodes.length > 0) {
    const node = nodes.pop()!;
    const parent = parents.pop()!;
    const read = reads.pop()!;
    if (node === null) {
      closeAt[parent] = kinds.length;
      kinds.push(BODY_CLOSE);
      refs.push(parent);
      continue;
    }
    if (isText(node)) {
      // Indentation between tags: one space collapses to the same text and keeps the strings short.
      const asciiBlank = ASCII_BLANK.test(node.value);
      const value = asciiBlank || BLANK.test(node.value) ? ' ' : node.value;
      kinds.push(asciiBlank ? BODY_BLANK_TEXT : BODY_TEXT);
      refs.push(node.value);
      if (read) text += value;
      // Runs are ordered by their element's first text node, but only text that shows starts a run's
      // string: leading white space would be trimmed anyway, and most text nodes are indentation.
      if (seen[parent] !== 1) {
        seen[parent] = 1;
        order.push(parent);
      }
      const before = own[parent];
      if (before !== undefined) own[parent] = before + value;
      else if (SHOWS.test(value)) own[parent] = value;
    } else if (isElement(node)) {
      const current = index.elements[next] === node ? next : index.of(node);
      if (styles.hiddenAt(current) !== null) {
        next = index.end[current] + 1;
        continue;
      }
      next = current + 1;
      kinds.push(BODY_OPEN);
      refs.push(current);
      if (read && BLOCK_TAGS.has(node.tagName)) text += ' ';
      nodes.push(null);
      parents.push(current);
      reads.push(false);
      push(node, current, read && !NOT_READ_AS_TEXT.has(node.tagName));
    }
  }
  const runs: TextRun[] = [];
  for (const element of order) {
    const ownText = own[element];
    if (ownText === undefined) continue;
    const runText = collapseWhitespace(stripInvisible(ownText));
    if (!runText) continue;
    const fontSizePx = styles.fontSizeAt(element);
    runs.push({
      element: index.elements[element],
      index: element,
      text: runText,
      fontSizePx,
      readable: isReadableText(runText),
      large: fontSizePx >= 24 || (fontSizePx >= 18.66 && styles.isBoldAt(element)),
    });
  }
  return { runs, text, body: { kinds, refs, closeAt } };
}

/** Builds issue objects, sharing one object per run and color pair (up to 21 variants check the same runs). */
export class ContrastIssues {
  /** Per run: the issues built so far, by color pair (a run has few distinct pairs over all variants). */
  private readonly known: Array<Array<{ color: number; background: number; issue: ContrastIssue }> | undefined> = [];

  constructor(
    private readonly doc: ReportDocument,
    private readonly rule: string,
    private readonly messagePrefix = '',
  ) {}

  /** The run's issue in a variant's colors, or null when it passes or cannot be measured. */
  check(colors: VariantColors, run: TextRun, runIndex: number): ContrastIssue | null {
    // Sub-2px text is a spacer or preheader trick, reported as hidden text elsewhere.
    if (run.fontSizePx < 2 || !run.readable) return null;
    const painted = colors.paintedTextAt(run.index);
    if (!painted) return null;
    const { foreground, background } = painted;
    // Fully transparent text is invisible text, not low contrast.
    if (painted.declared.alpha === 0) return null;
    const ratio = contrastRatio(foreground, background.color);
    const required = run.large ? 3 : 4.5;
    if (ratio >= required) return null;
    const color = colorCode(foreground);
    const backgroundCode = colorCode(background.color);
    let known = this.known[runIndex];
    if (!known) {
      known = [];
      this.known[runIndex] = known;
    }
    for (const entry of known) if (entry.color === color && entry.background === backgroundCode) return entry.issue;
    const colorHex = toHex(foreground);
    const backgroundHex = toHex(background.color);
    const shown = displayedRatio(ratio);
    const issue: ContrastIssue = {
      rule: this.rule,
      severity: ratio < 3 ? 'error' : 'warning',
      message: `${this.messagePrefix}Text "${shorten(run.text, 40)}" has contrast ${shown.toFixed(2)}:1 (${colorHex} on ${backgroundHex}); WCAG AA needs ${required}:1.`,
      ...this.doc.at(run.element),
      text: shorten(run.text, 80),
      color: colorHex,
      background: backgroundHex,
      ratio: shown,
      required,
    };
    known.push({ color, background: backgroundCode, issue });
    return issue;
  }
}

/** Issues of the runs below AA in one variant, in run order. */
export function checkContrast(doc: ReportDocument, colors: VariantColors, runs: readonly TextRun[], rule: string): ContrastIssue[] {
  const issues = new ContrastIssues(doc, rule);
  const found: ContrastIssue[] = [];
  runs.forEach((run, index) => {
    const issue = issues.check(colors, run, index);
    if (issue) found.push(issue);
  });
  return found;
}
