import type { HtmlElement } from '../parse/dom';
import type { EmailStyleSheet } from '../parse/parse-email';
import type { TextEdit } from './fix-model';

interface Range {
  startOffset: number;
  endOffset: number;
}

interface ElementLocation extends Range {
  startLine: number;
  startTag?: Range;
  attrs?: Record<string, Range>;
}

function locationOf(element: HtmlElement): ElementLocation | undefined {
  return (element as { sourceCodeLocation?: ElementLocation | null }).sourceCodeLocation ?? undefined;
}

/** The element's start tag in the source (`<table …>`), or undefined for an element the parser implied. */
export function startTagRange(element: HtmlElement): Range | undefined {
  return locationOf(element)?.startTag;
}

/** 1-based line of the element's start tag; 0 when the parser implied it. */
export function elementLine(element: HtmlElement): number {
  return locationOf(element)?.startLine ?? 0;
}

/** An insertion of ` name="value"` at the end of the element's start tag (before `>` or `/>`). */
export function addAttributeEdit(source: string, element: HtmlElement, attribute: string): TextEdit | undefined {
  const tag = startTagRange(element);
  if (!tag || source[tag.endOffset - 1] !== '>') return undefined;
  let at = tag.endOffset - 1;
  if (source[at - 1] === '/') at--;
  const gap = /\s/.test(source[at - 1] ?? '') ? '' : ' ';
  return { start: at, end: at, text: `${gap}${attribute}${gap === '' ? ' ' : ''}` };
}

/**
 * Where an attribute's value is in the source, when it is written literally: quoted or not, and
 * without character references (the value the parser decoded equals the text). Undefined otherwise,
 * so that a fix never rewrites markup it would have to re-encode.
 */
export function attributeValueRange(source: string, element: HtmlElement, name: string, decoded: string): Range | undefined {
  const range = locationOf(element)?.attrs?.[name];
  if (!range) return undefined;
  const written = source.slice(range.startOffset, range.endOffset);
  const equals = written.indexOf('=');
  if (equals === -1) return undefined;
  let start = equals + 1;
  while (/\s/.test(written[start] ?? '')) start++;
  let end = written.length;
  if (written[start] === '"' || written[start] === "'") {
    if (written[end - 1] !== written[start]) return undefined;
    start++;
    end--;
  }
  if (written.slice(start, end) !== decoded) return undefined;
  return { startOffset: range.startOffset + start, endOffset: range.startOffset + end };
}

/** Where a `<style>` block's CSS text starts in the source (postcss offsets are relative to it). */
export function styleSheetOffset(sheet: EmailStyleSheet): number | undefined {
  return startTagRange(sheet.element)?.endOffset;
}
