/**
 * Runs INSIDE the isolate (bundled with htmlparser2 into the Maizzle snapshot). Expands a Maizzle
 * template: layouts, built-in components, <if>/<each>/<switch>/<scope>/<raw>, <stack>/<push>,
 * <outlook>, and `{{ }}` expressions, which are JavaScript and are evaluated right here, inside the
 * sandbox. It never sees host objects: a JSON string comes in and a JSON string goes out.
 */
import { parseDocument } from 'htmlparser2';
import type { ChildNode, Element } from 'domhandler';
import { findSourceFile, sourceDirectory, SOURCE_FILES_LIMITS, type SourceFiles } from '@mailproof/engine/compile/source-files';
import { sourceMarkerAttribute } from '../source-markers';
import { BUILT_IN_COMPONENTS, BUILT_IN_LAYOUTS, builtInName } from './maizzle-built-ins';

interface ExpandRequest {
  template: string;
  page: Record<string, unknown>;
  /** Lines taken by the front matter, added to every reported line. */
  lineOffset: number;
  /** The project's layouts and components, keyed by path relative to the template's folder. */
  files?: SourceFiles;
}

/** Where Maizzle 5 looks for `<x-name>` components, under the project root. */
const COMPONENT_FOLDERS = ['components', 'layouts', 'emails', 'src/components', 'src/layouts', 'src/templates'];
/** Components and layouts nested inside each other, at most (a component that uses itself stops here). */
const MAX_FILE_DEPTH = 20;

interface Warning {
  message: string;
  line?: number;
}

type Scope = Record<string, unknown>;

class TemplateError extends Error {
  constructor(
    message: string,
    readonly line?: number,
    /** The message already names the project file it happened in. */
    readonly inNamedFile = false,
  ) {
    super(message);
  }
}

const VOID_ELEMENTS = new Set(['area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'param', 'source', 'track', 'wbr']);
const EXPRESSION = /(@?)\{\{\{([\s\S]+?)\}\}\}|(@?)\{\{([\s\S]+?)\}\}/g;
// `user.name`, `page.company.product`: unresolvable paths are left as written (ESP merge tags).
const SIMPLE_PATH = /^\s*[A-Za-z_$][\w$]*(\s*\.\s*[A-Za-z_$][\w$]*|\s*\[\s*\d+\s*\])*\s*$/;
// Handlebars/Mustache blocks ({{#each}}, {{/if}}, {{> partial}}, {{else}}) are not JavaScript.
const HANDLEBARS = /^\s*(?:[#/^>!&]|else\b)/;
const MAX_WARNINGS = 50;
const OUTLOOK_VERSIONS: Record<string, string> = {
  '2000': '9',
  '2002': '10',
  '2003': '11',
  '2007': '12',
  '2010': '14',
  '2013': '15',
  '2016': '16',
  '2019': '16',
};

class Expander {
  private readonly warnings: Warning[] = [];
  private readonly warned = new Set<string>();
  private readonly stacks = new Map<string, string[]>();
  private readonly compiled = new Map<string, (scope: Scope) => unknown>();
  private readonly stackToken = `\u0000stack:${Math.random().toString(36).slice(2)}:`;
  private lineStarts: number[] = [];
  private lineOffset = 0;
  private files: SourceFiles = {};
  /** The project files being rendered, innermost last (empty while rendering the template itself). */
  private readonly fileStack: string[] = [];

  expand(request: ExpandRequest): { html: string; warnings: Warning[] } {
    this.lineOffset = request.lineOffset;
    this.files = request.files ?? {};
    const scope: Scope = { page: request.page };
    const nodes = this.parse(request.template, true);
    const extendsElement = nodes.find((node): node is Element => node.type === 'tag' && node.name === 'extends');
    let html: string;
    if (extendsElement) {
      html = this.renderExtends(extendsElement, scope);
    } else {
      html = this.renderNodes(nodes, scope, undefined);
    }
    html = this.fillStacks(html);
    return { html, warnings: this.warnings };
  }

  // Positions are only tracked for the user's template; built-in sources report no line.
  private parse(source: string, isUserTemplate: boolean): ChildNode[] {
    if (isUserTemplate) {
      this.lineStarts = [0];
      for (let i = 0; i < source.length; i++) if (source.charCodeAt(i) === 10) this.lineStarts.push(i + 1);
    }
    const document = parseDocument(source, {
      withStartIndices: isUserTemplate,
      decodeEntities: false,
      recognizeSelfClosing: true,
      lowerCaseAttributeNames: false,
    });
    return document.children;
  }

  private lineOf(node: { startIndex: number | null } | undefined, extra = 0): number | undefined {
    // Lines of project files are named in the message instead (renderProjectFile).
    if (this.fileStack.length > 0) return undefined;
    if (!node || node.startIndex === null || node.startIndex === undefined) return undefined;
    const index = node.startIndex + extra;
    let low = 0;
    let high = this.lineStarts.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if (this.lineStarts[mid] <= index) low = mid;
      else high = mid - 1;
    }
    return low + 1 + this.lineOffset;
  }

  /** The template's own elements carry their position (source-markers.ts); project files' elements do not. */
  private sourceMarker(element: Element): string {
    if (this.fileStack.length > 0 || element.type !== 'tag' || element.startIndex === null || element.startIndex === undefined) return '';
    const line = this.lineOf(element)!;
    const column = element.startIndex - this.lineStarts[line - 1 - this.lineOffset] + 1;
    return sourceMarkerAttribute(line, column);
  }

  private warn(message: string, line?: number): void {
    if (this.warnings.length >= MAX_WARNINGS || this.warned.has(message)) return;
    this.warned.add(message);
    this.warnings.push(line ? { message, line } : { message });
  }

  private renderExtends(element: Element, scope: Scope): string {
    const src = element.attribs.src ?? '';
    const file = this.projectFileBySrc(src);
    const name = file === undefined ? builtInName(src, 'layouts') : undefined;
    if (file === undefined && !name) {
      throw new TemplateError(
        `Layout "${src}" cannot be resolved: it is not among the files sent with the email, and the built-in layouts are ${Object.keys(BUILT_IN_LAYOUTS)
          .map((n) => `"${n}"`)
          .join(', ')}`,
        this.lineOf(element),
      );
    }
    const blocks = new Map<string, string>();
    for (const child of element.children) {
      if (child.type === 'tag' && (child.name === 'block' || child.name === 'fill')) {
        blocks.set(child.attribs.name ?? 'template', this.renderNodes(child.children, scope, undefined));
      }
    }
    const content = blocks.get('template') ?? blocks.get('content') ?? this.renderNodes(element.children, scope, undefined);
    if (file !== undefined) return this.renderProjectFile(file, element, scope, { content, blocks });
    return this.renderNodes(this.parse(BUILT_IN_LAYOUTS[name!], false), scope, { content, blocks });
  }

  /**
   * `<extends src>` and `<component src>` name a path from the project root, which Mailproof does not
   * know: the path is tried from the current file's folder, then from each folder above it.
   */
  private projectFileBySrc(src: string): string | undefined {
    const trimmed = src.trim();
    if (trimmed === '') return undefined;
    for (const folder of this.ancestorFolders()) {
      const key = findSourceFile(this.files, folder, trimmed, ['', '.html']);
      if (key !== undefined) return key;
    }
    return undefined;
  }

  /** `<x-name>` / `<x-folder.name>`: `name.html` in Maizzle's component folders, from the template's folder upwards. */
  private projectFileByTag(reference: string): string | undefined {
    const path = reference.split('.').join('/');
    for (const folder of this.ancestorFolders()) {
      for (const componentFolder of COMPONENT_FOLDERS) {
        const key = findSourceFile(this.files, folder, `${componentFolder}/${path}`, ['.html', '/index.html']);
        if (key !== undefined) return key;
      }
    }
    return undefined;
  }

  private ancestorFolders(): string[] {
    const current = this.fileStack.length > 0 ? sourceDirectory(this.fileStack[this.fileStack.length - 1]) : '';
    const folders = [current];
    for (let i = 1; i <= SOURCE_FILES_LIMITS.maxParentSegments; i++) folders.push(`${current ? `${current}/` : ''}${'../'.repeat(i).slice(0, -1)}`);
    return folders;
  }

  /** A layout or component from the project's files; a problem inside it names the file, at the line of the tag that used it. */
  private renderProjectFile(file: string, element: Element, scope: Scope, slot: Slot): string {
    if (this.fileStack.length >= MAX_FILE_DEPTH) {
      throw new TemplateError(
        `${file}: components and layouts nest more than ${MAX_FILE_DEPTH} deep (does a component use itself?)`,
        this.lineOf(element),
        true,
      );
    }
    const line = this.lineOf(element);
    this.fileStack.push(file);
    try {
      return this.renderNodes(this.parse(this.files[file], false), scope, slot);
    } catch (error) {
      // Named by the innermost file it happened in, placed at the line of the email's own tag.
      if (error instanceof TemplateError) throw new TemplateError(error.inNamedFile ? error.message : `${file}: ${error.message}`, line, true);
      throw error;
    } finally {
      this.fileStack.pop();
    }
  }

  private renderNodes(nodes: ChildNode[], scope: Scope, slot: Slot | undefined): string {
    let out = '';
    for (let i = 0; i < nodes.length; i++) {
      const node = nodes[i];
      if (node.type === 'tag' && node.name === 'if') {
        // <if>, then any <elseif>/<else> siblings (whitespace between them is dropped).
        const chain: Element[] = [node];
        let j = i + 1;
        for (; j < nodes.length; j++) {
          const next = nodes[j];
          if (next.type === 'text' && next.data.trim() === '') continue;
          if (next.type === 'tag' && (next.name === 'elseif' || next.name === 'else')) {
            chain.push(next);
            if (next.name === 'else') {
              j++;
              break;
            }
            continue;
          }
          break;
        }
        i = j - 1;
        for (const branch of chain) {
          if (branch.name === 'else' || this.truthy(branch.attribs.condition, scope, branch)) {
            out += this.renderNodes(branch.children, scope, slot);
            break;
          }
        }
        continue;
      }
      out += this.renderNode(node, scope, slot);
    }
    return out;
  }

  private renderNode(node: ChildNode, scope: Scope, slot: Slot | undefined): string {
    switch (node.type) {
      case 'text':
        return this.interpolate(node.data, scope, node);
      case 'comment':
        return `<!--${node.data}-->`;
      case 'directive':
        return `<${this.interpolate(node.data, scope, node)}>`;
      case 'cdata':
        return `<![CDATA[${node.children.map((child) => (child.type === 'text' ? child.data : '')).join('')}]]>`;
      case 'tag':
      case 'script':
      case 'style':
        return this.renderElement(node, scope, slot);
      default:
        return '';
    }
  }

  private renderElement(element: Element, scope: Scope, slot: Slot | undefined): string {
    const name = element.name;
    switch (name) {
      case 'fetch':
      case 'remote':
        throw new TemplateError(`<${name}> is not supported: Mailproof never fetches remote content while compiling`, this.lineOf(element));
      case 'extends':
        throw new TemplateError('<extends> must be at the top level of the template', this.lineOf(element));
      case 'yield':
      case 'content':
      case 'slot':
        return slot ? slot.content : '';
      case 'block':
      case 'fill':
        return slot?.blocks?.get(element.attribs.name ?? '') ?? this.renderNodes(element.children, scope, slot);
      case 'elseif':
      case 'else':
        throw new TemplateError(`<${name}> must follow an <if>`, this.lineOf(element));
      case 'each':
        return this.renderEach(element, scope, slot);
      case 'switch':
        return this.renderSwitch(element, scope, slot);
      case 'scope': {
        const value = this.evaluate(element.attribs.with ?? '{}', scope, element);
        const inner = value && typeof value === 'object' ? { ...scope, ...(value as Scope) } : scope;
        return this.renderNodes(element.children, inner, slot);
      }
      case 'raw':
        return element.children.map((child) => rawSource(child)).join('');
      case 'push': {
        const key = element.attribs.name ?? '';
        const list = this.stacks.get(key) ?? [];
        list.push(this.renderNodes(element.children, scope, slot));
        this.stacks.set(key, list);
        return '';
      }
      case 'stack':
        return `${this.stackToken}${element.attribs.name ?? ''}\u0000`;
      case 'outlook':
      case 'not-outlook':
        return this.renderOutlook(element, scope, slot);
      case 'component':
        return this.renderComponent(element, element.attribs.src ?? '', scope, slot, true);
    }
    if (name.startsWith('x-')) return this.renderComponent(element, name.slice(2), scope, slot, false);
    const attributes = this.renderAttributes(element, scope) + this.sourceMarker(element);
    if (VOID_ELEMENTS.has(name)) return `<${name}${attributes}>`;
    return `<${name}${attributes}>${this.renderNodes(element.children, scope, slot)}</${name}>`;
  }

  private renderAttributes(element: Element, scope: Scope): string {
    let out = '';
    for (const [name, value] of Object.entries(element.attribs)) {
      if (value === '' && !/\{\{/.test(name)) {
        out += ` ${name}`;
        continue;
      }
      out += ` ${name}="${this.interpolate(value, scope, element, false).replace(/"/g, '&quot;')}"`;
    }
    return out;
  }

  private renderEach(element: Element, scope: Scope, slot: Slot | undefined): string {
    const loop = element.attribs.loop ?? '';
    const match = /^\s*([A-Za-z_$][\w$]*)\s*(?:,\s*([A-Za-z_$][\w$]*)\s*)?\s+in\s+([\s\S]+)$/.exec(loop);
    if (!match) throw new TemplateError(`Invalid <each loop="${loop}">: expected "item in list" or "item, index in list"`, this.lineOf(element));
    const [, itemName, indexName, listExpression] = match;
    const list = this.evaluate(listExpression, scope, element);
    if (list === null || list === undefined) return '';
    const entries: Array<[unknown, unknown]> = Array.isArray(list)
      ? list.map((value, index) => [value, index])
      : typeof list === 'object'
        ? Object.entries(list as Scope).map(([key, value]) => [value, key])
        : [];
    let out = '';
    entries.forEach(([value, key], index) => {
      const inner: Scope = {
        ...scope,
        [itemName]: value,
        loop: { index, remaining: entries.length - index - 1, first: index === 0, last: index === entries.length - 1, length: entries.length },
      };
      if (indexName) inner[indexName] = key;
      out += this.renderNodes(element.children, inner, slot);
    });
    return out;
  }

  private renderSwitch(element: Element, scope: Scope, slot: Slot | undefined): string {
    const value = this.evaluate(element.attribs.expression ?? 'undefined', scope, element);
    let fallback: Element | undefined;
    for (const child of element.children) {
      if (child.type !== 'tag') continue;
      if (child.name === 'default') fallback = child;
      if (child.name === 'case' && this.evaluate(child.attribs.n ?? 'undefined', scope, child) === value) {
        return this.renderNodes(child.children, scope, slot);
      }
    }
    return fallback ? this.renderNodes(fallback.children, scope, slot) : '';
  }

  private renderOutlook(element: Element, scope: Scope, slot: Slot | undefined): string {
    const inner = this.renderNodes(element.children, scope, slot);
    if (element.name === 'not-outlook') return `<!--[if !mso]><!-->${inner}<!--<![endif]-->`;
    const conditions: string[] = [];
    for (const [attribute, operator] of [
      ['only', ''],
      ['not', '!'],
      ['lt', 'lt '],
      ['lte', 'lte '],
      ['gt', 'gt '],
      ['gte', 'gte '],
    ] as const) {
      const versions = element.attribs[attribute];
      if (!versions) continue;
      for (const version of versions.split(/[\s,]+/).filter(Boolean)) {
        const code = OUTLOOK_VERSIONS[version];
        if (code) conditions.push(operator === '!' ? `!mso ${code}` : `${operator}mso ${code}`);
      }
    }
    const condition = conditions.length > 0 ? conditions.join(' | ') : 'mso';
    return `<!--[if ${condition}]>${inner}<![endif]-->`;
  }

  private renderComponent(element: Element, reference: string, scope: Scope, slot: Slot | undefined, explicitSrc: boolean): string {
    const file = explicitSrc ? this.projectFileBySrc(reference) : this.projectFileByTag(reference);
    const name =
      file !== undefined
        ? undefined
        : explicitSrc
          ? builtInName(reference, 'components')
          : Object.prototype.hasOwnProperty.call(BUILT_IN_COMPONENTS, reference)
            ? reference
            : undefined;
    const content = this.renderNodes(element.children, scope, slot);
    if (file !== undefined) return this.renderProjectFile(file, element, { page: scope.page, props: this.componentProps(element, scope) }, { content });
    if (name === 'main' || (!name && !explicitSrc && reference === 'main')) {
      return this.renderNodes(this.parse(BUILT_IN_LAYOUTS.main, false), scope, { content });
    }
    if (!name) {
      if (explicitSrc) {
        throw new TemplateError(
          `Component "${reference}" cannot be resolved: it is not among the files sent with the email, and the built-in components are ${Object.keys(BUILT_IN_COMPONENTS).join(', ')}`,
          this.lineOf(element),
        );
      }
      this.warn(
        `<x-${reference}> is neither among the files sent with the email nor a built-in component; its content was kept without it`,
        this.lineOf(element),
      );
      return content;
    }
    return this.renderNodes(this.parse(BUILT_IN_COMPONENTS[name], false), { page: scope.page, props: this.componentProps(element, scope) }, { content });
  }

  /** A component's attributes become `props.*`; `:attr="expr"` passes the evaluated value. */
  private componentProps(element: Element, scope: Scope): Scope {
    const props: Scope = {};
    for (const [attribute, value] of Object.entries(element.attribs)) {
      if (attribute === 'src') continue;
      if (attribute.startsWith(':')) props[attribute.slice(1)] = this.evaluate(value, scope, element);
      else props[attribute] = this.interpolate(value, scope, element, false);
    }
    return props;
  }

  private fillStacks(html: string): string {
    const pattern = new RegExp(`${this.stackToken.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}([^\\u0000]*)\\u0000`, 'g');
    return html.replace(pattern, (_match, name: string) => (this.stacks.get(name) ?? []).join(''));
  }

  private truthy(expression: string | undefined, scope: Scope, node: Element): boolean {
    if (expression === undefined) throw new TemplateError(`<${node.name}> needs a condition`, this.lineOf(node));
    try {
      return Boolean(this.run(expression, scope));
    } catch (error) {
      // A condition on a missing local is false, as in Maizzle.
      if (SIMPLE_PATH.test(expression) && isLookupError(error)) return false;
      throw this.expressionError(error, expression, node, 0);
    }
  }

  private evaluate(expression: string, scope: Scope, node: Element): unknown {
    try {
      return this.run(expression, scope);
    } catch (error) {
      throw this.expressionError(error, expression, node, 0);
    }
  }

  /** `offsetsAreInSource`: text nodes start at their node's index; attribute values do not. */
  private interpolate(text: string, scope: Scope, node: { startIndex: number | null }, offsetsAreInSource = true): string {
    if (!text.includes('{{')) return text;
    return text.replace(EXPRESSION, (whole: string, rawAt: string, rawExpression: string, at: string, expression: string, matchOffset: number) => {
      const offset = offsetsAreInSource ? matchOffset : 0;
      const isRaw = rawExpression !== undefined;
      const source = isRaw ? rawExpression : expression;
      if ((isRaw ? rawAt : at) === '@') return whole.slice(1);
      if (HANDLEBARS.test(source)) return whole;
      let value: unknown;
      try {
        value = this.run(source, scope);
      } catch (error) {
        if (SIMPLE_PATH.test(source) && isLookupError(error)) {
          if (/^\s*page\b/.test(source))
            this.warn(`{{ ${source.trim()} }} is not defined (front matter or Maizzle config); it was left as written`, this.lineOf(node, offset));
          return whole;
        }
        if (error instanceof SyntaxError) {
          this.warn(`{{ ${source.trim().slice(0, 60)} }} is not a JavaScript expression; it was left as written`, this.lineOf(node, offset));
          return whole;
        }
        throw this.expressionError(error, source, node, offset);
      }
      const textValue = value === undefined || value === null ? '' : String(value);
      return isRaw ? textValue : escapeHtml(textValue);
    });
  }

  private run(expression: string, scope: Scope): unknown {
    let compiled = this.compiled.get(expression);
    if (!compiled) {
      // The isolate has no module loader; refuse import() with a clear message instead of V8's bare one.
      if (/\bimport\s*\(/.test(expression)) throw new Error('import() is not available in Maizzle expressions');
      // Sloppy-mode Function so `with` can expose the locals; this all runs inside the isolate.
      compiled = new Function('__locals', `with (__locals) { return (${expression}\n); }`) as (scope: Scope) => unknown;
      this.compiled.set(expression, compiled);
    }
    return compiled.call(undefined, scope);
  }

  private expressionError(error: unknown, expression: string, node: { startIndex: number | null }, offset: number): TemplateError {
    if (error instanceof TemplateError) return error;
    const message = error instanceof Error ? `${error.name}: ${error.message}` : `Uncaught ${String(error)}`;
    return new TemplateError(`Expression {{ ${expression.trim().slice(0, 80)} }} failed: ${message}`, this.lineOf(node, offset));
  }
}

interface Slot {
  content: string;
  blocks?: Map<string, string>;
}

function isLookupError(error: unknown): boolean {
  return error instanceof ReferenceError || error instanceof TypeError;
}

function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}

// <raw> keeps its content exactly as written, expressions included.
function rawSource(node: ChildNode): string {
  switch (node.type) {
    case 'text':
      return node.data;
    case 'comment':
      return `<!--${node.data}-->`;
    case 'directive':
      return `<${node.data}>`;
    case 'tag':
    case 'script':
    case 'style': {
      const attributes = Object.entries(node.attribs)
        .map(([name, value]) => (value === '' ? ` ${name}` : ` ${name}="${value.replace(/"/g, '&quot;')}"`))
        .join('');
      if (VOID_ELEMENTS.has(node.name)) return `<${node.name}${attributes}>`;
      return `<${node.name}${attributes}>${node.children.map(rawSource).join('')}</${node.name}>`;
    }
    default:
      return '';
  }
}

/** The entry point the isolate calls by name: a global of the isolate's own realm. */
function expandMaizzle(input: string): string {
  try {
    const request = JSON.parse(input) as ExpandRequest;
    return JSON.stringify({ ok: true, value: new Expander().expand(request) });
  } catch (error) {
    if (error instanceof TemplateError) return JSON.stringify({ ok: false, message: error.message, line: error.line });
    const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    return JSON.stringify({ ok: false, message });
  }
}
Object.assign(globalThis, { __mailproofExpandMaizzle: expandMaizzle });
