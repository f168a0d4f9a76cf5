/**
 * `<style>` blocks parsed with postcss-safe-parser (which repairs broken CSS instead of throwing) and
 * indexed by each selector's right-most key; inline `style` attributes parsed by a linear scanner.
 */
import type { AtRule, ChildNode, Container, Rule } from 'postcss';
import safeParse = require('postcss-safe-parser');
import { compileSelector, splitSelectorList, type CompiledSelector } from './css-selector';
import type { EmailElement, ParsedEmail } from './parsed-email';
import { utf8Length } from './text-utils';

export interface CssDeclaration {
  property: string;
  value: string;
  important: boolean;
}

export interface StyleRule {
  selectorText: string;
  declarations: CssDeclaration[];
  /** Media query text of the enclosing @media blocks, joined with " and "; null outside @media. */
  media: string | null;
  /** Absolute source offset of the rule, -1 when unknown. */
  offset: number;
}

export interface IndexedSelector {
  rule: StyleRule;
  selector: CompiledSelector;
  /** Source order of the rule, for the cascade's last-wins tie break. */
  order: number;
}

export interface StyleBlock {
  element: EmailElement;
  text: string;
  bytes: number;
  inHead: boolean;
}

export interface StyleSheet {
  rules: StyleRule[];
  byKey: Map<string, IndexedSelector[]>;
  universal: IndexedSelector[];
  blocks: StyleBlock[];
}


function styleText(element: EmailElement): { text: string; offset: number } {
  let text = '';
  let offset = -1;
  for (const child of element.children) {
    if (child.kind === 'text') {
      if (offset < 0) offset = child.offset;
      text += child.value;
    }
  }
  return { text, offset };
}

function mediaOf(rule: Rule): { media: string | null; skip: boolean } {
  const conditions: string[] = [];
  let parent: Container | undefined = rule.parent as Container | undefined;
  while (parent && parent.type !== 'root') {
    if (parent.type === 'atrule') {
      const atRule = parent as AtRule;
      const name = atRule.name.toLowerCase();
      if (name === 'media') conditions.push(atRule.params.trim().toLowerCase());
      // Keyframe steps and font faces are not selectors of the document.
      else if (name.endsWith('keyframes') || name === 'font-face' || name === 'page') return { media: null, skip: true };
    }
    parent = parent.parent as Container | undefined;
  }
  return { media: conditions.length > 0 ? conditions.reverse().join(' and ') : null, skip: false };
}

export function parseStyleSheets(parsed: ParsedEmail): StyleSheet {
  const sheet: StyleSheet = { rules: [], byKey: new Map(), universal: [], blocks: [] };
  let order = 0;
  for (const element of parsed.byTag('style')) {
    const { text, offset } = styleText(element);
    let inHead = false;
    for (let ancestor = element.parent; ancestor; ancestor = ancestor.parent) if (ancestor.tag === 'head') inHead = true;
    sheet.blocks.push({ element, text, bytes: utf8Length(text), inHead });
    if (text.trim().length === 0) continue;
    let root;
    try {
      root = safeParse(text);
    } catch {
      continue;
    }
    root.walkRules((node: Rule) => {
      const { media, skip } = mediaOf(node);
      if (skip) return;
      const declarations: CssDeclaration[] = [];
      node.each((child: ChildNode) => {
        if (child.type === 'decl') {
          declarations.push({ property: child.prop.toLowerCase(), value: child.value.trim(), important: child.important === true });
        }
      });
      const startOffset = node.source?.start?.offset;
      const rule: StyleRule = {
        selectorText: node.selector,
        declarations,
        media,
        offset: offset >= 0 && startOffset !== undefined ? offset + startOffset : -1,
      };
      sheet.rules.push(rule);
      for (const selectorText of splitSelectorList(node.selector)) {
        const selector = compileSelector(selectorText);
        if (!selector) continue;
        const entry: IndexedSelector = { rule, selector, order: order++ };
        if (selector.key === '*') sheet.universal.push(entry);
        else {
          const bucket = sheet.byKey.get(selector.key);
          if (bucket) bucket.push(entry);
          else sheet.byKey.set(selector.key, [entry]);
        }
      }
    });
  }
  return sheet;
}

/** Parses a `style` attribute: declarations split on `;` outside quotes and parentheses. */
export function parseInlineStyle(style: string): CssDeclaration[] {
  const declarations: CssDeclaration[] = [];
  let depth = 0;
  let quote = '';
  let start = 0;
  const flush = (end: number): void => {
    const chunk = style.slice(start, end);
    const colon = chunk.indexOf(':');
    if (colon <= 0) return;
    const property = chunk.slice(0, colon).trim().toLowerCase();
    let value = chunk.slice(colon + 1).trim();
    let important = false;
    const bang = value.lastIndexOf('!');
    if (bang !== -1 && value.slice(bang + 1).trim().toLowerCase() === 'important') {
      important = true;
      value = value.slice(0, bang).trim();
    }
    if (property && value) declarations.push({ property, value, important });
  };
  for (let i = 0; i < style.length; i++) {
    const char = style[i];
    if (quote) {
      if (char === '\\') i++;
      else if (char === quote) quote = '';
    } else if (char === '"' || char === "'") quote = char;
    else if (char === '(') depth++;
    else if (char === ')') depth = Math.max(0, depth - 1);
    else if (char === ';' && depth === 0) {
      flush(i);
      start = i + 1;
    }
  }
  flush(style.length);
  return declarations;
}
