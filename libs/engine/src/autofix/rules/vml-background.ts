import type { HtmlElement } from '../../parse/dom';
import { getAttribute, hasAttribute, isElement } from '../../parse/dom';
import type { ParsedEmail } from '../../parse/parse-email';
import { parseCssColor, splitCssValue } from '../../reports/context/color-utils';
import type { FixCandidate, FixRefusal, FixRule, TextEdit } from '../fix-model';
import { elementLine, startTagRange } from '../source-ranges';
import { StyleDeclaration, appliedDeclarations, inBody, lastOf, pixels } from './layout-css';

/** Elements a VML rectangle can fill: table cells, and blocks the Word engine lays out. */
const VML_HOSTS = new Set(['td', 'th', 'div']);
const VML_NAMESPACE = 'xmlns:v="urn:schemas-microsoft-com:vml"';
const URL = /url\(\s*(?:"([^"]*)"|'([^']*)'|([^)'"]*?))\s*\)/gi;

function endTagStart(element: HtmlElement): number | undefined {
  return (element as { sourceCodeLocation?: { endTag?: { startOffset: number } } | null }).sourceCodeLocation?.endTag?.startOffset;
}

/** Where a new VML background would meet VML the email has, or go where Word does not look. */
export interface VmlSurroundings {
  /** Elements holding a VML conditional (its shape covers everything in them), and those in `<!--[if !mso]><!-->` ranges. */
  covered: Set<HtmlElement>;
  /** Elements with VML somewhere inside them. */
  holding: Set<HtmlElement>;
}

export function vmlSurroundings(parsed: ParsedEmail): VmlSurroundings {
  const covered = new Set<HtmlElement>();
  const holding = new Set<HtmlElement>();
  for (const conditional of parsed.msoConditionals) {
    const parent = conditional.comment.parentNode;
    if (!/<v:/i.test(conditional.content) || !parent || !isElement(parent)) continue;
    covered.add(parent);
    for (let node: HtmlElement | null = parent; node; node = node.parentNode && isElement(node.parentNode) ? node.parentNode : null) holding.add(node);
  }
  for (const range of parsed.notMsoRanges) {
    const siblings = range.start.parentNode?.childNodes ?? [];
    const end = siblings.indexOf(range.end);
    for (let i = siblings.indexOf(range.start) + 1; i > 0 && i < end; i++) {
      const node = siblings[i];
      if (isElement(node)) covered.add(node);
    }
  }
  return { covered, holding };
}

/** Whether the element holds VML already, or sits inside an element whose shape covers it (or that Word never shows). */
export function meetsVml(element: HtmlElement, surroundings: VmlSurroundings): boolean {
  if (surroundings.holding.has(element)) return true;
  for (let node: HtmlElement | null = element; node; node = node.parentNode && isElement(node.parentNode) ? node.parentNode : null) {
    if (surroundings.covered.has(node)) return true;
  }
  return false;
}

interface Background {
  urls: string[];
  /** The background color a client without the image shows, as written. */
  color?: string;
  /** `background-size: cover` or `contain`. */
  size?: 'cover' | 'contain';
}

/** The background the element's own style (or `background` / `bgcolor` attributes) paints, or undefined when it paints no image. */
function backgroundOf(element: HtmlElement, declarations: readonly StyleDeclaration[]): Background | undefined {
  const image = lastOf(declarations, ['background', 'background-image']);
  const urls = image ? [...image.value.matchAll(URL)].map((match) => match[1] ?? match[2] ?? match[3]) : [];
  const attribute = getAttribute(element, 'background');
  if (urls.length === 0 && !(image && /^none$/i.test(image.value)) && attribute?.trim()) urls.push(attribute.trim());
  if (urls.length === 0) return undefined;
  const paint = lastOf(declarations, ['background', 'background-color']);
  const written = paint?.property === 'background' ? splitCssValue(paint.value).find((token) => parseCssColor(token)) : paint?.value;
  const color = [written, getAttribute(element, 'bgcolor')].find((value) => value !== undefined && parseCssColor(value) && !/transparent/i.test(value));
  const sizing = lastOf(declarations, ['background', 'background-size'])?.value.toLowerCase() ?? '';
  return { urls, color, size: /\bcover\b/.test(sizing) ? 'cover' : /\bcontain\b/.test(sizing) ? 'contain' : undefined };
}

/** The `<v:rect>` around the element's content, at its fixed size: Word's background image. */
function vmlMarkup(background: Background, width: number, height: number): { open: string; close: string } {
  const src = background.urls[0].replace(/&/g, '&amp;');
  // cover and contain: the image stretched over the shape, keeping its proportions, centered; otherwise tiled.
  const fill = background.size
    ? `type="frame" aspect="${background.size === 'cover' ? 'atleast' : 'atmost'}" origin="0.5,0.5" position="0.5,0.5"`
    : 'type="tile"';
  const color = background.color ? ` color="${background.color}"` : '';
  return {
    open:
      `<!--[if gte mso 9]><v:rect ${VML_NAMESPACE} fill="true" stroke="false" style="width:${width}px;height:${height}px;">` +
      `<v:fill ${fill} src="${src}"${color} /><v:textbox inset="0,0,0,0"><![endif]-->`,
    close: '<!--[if gte mso 9]></v:textbox></v:rect><![endif]-->',
  };
}

/**
 * The VML namespace on `<html>` when it lacks it. The edit rewrites the tag's last characters, so that it
 * overlaps (and waits for) the Office settings fix adding both namespaces at the same place: they are never
 * written twice.
 */
function namespaceEdit(parsed: ParsedEmail): TextEdit | undefined {
  const html = parsed.elementsByTag.get('html')?.[0];
  const tag = html ? startTagRange(html) : undefined;
  if (!html || !tag || hasAttribute(html, 'xmlns:v') || parsed.source[tag.endOffset - 1] !== '>') return undefined;
  const at = parsed.source[tag.endOffset - 2] === '/' ? tag.endOffset - 2 : tag.endOffset - 1;
  const before = parsed.source[at - 1];
  return { start: at - 1, end: tag.endOffset, text: `${before}${/\s/.test(before) ? '' : ' '}${VML_NAMESPACE}${parsed.source.slice(at, tag.endOffset)}` };
}

type HostOutcome = { edits: TextEdit[]; description: string } | { refusal: string } | undefined;

function fixHost(element: HtmlElement, declarations: readonly StyleDeclaration[] | undefined): HostOutcome {
  if (!declarations) return /url\(/i.test(getAttribute(element, 'style') ?? '') ? { refusal: 'a template tag hides part of its style attribute' } : undefined;
  const background = backgroundOf(element, declarations);
  if (!background) return undefined;
  if (background.urls.length > 1) return { refusal: 'several background images: VML fills a shape with one' };
  const width = pixels(getAttribute(element, 'width')) ?? pixels(lastOf(declarations, ['width'])?.value);
  const height = pixels(getAttribute(element, 'height')) ?? pixels(lastOf(declarations, ['height'])?.value);
  if (!width || !height)
    return { refusal: 'VML needs a fixed width and height in pixels (attributes or CSS); this element has none, so Outlook keeps showing no image' };
  const tag = startTagRange(element);
  const end = endTagStart(element);
  if (!tag || end === undefined) return { refusal: 'its start or end tag is not written in the source' };
  if (/["<>]/.test(background.urls[0])) return { refusal: 'its image URL cannot be written in an attribute as it is' };
  const markup = vmlMarkup(background, width, height);
  return {
    edits: [
      { start: tag.endOffset, end: tag.endOffset, text: markup.open },
      { start: end, end, text: markup.close },
    ],
    description: `a VML background (v:rect, ${width}x${height}px) for Outlook's Word engine on <${element.tagName}>`,
  };
}

/**
 * Background images for Outlook's Word engine, which ignores CSS backgrounds: an element with a CSS
 * background image (or a `background` attribute) and a fixed width and height in pixels gets its content
 * wrapped in a `<v:rect>` with a `<v:fill>` of that image, inside `<!--[if gte mso 9]>` comments that other
 * clients skip. Without fixed sizes it is refused: VML shapes need them.
 */
export const vmlBackground: FixRule = {
  id: 'vml-background',
  tier: 'layout',
  resolves: [],
  helps: ['outlook-windows-legacy'],
  find({ parsed, report }) {
    const candidates: FixCandidate[] = [];
    const refusals: FixRefusal[] = [];
    if (!report.styles.mayPaintImages()) return { candidates, refusals };
    const surroundings = vmlSurroundings(parsed);
    for (const element of parsed.elements) {
      if (!VML_HOSTS.has(element.tagName) || !inBody(element) || meetsVml(element, surroundings)) continue;
      const outcome = fixHost(element, appliedDeclarations(parsed, report.styles.cascade.matches.get(element), element));
      if (!outcome) continue;
      const line = elementLine(element);
      if ('refusal' in outcome) {
        refusals.push({ rule: this.id, line, reason: outcome.refusal });
        continue;
      }
      candidates.push({ rule: this.id, line, edits: outcome.edits, description: outcome.description });
      // Its shape covers what it holds: no second shape inside it.
      surroundings.covered.add(element);
    }
    const namespace = candidates.length > 0 ? namespaceEdit(parsed) : undefined;
    if (namespace) candidates[0].edits.unshift(namespace);
    return { candidates, refusals };
  },
};
