import PostalMime from 'postal-mime';

/**
 * The one place that reads postal-mime's internals. Its public API answers the email as a whole (html, text,
 * attachments); the message checks need two things it keeps inside, on the parser's `root` MimeNode:
 * - its reader of structured header fields (`parseStructuredHeader`: comments stripped, the first of a repeated
 *   parameter wins, RFC 2231 continuations joined), so the scan reads each Content-Type exactly as the parser will;
 * - the parsed tree, whose leaves decode their own content with their transfer encoding and charset.
 * Nothing here casts: each value is checked for the shape used, and an upgrade that changes it throws
 * PostalMimeChanged, naming what moved (postal-mime-internals.spec.ts fails on it first).
 */
export class PostalMimeChanged extends Error {
  constructor(what: string) {
    super(`postal-mime ${what}: libs/engine/src/message/postal-mime-internals.ts must follow its new version`);
    this.name = 'PostalMimeChanged';
  }
}

/** A node of the parsed tree, as far as the message checks read it. */
export interface MimeTreeNode {
  contentType: { multipart: string | false };
  childNodes: MimeTreeNode[];
  getTextContent(): string;
}

export interface StructuredHeaderReader {
  parseStructuredHeader(text: string): { value: string; params: Record<string, string> };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

function isMimeTreeNode(value: unknown): value is MimeTreeNode {
  return (
    isRecord(value) &&
    Array.isArray(value.childNodes) &&
    typeof value.getTextContent === 'function' &&
    isRecord(value.contentType) &&
    (typeof value.contentType.multipart === 'string' || value.contentType.multipart === false)
  );
}

function isStructuredHeaderReader(value: unknown): value is StructuredHeaderReader {
  return isRecord(value) && typeof value.parseStructuredHeader === 'function';
}

/** The parser's root MimeNode (a private field). */
function rootOf(parser: PostalMime): unknown {
  return Reflect.get(parser, 'root');
}

/** postal-mime's structured-field reader (it keeps no state between calls, so one serves every call). */
export function structuredHeaderReader(): StructuredHeaderReader {
  const root = rootOf(new PostalMime());
  if (!isStructuredHeaderReader(root)) throw new PostalMimeChanged('no longer has root.parseStructuredHeader');
  return root;
}

/** The leaves of a parser's tree once it parsed, in document order (iteratively: no recursion is needed). */
export function parsedLeaves(parser: PostalMime): MimeTreeNode[] {
  const root = rootOf(parser);
  if (!isMimeTreeNode(root)) throw new PostalMimeChanged('no longer keeps its parsed tree in root (contentType, childNodes, getTextContent)');
  const leaves: MimeTreeNode[] = [];
  const stack: MimeTreeNode[] = [root];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (!node.contentType.multipart) leaves.push(node);
    else {
      if (!node.childNodes.every(isMimeTreeNode)) throw new PostalMimeChanged('changed the shape of its child nodes');
      stack.push(...[...node.childNodes].reverse());
    }
  }
  return leaves;
}
