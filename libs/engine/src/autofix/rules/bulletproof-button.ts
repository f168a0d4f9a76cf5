import type { HtmlElement } from '../../parse/dom';
import { childrenOf, getAttribute, hasAttribute, isElement, isText } from '../../parse/dom';
import type { ParsedEmail } from '../../parse/parse-email';
import { parseCssColor, splitCssValue } from '../../reports/context/color-utils';
import type { ReportContext } from '../../reports/context/report-context';
import type { FixCandidate, FixRefusal, FixRule, TextEdit } from '../fix-model';
import { elementLine } from '../source-ranges';
import { StyleDeclaration, appendStyleEdit, appliedDeclarations, inBody, inlineDeclarations, lastOf, pixels } from './layout-css';
import { VmlSurroundings, meetsVml, vmlSurroundings } from './vml-background';

/** Elements a text-only link button may hold around its text. */
const PHRASING = new Set(['span', 'strong', 'b', 'em', 'i', 'u', 'font', 'small', 'big', 'sup', 'sub', 'br']);
const SIDES = ['top', 'right', 'bottom', 'left'] as const;

type Sides = Record<(typeof SIDES)[number], number>;

/** The four paddings in pixels as the declarations leave them; undefined when one is not in pixels. */
function paddingOf(declarations: readonly StyleDeclaration[]): Sides | undefined {
  const sides: Sides = { top: 0, right: 0, bottom: 0, left: 0 };
  for (const declaration of declarations) {
    if (declaration.property === 'padding') {
      const values = declaration.value.trim().split(/\s+/).map(pixels);
      if (values.length > 4 || values.some((value) => value === undefined)) return undefined;
      const [top, right = top, bottom = top, left = right] = values as number[];
      Object.assign(sides, { top, right, bottom, left });
    } else if (declaration.property.startsWith('padding-')) {
      const side = declaration.property.slice('padding-'.length) as keyof Sides;
      if (!SIDES.includes(side)) continue;
      const value = pixels(declaration.value);
      if (value === undefined) return undefined;
      sides[side] = value;
    }
  }
  return sides;
}

function hasPadding(sides: Sides): boolean {
  return SIDES.some((side) => sides[side] > 0);
}

/** The background color the declarations (or a `bgcolor` attribute) paint, if any. */
function backgroundColor(element: HtmlElement, declarations: readonly StyleDeclaration[]): string | undefined {
  const paint = lastOf(declarations, ['background', 'background-color']);
  const written = paint?.property === 'background' ? splitCssValue(paint.value).find((token) => parseCssColor(token)) : paint?.value;
  return [written, getAttribute(element, 'bgcolor')].find((value) => value !== undefined && parseCssColor(value) && !/transparent/i.test(value));
}

function endTagStart(element: HtmlElement): number | undefined {
  return (element as { sourceCodeLocation?: { endTag?: { startOffset: number } } | null }).sourceCodeLocation?.endTag?.startOffset;
}

/** Why the link's content is not text a padded-link button can hold, or undefined when it is. */
function contentProblem(link: HtmlElement): string | undefined {
  let text = '';
  const stack = [...childrenOf(link)];
  while (stack.length > 0) {
    const node = stack.pop();
    if (!node) break;
    if (isText(node)) text += node.value;
    else if (isElement(node)) {
      if (!PHRASING.has(node.tagName)) return `the link holds <${node.tagName}>: a padded-link button is text only`;
      stack.push(...childrenOf(node));
    }
  }
  return text.trim() === '' ? 'the link has no text' : undefined;
}

function pt(px: number): string {
  return `${Number((px * 0.75).toFixed(2))}pt`;
}

/**
 * Word ignores padding on a link; the padded-link button's answer (Mark Robbins): `mso-padding-alt:0`,
 * an `<i>` whose letter-spacing gives the left padding and whose raised text the top and bottom, the text
 * raised by the bottom padding, and an `<i>` for the right padding, all in comments only Word reads.
 */
function linkButtonEdits(parsed: ParsedEmail, link: HtmlElement, padding: Sides): TextEdit[] | string {
  const style = appendStyleEdit(parsed.source, link, [{ property: 'mso-padding-alt', value: '0', important: false }]);
  if (!style) return 'its style attribute is not written literally';
  const start = (link as { sourceCodeLocation?: { startTag?: { endOffset: number } } | null }).sourceCodeLocation?.startTag?.endOffset;
  const end = endTagStart(link);
  if (start === undefined || end === undefined) return 'its start or end tag is not written in the source';
  const raise = padding.top + padding.bottom > 0 ? `;mso-text-raise:${pt(padding.top + padding.bottom)}` : '';
  const left = `<i style="letter-spacing:${padding.left}px;mso-font-width:-100%${raise}">&nbsp;</i>`;
  const right = padding.right > 0 ? `<i style="letter-spacing:${padding.right}px;mso-font-width:-100%">&nbsp;</i>` : '';
  return [
    style,
    { start, end: start, text: `<!--[if mso]>${left}<span style="mso-text-raise:${pt(padding.bottom)}"><![endif]-->` },
    { start: end, end, text: `<!--[if mso]></span>${right}<![endif]-->` },
  ];
}

interface ButtonScan {
  parsed: ParsedEmail;
  report: ReportContext;
  surroundings: VmlSurroundings;
}

function declarationsOf(scan: ButtonScan, element: HtmlElement): StyleDeclaration[] | undefined {
  return appliedDeclarations(scan.parsed, scan.report.styles.cascade.matches.get(element), element);
}

function alreadyBulletproof(scan: ButtonScan, element: HtmlElement): boolean {
  if (inlineDeclarations(scan.parsed, element).some((declaration) => declaration.property === 'mso-padding-alt')) return true;
  return scan.parsed.msoConditionals.some(
    (conditional) => conditional.comment.parentNode === element && /mso-text-raise|mso-font-width/i.test(conditional.content),
  );
}

/** A cell painted as a button around a sole padded link: Word gets the link's padding as the cell's `mso-padding-alt`. */
function cellButton(scan: ButtonScan, link: HtmlElement, padding: Sides): FixCandidate | undefined {
  const cell = link.parentNode;
  if (!cell || !isElement(cell) || (cell.tagName !== 'td' && cell.tagName !== 'th') || alreadyBulletproof(scan, cell)) return undefined;
  const others = childrenOf(cell).filter((node) => node !== link && (isElement(node) || (isText(node) && node.value.trim() !== '')));
  const declarations = declarationsOf(scan, cell);
  if (others.length > 0 || !declarations || !backgroundColor(cell, declarations)) return undefined;
  const own = paddingOf(declarations);
  if (!own || hasPadding(own)) return undefined;
  const value = SIDES.map((side) => `${padding[side]}px`).join(' ');
  const edit = appendStyleEdit(scan.parsed.source, cell, [{ property: 'mso-padding-alt', value, important: false }]);
  if (!edit) return undefined;
  return {
    rule: 'bulletproof-button',
    line: elementLine(cell),
    edits: [edit],
    description: `mso-padding-alt: ${value} on the button's <${cell.tagName}>: Word ignores the padding of the link inside it`,
  };
}

function linkButton(scan: ButtonScan, link: HtmlElement): FixCandidate | FixRefusal | undefined {
  const line = elementLine(link);
  const declarations = declarationsOf(scan, link);
  if (!declarations) return undefined;
  if (!lastOf(declarations, ['padding', 'padding-top', 'padding-right', 'padding-bottom', 'padding-left'])) return undefined;
  const padding = paddingOf(declarations);
  if (!backgroundColor(link, declarations)) return padding && hasPadding(padding) ? cellButton(scan, link, padding) : undefined;
  if (!padding) return { rule: 'bulletproof-button', line, reason: 'its padding is not in pixels' };
  if (!hasPadding(padding)) return undefined;
  const problem = contentProblem(link);
  if (problem) return { rule: 'bulletproof-button', line, reason: problem };
  const edits = linkButtonEdits(scan.parsed, link, padding);
  if (typeof edits === 'string') return { rule: 'bulletproof-button', line, reason: edits };
  return {
    rule: 'bulletproof-button',
    line,
    edits,
    description: 'a padded-link button for Word: mso-padding-alt, letter-spacing and mso-text-raise in place of the padding it ignores',
  };
}

/**
 * Buttons made bulletproof for Outlook's Word engine, which ignores padding on links: a link with a
 * background color and padding in pixels gets the padded-link button's Word-only markup (preferred over a
 * VML `v:roundrect`: one link, its text as written); a link with padding alone in a cell painted as the
 * button gets the padding as the cell's `mso-padding-alt`. Links that hold images or blocks, or whose
 * padding is not in pixels, are refused; links inside VML or already bulletproof are left alone.
 */
export const bulletproofButton: FixRule = {
  id: 'bulletproof-button',
  tier: 'layout',
  resolves: [],
  helps: ['outlook-windows-legacy'],
  find({ parsed, report }) {
    const candidates: FixCandidate[] = [];
    const refusals: FixRefusal[] = [];
    const scan: ButtonScan = { parsed, report, surroundings: vmlSurroundings(parsed) };
    for (const link of parsed.elementsByTag.get('a') ?? []) {
      if (!hasAttribute(link, 'href') || !inBody(link) || meetsVml(link, scan.surroundings) || alreadyBulletproof(scan, link)) continue;
      const outcome = linkButton(scan, link);
      if (!outcome) continue;
      if ('reason' in outcome) refusals.push(outcome);
      else candidates.push(outcome);
    }
    return { candidates, refusals };
  },
};
