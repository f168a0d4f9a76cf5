/**
 * Text contrast against WCAG 2 AA: 4.5:1 for normal text, 3:1 for large text (24px, or 18.66px bold).
 * Shared by the accessibility report (light mode) and the dark-contrast report (each dark variant).
 */
import { contrastRatio, toHex } from './color-utils';
import { elementExcerpt, elementPosition, type EmailElement, type EmailNode, type ParsedEmail } from './parsed-email';
import type { ReportIssue } from './report-issue';
import type { StyleResolver } from './style-resolver';
import { collapseWhitespace, shorten, stripInvisible } from './text-utils';

export interface ContrastIssue extends ReportIssue {
  text: string;
  color: string;
  background: string;
  ratio: number;
  required: number;
}

export interface TextRun {
  element: EmailElement;
  text: string;
}

/** Elements that carry their own visible text, each once, in document order. */
export function visibleTextRuns(parsed: ParsedEmail, style: StyleResolver): TextRun[] {
  if (!parsed.body) return [];
  // A Map keeps elements in the order their first text appears, which is document order.
  const textByElement = new Map<EmailElement, string[]>();
  const stack: EmailNode[] = [...parsed.body.children].reverse();
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (node.kind === 'text') {
      const parts = textByElement.get(node.parent);
      if (parts) parts.push(node.value);
      else textByElement.set(node.parent, [node.value]);
    } else if (node.kind === 'element') {
      if (style.hiddenReason(node) !== null) continue;
      for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i]);
    }
  }
  const runs: TextRun[] = [];
  for (const [element, parts] of textByElement) {
    const text = collapseWhitespace(stripInvisible(parts.join('')));
    if (text) runs.push({ element, text });
  }
  return runs;
}

/** Large text by WCAG's definition, where 3:1 suffices. */
export function isLargeText(style: StyleResolver, element: EmailElement): boolean {
  const size = style.fontSizePx(element);
  return size >= 24 || (size >= 18.66 && style.isBold(element));
}

export function checkContrast(parsed: ParsedEmail, style: StyleResolver, runs: readonly TextRun[], rule: string): ContrastIssue[] {
  const issues: ContrastIssue[] = [];
  for (const run of runs) {
    const { element } = run;
    // Sub-2px text is a spacer or preheader trick, reported as hidden text elsewhere.
    if (style.fontSizePx(element) < 2) continue;
    const background = style.background(element);
    if (!background) continue;
    const foreground = style.textColor(element);
    // Fully transparent text is invisible text, not low contrast.
    if (foreground.alpha === 0) continue;
    const ratio = contrastRatio(foreground, background.color);
    const required = isLargeText(style, element) ? 3 : 4.5;
    if (ratio >= required) continue;
    const colorHex = toHex(foreground);
    const backgroundHex = toHex(background.color);
    issues.push({
      rule,
      severity: ratio < 3 ? 'error' : 'warning',
      message: `Text "${shorten(run.text, 40)}" has contrast ${ratio.toFixed(2)}:1 (${colorHex} on ${backgroundHex}); WCAG AA needs ${required}:1.`,
      ...elementPosition(parsed, element),
      element: elementExcerpt(parsed, element),
      text: shorten(run.text, 80),
      color: colorHex,
      background: backgroundHex,
      ratio,
      required,
    });
  }
  return issues;
}
