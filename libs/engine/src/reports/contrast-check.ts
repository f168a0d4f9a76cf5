/**
 * Text contrast against WCAG 2 AA: 4.5:1 for normal text, 3:1 for large text (24px, or 18.66px bold).
 * Shared by the accessibility report (the email as written) and the dark-contrast report (each variant).
 */
import type { HtmlElement, HtmlNode } from '../parse/dom';
import { childrenOf, isElement, isText } from '../parse/dom';
import { contrastRatio, toHex } from './color-utils';
import type { VariantColours } from './colour-cascade';
import { BLOCK_TAGS, type ReportDocument } from './report-document';
import type { ReportIssue } from './report-issue';
import type { ReportStyles } from './report-styles';
import { collapseWhitespace, shorten, stripInvisible } from './text-utils';

export interface ContrastIssue extends ReportIssue {
  text: string;
  color: string;
  background: string;
  ratio: number;
  required: number;
}

export interface TextRun {
  element: HtmlElement;
  text: string;
  /** WCAG's large text, where 3:1 suffices. */
  large: boolean;
  fontSizePx: number;
}

const NOT_READ_AS_TEXT: ReadonlySet<string> = new Set(['noscript', 'title']);

/**
 * One walk of the visible body: the elements that carry their own visible text (each once, in document
 * order) and the visible text as one string (block boundaries become spaces), white space not yet collapsed.
 */
export function readVisibleText(doc: ReportDocument, styles: ReportStyles): { runs: TextRun[]; text: string } {
  if (!doc.body) return { runs: [], text: '' };
  // A Map keeps elements in the order their first text appears, which is document order.
  const textByElement = new Map<HtmlElement, string>();
  let text = '';
  const stack: Array<{ node: HtmlNode; parent: HtmlElement; read: boolean }> = [];
  const push = (parent: HtmlElement, read: boolean): void => {
    const children = childrenOf(parent);
    for (let i = children.length - 1; i >= 0; i--) stack.push({ node: children[i], parent, read });
  };
  push(doc.body, true);
  while (stack.length > 0) {
    const { node, parent, read } = stack.pop()!;
    if (isText(node)) {
      textByElement.set(parent, (textByElement.get(parent) ?? '') + node.value);
      if (read) text += node.value;
    } else if (isElement(node)) {
      if (styles.hiddenReason(node) !== null) continue;
      if (read && BLOCK_TAGS.has(node.tagName)) text += ' ';
      push(node, read && !NOT_READ_AS_TEXT.has(node.tagName));
    }
  }
  const runs: TextRun[] = [];
  for (const [element, raw] of textByElement) {
    const runText = collapseWhitespace(stripInvisible(raw));
    if (!runText) continue;
    const fontSizePx = styles.fontSizePx(element);
    runs.push({ element, text: runText, fontSizePx, large: fontSizePx >= 24 || (fontSizePx >= 18.66 && styles.isBold(element)) });
  }
  return { runs, text };
}

export function checkContrast(
  doc: ReportDocument,
  colours: VariantColours,
  runs: readonly TextRun[],
  rule: string,
  messagePrefix = '',
  shared?: Map<string, ContrastIssue>,
): ContrastIssue[] {
  const issues: ContrastIssue[] = [];
  for (let index = 0; index < runs.length; index++) {
    const run = runs[index];
    const { element } = run;
    // Sub-2px text is a spacer or preheader trick, reported as hidden text elsewhere.
    if (run.fontSizePx < 2) continue;
    const background = colours.background(element);
    if (!background) continue;
    const foreground = colours.textColor(element);
    // Fully transparent text is invisible text, not low contrast.
    if (foreground.alpha === 0) continue;
    const ratio = contrastRatio(foreground, background.color);
    const required = run.large ? 3 : 4.5;
    if (ratio >= required) continue;
    const colorHex = toHex(foreground);
    const backgroundHex = toHex(background.color);
    const key = shared ? `${index}|${colorHex}|${backgroundHex}` : '';
    const known = shared?.get(key);
    if (known) {
      issues.push(known);
      continue;
    }
    const issue: ContrastIssue = {
      rule,
      severity: ratio < 3 ? 'error' : 'warning',
      message: `${messagePrefix}Text "${shorten(run.text, 40)}" has contrast ${ratio.toFixed(2)}:1 (${colorHex} on ${backgroundHex}); WCAG AA needs ${required}:1.`,
      ...doc.at(element),
      text: shorten(run.text, 80),
      color: colorHex,
      background: backgroundHex,
      ratio,
      required,
    };
    shared?.set(key, issue);
    issues.push(issue);
  }
  return issues;
}
