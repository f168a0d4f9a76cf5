/**
 * Markup that only Outlook's Word engine reads: the contents of `<!--[if mso]>` blocks (and other
 * conditions naming mso or IE) and the VML inside them. Tags are balanced across blocks in source order,
 * because a "ghost table" opens in one block and closes in a later one.
 *
 * Null when the email has neither conditional comments nor VML: the report does not apply.
 */
import { getAttribute, type HtmlComment } from '../parse/dom';
import { parseCssColor } from './context/color-utils';
import type { ReportContext } from './context/report-context';
import { nodeOffset, type ReportDocument } from './context/report-document';
import { sortIssues, type ReportIssue } from './context/report-issue';
import { shorten } from './context/text-utils';

export interface VmlReport {
  /** Downlevel-hidden conditional blocks that target Outlook (mso / IE conditions). */
  conditionalBlocks: number;
  vmlElements: number;
  namespaces: { vml: boolean; office: boolean };
  issues: ReportIssue[];
}

interface Tag {
  name: string;
  closing: boolean;
  selfClosing: boolean;
  attrs: Map<string, string>;
  /** Absolute source offset of '<', or -1. */
  offset: number;
  raw: string;
}

/** Receives what tokenize finds in a conditional block. */
interface TagSink {
  tag(tag: Tag): void;
  text(text: string, offset: number): void;
}

const VOID_TAGS = new Set(['br', 'img', 'hr', 'meta', 'link', 'input', 'col', 'area', 'base', 'wbr', 'param', 'source']);
/** Tags whose balance Outlook layouts depend on; others (p, span, font) are left to the HTML parser. */
const TRACKED_HTML_TAGS = new Set(['table', 'tr', 'td', 'th', 'tbody', 'thead', 'tfoot', 'div', 'center']);
const GHOST_TABLE_TAGS = new Set(['table', 'tr', 'td', 'th', 'tbody', 'thead', 'tfoot']);
const SHAPE_TAGS = new Set(['v:rect', 'v:roundrect', 'v:oval', 'v:shape', 'v:line', 'v:polyline', 'v:arc', 'v:curve']);
const DIMENSION_PROPERTIES = new Set(['width', 'height', 'top', 'left', 'margin-top', 'margin-left', 'min-width', 'min-height']);
const MAX_TAG_SCAN = 4000;

function isTracked(name: string): boolean {
  return TRACKED_HTML_TAGS.has(name) || name.startsWith('v:') || name.startsWith('o:') || name.startsWith('w:');
}

/** Tokenises the tags of a conditional block; text between tags is reported through `sink.text`. */
function tokenize(content: string, baseOffset: number, sink: TagSink): void {
  let i = 0;
  let textStart = 0;
  while (i < content.length) {
    if (content[i] !== '<') {
      i++;
      continue;
    }
    if (i > textStart) sink.text(content.slice(textStart, i), baseOffset >= 0 ? baseOffset + textStart : -1);
    const next = content[i + 1];
    if (next === '!' || next === '?') {
      const end = content.indexOf('>', i);
      i = end === -1 ? content.length : end + 1;
      textStart = i;
      continue;
    }
    const closing = next === '/';
    let cursor = closing ? i + 2 : i + 1;
    const nameStart = cursor;
    while (cursor < content.length && /[A-Za-z0-9:_-]/.test(content[cursor])) cursor++;
    const name = content.slice(nameStart, cursor).toLowerCase();
    if (!name) {
      i++;
      continue;
    }
    // Attributes up to the closing '>', honoring quotes; bounded so a stray '<' cannot scan forever.
    const attrs = new Map<string, string>();
    let selfClosing = false;
    const limit = Math.min(content.length, cursor + MAX_TAG_SCAN);
    while (cursor < limit && content[cursor] !== '>') {
      const char = content[cursor];
      if (char === '/' && content[cursor + 1] === '>') {
        selfClosing = true;
        cursor++;
        continue;
      }
      if (/[\s/]/.test(char)) {
        cursor++;
        continue;
      }
      const attrStart = cursor;
      while (cursor < limit && !/[\s=>/]/.test(content[cursor])) cursor++;
      const attrName = content.slice(attrStart, cursor).toLowerCase();
      let value = '';
      if (content[cursor] === '=') {
        cursor++;
        const quote = content[cursor];
        if (quote === '"' || quote === "'") {
          const close = content.slice(cursor + 1, limit).indexOf(quote);
          const end = close === -1 ? limit : cursor + 1 + close;
          value = content.slice(cursor + 1, end);
          cursor = end + 1;
        } else {
          const valueStart = cursor;
          while (cursor < limit && !/[\s>]/.test(content[cursor])) cursor++;
          value = content.slice(valueStart, cursor);
        }
      }
      if (attrName && !attrs.has(attrName)) attrs.set(attrName, value);
    }
    const end = Math.min(cursor, content.length - 1);
    sink.tag({ name, closing, selfClosing, attrs, offset: baseOffset >= 0 ? baseOffset + i : -1, raw: content.slice(i, end + 1) });
    i = end + 1;
    textStart = i;
  }
  if (textStart < content.length) sink.text(content.slice(textStart), baseOffset >= 0 ? baseOffset + textStart : -1);
}

/** A VML length: a number with an optional unit. "px", "" or "NaNpx" are not. */
export function isValidVmlLength(value: string): boolean {
  const trimmed = value.trim().toLowerCase();
  if (trimmed.length > 40) return false;
  return /^-?(?:\d+|\d*\.\d+)(?:px|pt|in|cm|mm|pc|em|ex|%)?$/.test(trimmed) || trimmed === 'auto';
}

/** Splits a VML `style` attribute into declarations (a linear scan; VML styles are simple). */
function styleDeclarations(style: string): Array<{ property: string; value: string }> {
  const declarations: Array<{ property: string; value: string }> = [];
  for (const chunk of style.split(';')) {
    const colon = chunk.indexOf(':');
    if (colon <= 0) continue;
    const property = chunk.slice(0, colon).trim().toLowerCase();
    const value = chunk
      .slice(colon + 1)
      .replace(/!\s*important\s*$/i, '')
      .trim();
    if (property && value) declarations.push({ property, value });
  }
  return declarations;
}

/**
 * The Outlook conditional blocks read in source order: their tags balanced across blocks (a ghost table
 * opens in one and closes in a later one), the VML and Office elements in them, and the issues found.
 */
class ConditionalBlockScan implements TagSink {
  readonly issues: ReportIssue[] = [];
  /** Blocks whose condition targets Outlook (mso / IE). */
  conditionalBlocks = 0;
  vmlElements = 0;
  pixelsPerInch = false;
  usesOffice = false;
  /** "<!--[if !mso]><!-->" openers minus "<!--<![endif]-->" closers. */
  revealedOpen = 0;
  /** Tracked tags opened and not yet closed, outermost first. */
  private readonly stack: Tag[] = [];
  private shapeDepth = 0;
  private textboxDepth = 0;

  constructor(private readonly doc: ReportDocument) {}

  comment(comment: HtmlComment): void {
    const data = comment.data;
    const trimmed = data.trimStart();
    const commentOffset = nodeOffset(comment);
    const dataOffset = commentOffset >= 0 ? commentOffset + 4 + (data.length - trimmed.length) : -1;
    if (trimmed.slice(0, 3).toLowerCase() === '[if') {
      const conditionEnd = trimmed.indexOf(']>');
      if (conditionEnd === -1) return;
      const condition = trimmed.slice(3, conditionEnd).toLowerCase();
      const afterCondition = trimmed.slice(conditionEnd + 2);
      // "<!--[if !mso]><!-->" reveals the following markup to other clients; it is closed by "<!--<![endif]-->".
      if ((afterCondition.trim().startsWith('<!') && !afterCondition.includes('<![endif]')) || afterCondition.trim() === '') {
        this.revealedOpen++;
        return;
      }
      if (!condition.includes('mso') && !/\bie\b/.test(condition)) return;
      if (condition.includes('!mso') || condition.includes('not mso')) return;
      this.conditionalBlocks++;
      const endifIndex = afterCondition.lastIndexOf('<![endif]');
      if (endifIndex === -1) {
        this.issues.push({
          rule: 'unterminated-conditional',
          severity: 'error',
          message: 'This Outlook conditional comment has no <![endif]; Outlook treats the rest of the email as conditional.',
          ...this.doc.positionAt(commentOffset),
        });
      }
      const content = endifIndex === -1 ? afterCondition : afterCondition.slice(0, endifIndex);
      const contentOffset = dataOffset >= 0 ? dataOffset + conditionEnd + 2 : -1;
      tokenize(content, contentOffset, this);
    } else if (trimmed.startsWith('<![endif]')) {
      this.revealedOpen--;
    }
  }

  tag(tag: Tag): void {
    if (tag.name === 'o:pixelsperinch') this.pixelsPerInch = true;
    if (tag.name.startsWith('v:')) this.vmlElements += tag.closing ? 0 : 1;
    if (tag.name.startsWith('o:') || tag.name.startsWith('w:')) this.usesOffice = true;
    if (!tag.closing) checkVmlAttributes(tag, this.issues, this.doc);
    if (VOID_TAGS.has(tag.name) || !isTracked(tag.name)) return;
    if (tag.closing) {
      this.close(tag);
      return;
    }
    if (tag.selfClosing) return;
    if (SHAPE_TAGS.has(tag.name)) this.shapeDepth++;
    if (tag.name === 'v:textbox') this.textboxDepth++;
    this.stack.push(tag);
  }

  text(text: string, offset: number): void {
    if (this.shapeDepth > 0 && this.textboxDepth === 0 && text.trim().length > 0) {
      this.issues.push({
        rule: 'vml-unrendered-text',
        severity: 'warning',
        message: `Text "${shorten(text.trim(), 40)}" sits directly inside a VML shape; Outlook only renders shape text inside <v:textbox>.`,
        ...this.doc.positionAt(offset),
      });
    }
  }

  /** Reports the tags still open once every block is read. */
  reportStillOpen(): void {
    for (const unclosed of this.stack) this.reportUnclosed(unclosed);
  }

  /** A closing tag closes the latest open tag of its name, and reports the ones opened after it as unclosed. */
  private close(tag: Tag): void {
    if (SHAPE_TAGS.has(tag.name)) this.shapeDepth = Math.max(0, this.shapeDepth - 1);
    if (tag.name === 'v:textbox') this.textboxDepth = Math.max(0, this.textboxDepth - 1);
    const { stack } = this;
    let openIndex = -1;
    for (let i = stack.length - 1; i >= 0; i--) {
      if (stack[i].name === tag.name) {
        openIndex = i;
        break;
      }
    }
    if (openIndex === -1) {
      this.issues.push({
        rule: GHOST_TABLE_TAGS.has(tag.name) ? 'ghost-table-unbalanced' : 'vml-unbalanced-tag',
        severity: 'error',
        message: `</${tag.name}> in an Outlook conditional block closes nothing that was opened in one; Outlook's layout will break here.`,
        ...this.doc.positionAt(tag.offset),
        element: shorten(tag.raw, 120),
      });
      return;
    }
    for (const unclosed of stack.splice(openIndex).slice(1)) this.reportUnclosed(unclosed);
  }

  private reportUnclosed(tag: Tag): void {
    const ghost = GHOST_TABLE_TAGS.has(tag.name);
    this.issues.push({
      rule: ghost ? 'ghost-table-unclosed' : tag.name.includes(':') ? 'vml-unbalanced-tag' : 'mso-unbalanced-tag',
      severity: ghost || tag.name.includes(':') ? 'error' : 'warning',
      message: ghost
        ? `<${tag.name}> opened in an Outlook conditional block is never closed in one; Outlook nests the rest of the email inside it.`
        : `<${tag.name}> opened in an Outlook conditional block is never closed.`,
      ...this.doc.positionAt(tag.offset),
      element: shorten(tag.raw, 120),
    });
  }
}

/** Whether <html> declares the VML and Office namespaces, and the issues when the email needs one it lacks. */
function namespaceFindings(doc: ReportDocument, scan: ConditionalBlockScan, totalVml: number, issues: ReportIssue[]): VmlReport['namespaces'] {
  const htmlElement = doc.htmlElement;
  const namespaces = {
    vml: htmlElement ? getAttribute(htmlElement, 'xmlns:v') !== undefined : false,
    office: htmlElement ? getAttribute(htmlElement, 'xmlns:o') !== undefined : false,
  };
  if (totalVml > 0 && !namespaces.vml) {
    issues.push({
      rule: 'missing-vml-namespace',
      severity: 'warning',
      message: 'The email uses VML but <html> does not declare xmlns:v="urn:schemas-microsoft-com:vml"; some Outlook versions ignore the shapes without it.',
      ...(htmlElement ? doc.position(htmlElement) : {}),
    });
  }
  if ((scan.usesOffice || scan.pixelsPerInch) && !namespaces.office) {
    issues.push({
      rule: 'missing-office-namespace',
      severity: 'warning',
      message: 'The email uses o: elements but <html> does not declare xmlns:o="urn:schemas-microsoft-com:office:office".',
      ...(htmlElement ? doc.position(htmlElement) : {}),
    });
  }
  return namespaces;
}

export function buildVmlReport(context: ReportContext): VmlReport | null {
  const { doc } = context;
  const scan = new ConditionalBlockScan(doc);
  for (const comment of doc.parsed.comments) scan.comment(comment);
  const vmlOutside = doc.parsed.elements.filter((element) => element.tagName.startsWith('v:'));
  if (scan.conditionalBlocks === 0 && vmlOutside.length === 0 && scan.revealedOpen === 0) return null;

  scan.reportStillOpen();
  const { issues, revealedOpen } = scan;
  if (revealedOpen !== 0) {
    issues.push({
      rule: 'unbalanced-conditional',
      severity: 'warning',
      message:
        revealedOpen > 0
          ? `${revealedOpen} "<!--[if !mso]><!-->" opener(s) have no matching "<!--<![endif]-->".`
          : `${-revealedOpen} "<!--<![endif]-->" closer(s) have no matching opener.`,
    });
  }
  for (const element of vmlOutside.slice(0, 20)) {
    issues.push({
      rule: 'vml-outside-conditional',
      severity: 'warning',
      message: `<${element.tagName}> is outside an <!--[if mso]> block; clients other than Outlook may show its text or fallback twice.`,
      ...doc.at(element),
    });
  }
  const totalVml = scan.vmlElements + vmlOutside.length;
  const namespaces = namespaceFindings(doc, scan, totalVml, issues);
  if (totalVml > 0 && !scan.pixelsPerInch) {
    issues.push({
      rule: 'missing-pixels-per-inch',
      severity: 'info',
      message: 'VML is sized in pixels but there is no <o:PixelsPerInch>96</o:PixelsPerInch>; Outlook on 120 DPI screens scales shapes and images out of line.',
    });
  }
  return { conditionalBlocks: scan.conditionalBlocks, vmlElements: totalVml, namespaces, issues: sortIssues(issues) };
}

function checkVmlAttributes(tag: Tag, issues: ReportIssue[], doc: ReportDocument): void {
  if (!tag.name.startsWith('v:')) return;
  const element = shorten(tag.raw, 120);
  const style = tag.attrs.get('style');
  if (style !== undefined) {
    for (const declaration of styleDeclarations(style)) {
      if (DIMENSION_PROPERTIES.has(declaration.property) && !isValidVmlLength(declaration.value)) {
        issues.push({
          rule: 'vml-invalid-dimension',
          severity: 'error',
          message: `${declaration.property}:${declaration.value} on <${tag.name}> is not a valid length; Outlook drops or collapses the shape.`,
          ...doc.positionAt(tag.offset),
          element,
        });
      }
    }
    // "width:;" or "height:px" leave an empty or unit-only value the declaration parser skips.
    for (const part of style.split(';')) {
      const [property, value] = part.split(':').map((piece) => piece?.trim().toLowerCase());
      if (property && DIMENSION_PROPERTIES.has(property) && (value === undefined || value === '')) {
        issues.push({
          rule: 'vml-invalid-dimension',
          severity: 'error',
          message: `${property} on <${tag.name}> has no value.`,
          ...doc.positionAt(tag.offset),
          element,
        });
      }
    }
  }
  for (const attribute of ['width', 'height']) {
    const value = tag.attrs.get(attribute);
    if (value !== undefined && !isValidVmlLength(value)) {
      issues.push({
        rule: 'vml-invalid-dimension',
        severity: 'error',
        message: `${attribute}="${shorten(value, 20)}" on <${tag.name}> is not a valid length.`,
        ...doc.positionAt(tag.offset),
        element,
      });
    }
  }
  const arcsize = tag.attrs.get('arcsize');
  if (tag.name === 'v:roundrect' && arcsize !== undefined) {
    const trimmed = arcsize.trim();
    const amount = trimmed.endsWith('%')
      ? Number.parseFloat(trimmed)
      : trimmed.endsWith('f')
        ? (Number.parseFloat(trimmed) / 65536) * 100
        : Number.parseFloat(trimmed) * 100;
    if (!Number.isFinite(amount) || amount < 0 || amount > 100) {
      issues.push({
        rule: 'vml-arcsize-range',
        severity: 'warning',
        message: `arcsize="${shorten(arcsize, 20)}" is outside 0-100%; Outlook draws the corners wrongly.`,
        ...doc.positionAt(tag.offset),
        element,
      });
    }
  }
  for (const attribute of ['fillcolor', 'strokecolor', 'color']) {
    const value = tag.attrs.get(attribute);
    if (value !== undefined && value.trim() !== '' && value.trim().toLowerCase() !== 'none' && !parseCssColor(value)) {
      issues.push({
        rule: 'vml-invalid-color',
        severity: 'warning',
        message: `${attribute}="${shorten(value, 20)}" on <${tag.name}> is not a color Outlook understands.`,
        ...doc.positionAt(tag.offset),
        element,
      });
    }
  }
  const type = tag.attrs.get('type')?.toLowerCase();
  if ((tag.name === 'v:fill' && (type === 'tile' || type === 'frame')) || tag.name === 'v:image') {
    const src = tag.attrs.get('src');
    if (!src || src.trim() === '') {
      issues.push({
        rule: 'vml-missing-src',
        severity: 'error',
        message: `<${tag.name}> needs a src for its image; Outlook shows nothing.`,
        ...doc.positionAt(tag.offset),
        element,
      });
    }
  }
}
