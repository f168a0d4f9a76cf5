import { findSourceFile, sourceDirectory, type SourceFiles } from '@mailproof/engine/compile';

/** Where a line of the expanded document came from. `siteLine` is the line in the email itself (the include's, for included lines). */
export interface LineOrigin {
  file: string;
  line: number;
  siteLine: number;
}

export interface IncludeProblem {
  message: string;
  /** Line in the email (the outermost include's line for problems inside included files). */
  line: number;
}

export interface ExpandedMjml {
  mjml: string;
  /** Origin of each line of `mjml` (index 0 is line 1). */
  origins: LineOrigin[];
  /** Includes that could not be resolved; MJML itself would report them as validation problems. */
  problems: IncludeProblem[];
}

/** The email itself, in origins and messages. */
export const EMAIL_FILE = '';
const MAX_INCLUDE_DEPTH = 10;
/** Includes may repeat a file (a diamond of includes doubles per level); the expansion stops past this. */
const MAX_EXPANDED_CHARACTERS = 4_000_000;
const INCLUDE_TAG = /<mj-include\b((?:[^>"']|"[^"]*"|'[^']*')*?)\s*(?:\/>|>\s*<\/mj-include\s*>|>)/gi;
const COMMENT = /<!--[\s\S]*?-->/g;

/**
 * Replaces every `<mj-include>` by the file it names, read from `files` (never from disk), as MJML 5
 * does with includes on: an MJML document contributes its `<mj-body>` children in place and its
 * `<mj-head>` children to the email's head; a fragment goes in place; `type="css"` becomes an
 * `<mj-style>` in the head (`css-inline="inline"` → `inline="inline"`), `type="html"` an `<mj-raw>`.
 * Paths are relative to the including file's folder. Every output line keeps its origin, so MJML's
 * validation lines can be reported in the author's own files.
 */
export function expandMjmlIncludes(source: string, files: SourceFiles): ExpandedMjml {
  const body = new MappedText();
  const head = new MappedText();
  const problems: IncludeProblem[] = [];
  const expander = { files, head, problems };
  expandInto(expander, body, { file: EMAIL_FILE, text: source, startLine: 1, siteLine: undefined, depth: 0, stack: [] });
  if (head.text.length > 0) insertHead(body, head, source);
  return { mjml: body.text, origins: body.origins, problems };
}

interface Expander {
  files: SourceFiles;
  head: MappedText;
  problems: IncludeProblem[];
}

interface Part {
  file: string;
  text: string;
  startLine: number;
  /** Line of the outermost include in the email; undefined for the email's own text. */
  siteLine: number | undefined;
  depth: number;
  stack: string[];
}

function expandInto(expander: Expander, out: MappedText, part: Part): void {
  const comments = [...part.text.matchAll(COMMENT)].map((match) => [match.index!, match.index! + match[0].length] as const);
  const inComment = (index: number) => comments.some(([start, end]) => index >= start && index < end);
  let cursor = 0;
  let line = part.startLine;
  for (const match of part.text.matchAll(INCLUDE_TAG)) {
    const index = match.index!;
    if (inComment(index)) continue;
    const before = part.text.slice(cursor, index);
    out.append(before, origin(part, line));
    line += countNewlines(before);
    const site = part.siteLine ?? line;
    includeOne(expander, out, part, parseAttributes(match[1]), line, site);
    line += countNewlines(match[0]);
    cursor = index + match[0].length;
    if (out.text.length > MAX_EXPANDED_CHARACTERS) throw new Error(`<mj-include> expands the email past ${MAX_EXPANDED_CHARACTERS} characters`);
  }
  out.append(part.text.slice(cursor), origin(part, line));
}

function includeOne(expander: Expander, out: MappedText, part: Part, attributes: Record<string, string>, line: number, siteLine: number): void {
  const path = attributes.path ?? '';
  const where = part.file === EMAIL_FILE ? '' : `${part.file} line ${line}: `;
  const type = attributes.type === 'css' || attributes.type === 'html' ? attributes.type : 'mjml';
  const suffixes = type === 'mjml' ? ['', '.mjml'] : [''];
  const key = findSourceFile(expander.files, sourceDirectory(part.file), path, suffixes);
  if (key === undefined) {
    expander.problems.push({
      message: `${where}<mj-include path="${path}">: the file is not among the files sent with the email; it was left out`,
      line: siteLine,
    });
    return;
  }
  if (part.stack.includes(key) || part.depth >= MAX_INCLUDE_DEPTH) {
    const reason = part.stack.includes(key) ? 'includes itself (circular inclusion)' : `nests more than ${MAX_INCLUDE_DEPTH} includes deep`;
    expander.problems.push({ message: `${where}<mj-include path="${path}"> ${reason}; it was left out`, line: siteLine });
    return;
  }
  const content = expander.files[key];
  const child = (text: string, startLine: number): Part => ({ file: key, text, startLine, siteLine, depth: part.depth + 1, stack: [...part.stack, key] });
  const at = origin(part, line, siteLine);
  if (type === 'html') {
    out.append('<mj-raw>', at);
    out.append(content, { file: key, line: 1, siteLine });
    out.append('</mj-raw>', at);
    return;
  }
  if (type === 'css') {
    expander.head.append(attributes['css-inline'] === 'inline' ? '<mj-style inline="inline">' : '<mj-style>', at);
    expander.head.append(content, { file: key, line: 1, siteLine });
    expander.head.append('</mj-style>\n', at);
    return;
  }
  if (!/<mjml[\s>]/i.test(content)) {
    expandInto(expander, out, child(content, 1));
    return;
  }
  const bodyInner = innerOf(content, 'mj-body');
  if (bodyInner) expandInto(expander, out, child(bodyInner.text, bodyInner.startLine));
  const headInner = innerOf(content, 'mj-head');
  if (headInner) expandInto(expander, expander.head, child(headInner.text, headInner.startLine));
}

function origin(part: Part, line: number, siteLine?: number): LineOrigin {
  return { file: part.file, line, siteLine: siteLine ?? part.siteLine ?? line };
}

/** The text between `<tag …>` and `</tag>`, with the line it starts on. */
function innerOf(text: string, tag: string): { text: string; startLine: number } | undefined {
  const open = new RegExp(`<${tag}\\b(?:[^>"']|"[^"]*"|'[^']*')*>`, 'i').exec(text);
  if (!open) return undefined;
  const start = open.index + open[0].length;
  const close = text.toLowerCase().lastIndexOf(`</${tag}>`);
  if (close < start) return undefined;
  return { text: text.slice(start, close), startLine: 1 + countNewlines(text.slice(0, start)) };
}

/** Puts the collected head content before the email's `</mj-head>`, or in a new `<mj-head>` after `<mjml>`. */
function insertHead(body: MappedText, head: MappedText, source: string): void {
  const closeHead = body.text.search(/<\/mj-head\s*>/i);
  if (closeHead >= 0) {
    body.insertLines(closeHead, head);
    return;
  }
  const openRoot = /<mjml\b(?:[^>"']|"[^"]*"|'[^']*')*>/i.exec(body.text);
  if (!openRoot) return;
  const rootLine = 1 + countNewlines(source.slice(0, source.search(/<mjml\b/i)));
  const wrapped = new MappedText();
  wrapped.append('<mj-head>\n', { file: EMAIL_FILE, line: rootLine, siteLine: rootLine });
  wrapped.appendMapped(head);
  wrapped.append('\n</mj-head>', { file: EMAIL_FILE, line: rootLine, siteLine: rootLine });
  body.insertLines(openRoot.index + openRoot[0].length, wrapped);
}

function parseAttributes(text: string): Record<string, string> {
  const attributes: Record<string, string> = {};
  for (const match of text.matchAll(/([\w:-]+)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+))/g)) {
    attributes[match[1].toLowerCase()] = match[2] ?? match[3] ?? match[4] ?? '';
  }
  return attributes;
}

function countNewlines(text: string): number {
  let count = 0;
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) count++;
  return count;
}

/** Text built from pieces, remembering where each of its lines came from. */
class MappedText {
  text = '';
  origins: LineOrigin[] = [];

  append(chunk: string, at: LineOrigin): void {
    if (this.origins.length === 0) this.origins.push(at);
    let line = at.line;
    for (let i = 0; i < chunk.length; i++) {
      if (chunk.charCodeAt(i) === 10) this.origins.push({ ...at, line: ++line });
    }
    this.text += chunk;
  }

  appendMapped(other: MappedText): void {
    if (other.origins.length === 0) return;
    if (this.origins.length === 0) this.origins.push(other.origins[0]);
    this.origins.push(...other.origins.slice(1));
    this.text += other.text;
  }

  /** Inserts `other` on lines of its own at `index` (a newline before and after it). */
  insertLines(index: number, other: MappedText): void {
    const lineIndex = countNewlines(this.text.slice(0, index));
    this.text = `${this.text.slice(0, index)}\n${other.text}\n${this.text.slice(index)}`;
    const otherOrigins = other.origins.length > 0 ? other.origins : [this.origins[lineIndex]];
    this.origins.splice(lineIndex + 1, 0, ...otherOrigins, this.origins[lineIndex]);
  }
}

/**
 * Body components that take `css-class` and put it on the element they render; or a plain HTML start tag
 * (inside `<mj-text>`, `<mj-button>`, `<mj-table>`, `<mj-raw>`, whose content MJML copies as written).
 */
const MARKABLE_TAG =
  /<(mj-(?:body|section|column|group|wrapper|hero|text|button|image|divider|spacer|table|social|navbar))(?=[\s/>])((?:[^>"']|"[^"]*"|'[^']*')*?)(\/?)>|<([a-z][a-z0-9]*)(?=[\s/>])/gi;

/**
 * Gives each body component written in the email itself a `css-class` marker with its source position,
 * and each HTML element in their content a marker attribute (source-markers.ts), so findings on the HTML
 * MJML renders point back to them. Tags from included files are not marked (their findings fall to the
 * enclosing marked element). Lines do not move.
 */
export function markMjmlSource(
  expanded: ExpandedMjml,
  sourceMarkerClass: (line: number, column: number) => string,
  sourceMarkerAttribute: (line: number, column: number) => string,
): string {
  const text = expanded.mjml;
  const bodyStart = text.search(/<mj-body[\s>]/i);
  if (bodyStart < 0) return text;
  const comments = [...text.matchAll(COMMENT)].map((match) => [match.index!, match.index! + match[0].length] as const);
  let out = '';
  let cursor = 0;
  let line = 1;
  let lineStart = 0;
  let scanned = 0;
  for (const match of text.matchAll(MARKABLE_TAG)) {
    const index = match.index!;
    if (index < bodyStart || comments.some(([start, end]) => index >= start && index < end)) continue;
    for (; scanned < index; scanned++) {
      if (text.charCodeAt(scanned) === 10) {
        line++;
        lineStart = scanned + 1;
      }
    }
    const origin = expanded.origins[line - 1];
    if (!origin || origin.file !== EMAIL_FILE) continue;
    const column = index - lineStart + 1;
    const [, name, attributes, selfClosing, htmlTag] = match;
    if (htmlTag) {
      out += `${text.slice(cursor, index)}<${htmlTag}${sourceMarkerAttribute(origin.line, column)}`;
      cursor = index + 1 + htmlTag.length;
      continue;
    }
    const token = sourceMarkerClass(origin.line, column);
    const withClass = /\bcss-class\s*=\s*"/i.test(attributes)
      ? attributes.replace(/\bcss-class\s*=\s*"([^"]*)"/i, (_whole, value: string) => `css-class="${value ? `${value} ` : ''}${token}"`)
      : `${attributes} css-class="${token}"`;
    out += `${text.slice(cursor, index)}<${name}${withClass}${selfClosing}>`;
    cursor = index + match[0].length;
  }
  return out + text.slice(cursor);
}
