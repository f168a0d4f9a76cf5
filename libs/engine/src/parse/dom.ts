import type { DefaultTreeAdapterTypes } from 'parse5';

export type HtmlDocument = DefaultTreeAdapterTypes.Document;
export type HtmlElement = DefaultTreeAdapterTypes.Element;
export type HtmlTemplate = DefaultTreeAdapterTypes.Template;
export type HtmlComment = DefaultTreeAdapterTypes.CommentNode;
export type HtmlText = DefaultTreeAdapterTypes.TextNode;
export type HtmlDocumentType = DefaultTreeAdapterTypes.DocumentType;
export type HtmlParentNode = DefaultTreeAdapterTypes.ParentNode;
export type HtmlChildNode = DefaultTreeAdapterTypes.ChildNode;
export type HtmlNode = DefaultTreeAdapterTypes.Node;

export const HTML_NAMESPACE = 'http://www.w3.org/1999/xhtml';

export function isElement(node: HtmlNode): node is HtmlElement {
  return 'tagName' in node;
}

export function isText(node: HtmlNode): node is HtmlText {
  return node.nodeName === '#text';
}

export function isComment(node: HtmlNode): node is HtmlComment {
  return node.nodeName === '#comment';
}

/** Attribute value by lower-case name (parse5 lower-cases HTML attribute names). */
export function getAttribute(element: HtmlElement, name: string): string | undefined {
  for (const attr of element.attrs) if (attr.name === name && !attr.prefix) return attr.value;
  return undefined;
}

export function hasAttribute(element: HtmlElement, name: string): boolean {
  return getAttribute(element, name) !== undefined;
}

/** Children of a node; a `<template>`'s children live in its content fragment. */
export function childrenOf(node: HtmlParentNode): HtmlChildNode[] {
  if (isElement(node) && node.tagName === 'template' && node.namespaceURI === HTML_NAMESPACE) return (node as HtmlTemplate).content.childNodes;
  return node.childNodes;
}

export function parentElement(element: HtmlElement): HtmlElement | null {
  const parent = element.parentNode;
  return parent && isElement(parent) ? parent : null;
}

/** Concatenated text of a subtree, walked without recursion. */
export function textContent(node: HtmlNode): string {
  let text = '';
  const stack: HtmlNode[] = [node];
  while (stack.length > 0) {
    const current = stack.pop() as HtmlNode;
    if (isText(current)) text += current.value;
    else if ('childNodes' in current) {
      const children = childrenOf(current as HtmlParentNode);
      for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]);
    }
  }
  return text;
}

export interface SourcePosition {
  line: number;
  column: number;
}

/** Where a node starts in the submitted markup; undefined for nodes the parser implied. */
export function positionOf(node: HtmlNode): SourcePosition | undefined {
  const location = (node as { sourceCodeLocation?: { startLine: number; startCol: number } | null }).sourceCodeLocation;
  return location ? { line: location.startLine, column: location.startCol } : undefined;
}
