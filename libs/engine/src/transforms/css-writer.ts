import type { AtRule, ChildNode, Container, Declaration, Rule } from 'postcss';

export interface CssWriteOptions {
  keep(node: ChildNode): boolean;
  /** Selector text to write instead of the rule's own. */
  selectorOf?(rule: Rule): string;
  /** Value to write instead of a declaration's own. */
  valueFor?(declaration: Declaration): string;
  /** Write an at-rule's children without the at-rule itself (a dark query a client applies). */
  unwrap?(atRule: AtRule): boolean;
}

/** Writes a postcss tree compactly, leaving out what `keep` rejects and rules left empty. */
export function writeCss(container: Container, options: CssWriteOptions): string {
  let out = '';
  for (const node of container.nodes ?? []) {
    if (!options.keep(node)) continue;
    if (node.type === 'decl') {
      const value = options.valueFor ? options.valueFor(node) : node.value;
      out += `${node.prop}:${value}${node.important ? ' !important' : ''};`;
    } else if (node.type === 'rule') {
      const body = writeCss(node, options);
      if (body) out += `${options.selectorOf ? options.selectorOf(node) : node.selector}{${body}}`;
    } else if (node.type === 'atrule') {
      if (!node.nodes) {
        out += `@${node.name}${node.params ? ` ${node.params}` : ''};`;
        continue;
      }
      const body = writeCss(node, options);
      if (!body) continue;
      out += options.unwrap?.(node) ? body : `@${node.name}${node.params ? ` ${node.params}` : ''}{${body}}`;
    }
  }
  return out;
}
