/**
 * The `<style>` rules of the engine's parse (its postcss roots), flattened once for the reports: each
 * rule with its normalized declarations, the media conditions around it and its source order.
 */
import type { AtRule, Container, Declaration, Rule } from 'postcss';
import type { HtmlElement } from '../../parse/dom';
import type { ParsedEmail } from '../../parse/parse-email';
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

export function normalizeDeclaration(declaration: Declaration): SheetDeclaration {
  return { property: declaration.prop.toLowerCase(), value: declaration.value.trim(), important: declaration.important === true, node: declaration };
}

/**
 * The properties some report reads (the cascade, colors, design tallies, the spam report's responsive
 * copies); other declarations are not copied, which keeps large style sheets cheap.
 */
const REPORTED_PROPERTIES = new Set([
  'background',
  'background-color',
  'background-image',
  'color',
  'font',
  'font-size',
  'font-weight',
  'font-family',
  'line-height',
  'display',
  'visibility',
  'opacity',
  'overflow',
  'max-height',
  'max-width',
  'height',
  'width',
  'border-radius',
  'padding',
  'padding-top',
  'padding-right',
  'padding-bottom',
  'padding-left',
  'margin',
  'margin-top',
  'margin-right',
  'margin-bottom',
  'margin-left',
  'gap',
  'row-gap',
  'column-gap',
  'color-scheme',
  // Cell borders, for the data-table heuristic.
  'border',
  'border-top',
  'border-right',
  'border-bottom',
  'border-left',
  'border-width',
  'border-style',
  'border-top-width',
  'border-right-width',
  'border-bottom-width',
  'border-left-width',
  'border-top-style',
  'border-right-style',
  'border-bottom-style',
  'border-left-style',
]);

export function collectSheetRules(parsed: ParsedEmail): SheetRules {
  const rules: SheetRule[] = [];
  const byRule = new Map<Rule, SheetRule>();
  const blocks: StyleBlock[] = [];
  // A plain traversal (postcss's walk goes through proxies per node); depth is bounded by the engine's
  // CSS nesting limit.
  const visit = (container: Container, ancestors: AtRule[], conditions: string[], nested: boolean): void => {
    for (const node of container.nodes ?? []) {
      if (node.type === 'atrule') {
        const name = node.name.toLowerCase();
        // Keyframe steps and font faces are not selectors of the document.
        if (name.endsWith('keyframes') || name === 'font-face' || name === 'page' || !node.nodes) continue;
        visit(node, [node, ...ancestors], name === 'media' ? [...conditions, node.params.trim().toLowerCase()] : conditions, nested);
      } else if (node.type === 'rule') {
        const declarations: SheetDeclaration[] = [];
        let childRules = false;
        for (const child of node.nodes) {
          if (child.type === 'decl') {
            const property = child.prop.toLowerCase();
            // Custom properties too: colors written as var() resolve through them.
            if (REPORTED_PROPERTIES.has(property) || property.startsWith('--'))
              declarations.push({ property, value: child.value.trim(), important: child.important === true, node: child });
          } else if (child.type === 'rule' || child.type === 'atrule') childRules = true;
        }
        const entry: SheetRule = {
          rule: node,
          selectorText: node.selector,
          declarations,
          media: conditions.length > 0 ? conditions.join(' and ') : null,
          topLevel: container.type === 'root',
          nested,
          conditional: !nested && ancestors.length > 0 && ancestors.every((atRule) => CONDITIONAL_AT_RULES.has(atRule.name.toLowerCase())),
          order: rules.length,
          ancestors,
        };
        rules.push(entry);
        byRule.set(node, entry);
        if (childRules) visit(node, ancestors, conditions, true);
      }
    }
  };
  for (const sheet of parsed.styleSheets) {
    blocks.push({ element: sheet.element, bytes: utf8Length(sheet.text) });
    visit(sheet.root, [], [], false);
  }
  return { rules, byRule, blocks };
}
