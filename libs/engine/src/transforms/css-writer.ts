import type { AtRule, ChildNode, Container, Declaration, Rule } from 'postcss';

/** A declaration as a client rewrites it, with what it writes right after it (`alongside`). */
interface CssWriteDeclaration {
  property: string;
  value: string;
  important: boolean;
  alongside?: readonly CssWriteDeclaration[];
}

export interface CssWriteOptions {
  keep(node: ChildNode): boolean;
  /** Selector text to write instead of the rule's own. */
  selectorOf?(rule: Rule): string;
  /** Value to write instead of a declaration's own. */
  valueFor?(declaration: Declaration): string;
  /** A client's rewrite of a declaration (property renamed, importance lost): null leaves it out, undefined keeps it. */
  rewrite?(declaration: Declaration): CssWriteDeclaration | null | undefined;
  /** Write a style rule's declarations into its parent rule, without its own selector (Yahoo's nesting). */
  flatten?(rule: Rule): boolean;
  /** Write an at-rule's children without the at-rule itself (a dark query a client applies). */
  unwrap?(atRule: AtRule): boolean;
  /** The prelude a client writes for an at-rule (Yahoo's `()` for a dark query); undefined keeps the author's, null leaves the at-rule out. */
  atRuleParams?(atRule: AtRule): string | null | undefined;
}

/** Writes a postcss tree compactly, leaving out what `keep` rejects and rules left empty. */
export function writeCss(container: Container, options: CssWriteOptions): string {
  let out = '';
  for (const node of container.nodes ?? []) {
    if (!options.keep(node)) continue;
    if (node.type === 'decl') {
      const rewritten = options.rewrite?.(node);
      if (rewritten === null) continue;
      const value = options.valueFor ? options.valueFor(node) : node.value;
      if (rewritten) {
        out += `${rewritten.property}:${rewritten.value === node.value ? value : rewritten.value}${rewritten.important ? ' !important' : ''};`;
        for (const extra of rewritten.alongside ?? []) out += `${extra.property}:${extra.value}${extra.important ? ' !important' : ''};`;
      } else out += `${node.prop}:${value}${node.important ? ' !important' : ''};`;
    } else if (node.type === 'rule') {
      const body = writeCss(node, options);
      if (body) out += options.flatten?.(node) ? body : `${options.selectorOf ? options.selectorOf(node) : node.selector}{${body}}`;
    } else if (node.type === 'atrule') {
      const rewritten = options.atRuleParams?.(node);
      if (rewritten === null) continue;
      const params = rewritten ?? node.params;
      if (!node.nodes) {
        out += `@${node.name}${params ? ` ${params}` : ''};`;
        continue;
      }
      const body = writeCss(node, options);
      if (!body) continue;
      out += options.unwrap?.(node) ? body : `@${node.name}${params ? ` ${params}` : ''}{${body}}`;
    }
  }
  return out;
}
