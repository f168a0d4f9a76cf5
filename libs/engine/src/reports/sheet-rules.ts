/**
 * The `<style>` rules of the engine's parse (its postcss roots), flattened once for the reports: each
 * rule with its normalised declarations, the media conditions around it and its source order.
 */
import type { AtRule, Container, Declaration, Rule } from 'postcss';
import type { HtmlElement } from '../parse/dom';
import type { ParsedEmail } from '../parse/parse-email';
import { utf8Length } from './text-utils';

/** A declaration with its property lower-cased and its value trimmed. */
export interface ReportDeclaration {
  property: string;
  value: string;
  important: boolean;
}

export interface SheetDeclaration extends ReportDeclaration {
  /** The postcss node, whose support per client the transforms know. */
  node: Declaration;
}

export interface SheetRule {
  rule: Rule;
  selectorText: string;
  declarations: SheetDeclaration[];
  /** Media conditions of the enclosing @media blocks, lower-cased and joined with " and "; null outside @media. */
  media: string | null;
  topLevel: boolean;
  /** Inside another rule (CSS nesting): no email client or inliner evaluates it. */
  nested: boolean;
  /**
   * Inside `@media` and/or `@supports` blocks only. Static analysis assumes `@supports` conditions hold
   * (the clients that lack a feature drop the block, which the per-client masks say).
   */
  conditional: boolean;
  /** Source order over every `<style>` block. */
  order: number;
  /** The at-rules around the rule, innermost first (their support decides whether a client keeps it). */
  ancestors: AtRule[];
}

export interface StyleBlock {
  element: HtmlElement;
  bytes: number;
}

export interface SheetRules {
  rules: SheetRule[];
  byRule: ReadonlyMap<Rule, SheetRule>;
  blocks: StyleBlock[];
}

const CONDITIONAL_AT_RULES = new Set(['media', 'supports']);

export function normaliseDeclaration(declaration: Declaration): SheetDeclaration {
  return { property: declaration.prop.toLowerCase(), value: declaration.value.trim(), important: declaration.important === true, node: declaration };
}

export function collectSheetRules(parsed: ParsedEmail): SheetRules {
  const rules: SheetRule[] = [];
  const byRule = new Map<Rule, SheetRule>();
  const blocks: StyleBlock[] = [];
  for (const sheet of parsed.styleSheets) {
    blocks.push({ element: sheet.element, bytes: utf8Length(sheet.text) });
    sheet.root.walkRules((rule: Rule) => {
      const ancestors: AtRule[] = [];
      const conditions: string[] = [];
      let skip = false;
      let nested = false;
      for (let parent = rule.parent as Container | undefined; parent && parent.type !== 'root'; parent = parent.parent as Container | undefined) {
        if (parent.type === 'rule') nested = true;
        if (parent.type !== 'atrule') continue;
        const atRule = parent as AtRule;
        ancestors.push(atRule);
        const name = atRule.name.toLowerCase();
        if (name === 'media') conditions.push(atRule.params.trim().toLowerCase());
        // Keyframe steps and font faces are not selectors of the document.
        else if (name.endsWith('keyframes') || name === 'font-face' || name === 'page') skip = true;
      }
      if (skip) return;
      const declarations: SheetDeclaration[] = [];
      for (const node of rule.nodes) if (node.type === 'decl') declarations.push(normaliseDeclaration(node));
      const entry: SheetRule = {
        rule,
        selectorText: rule.selector,
        declarations,
        media: conditions.length > 0 ? conditions.reverse().join(' and ') : null,
        topLevel: rule.parent?.type === 'root',
        nested,
        conditional: !nested && ancestors.length > 0 && ancestors.every((atRule) => CONDITIONAL_AT_RULES.has(atRule.name.toLowerCase())),
        order: rules.length,
        ancestors,
      };
      rules.push(entry);
      byRule.set(rule, entry);
    });
  }
  return { rules, byRule, blocks };
}
