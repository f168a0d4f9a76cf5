import PostalMime from 'postal-mime';
import { MESSAGE_LIMITS } from '../limits';
import { parsedLeaves } from './postal-mime-internals';
import type { DecodedBodyPart, ParsedMessage, ResourcePart } from '../parse/parsed-message';
import { messageError, scanMessage, type ScannedPart } from './scan-message';

const utf8 = new TextEncoder();

/**
 * Parses a raw RFC 5322 message: scanMessage checks its structure and bounds first, then postal-mime
 * decodes it (transfer encodings, charsets, RFC 2047 and RFC 2231 words). The HTML part becomes the
 * email Mailproof analyzes; a message without one is refused (`no_html_part`, docs/messages.md).
 * Every refusal is a CompileError of format eml with a `reason`.
 */
export async function parseMessage(raw: string): Promise<ParsedMessage> {
  const skeleton = scanMessage(raw);
  const parser = new PostalMime({
    // The scan has bounded nesting already; this keeps the parser's own bound above ours. Its header-size bound
    // (2 MB by default) stays as a second line behind the scan's field limits.
    maxNestingDepth: MESSAGE_LIMITS.maxNestingDepth + 1,
    // A forwarded message is an attachment here: its own HTML is not the email being sent.
    forceRfc822Attachments: true,
    attachmentEncoding: 'arraybuffer',
  });
  let email: PostalMime.Email;
  try {
    email = await parser.parse(raw);
  } catch (error) {
    throw messageError('not_a_message', `The message could not be parsed: ${error instanceof Error ? error.message : String(error)}`);
  }
  const leaves = skeleton.parts.filter((part) => !part.multipart);
  const nodes = parsedLeaves(parser);
  if (nodes.length !== leaves.length) {
    throw messageError('not_a_message', "The message's MIME structure is ambiguous: its parts cannot be read one way only.");
  }
  const htmlLeaf = leaves.find((part) => isBodyText(part) && part.contentType === 'text/html');
  if (!htmlLeaf) {
    throw messageError(
      'no_html_part',
      'The message has no text/html part. Mailproof checks HTML email; send the HTML version of the message (a plain-text message has nothing to preview).',
    );
  }
  // Each body part's own decoded content: postal-mime's email.html joins every inline text part (a text/plain
  // sibling in a multipart/mixed comes out converted to HTML), which is not the HTML part being sent.
  const own = (leaf: ScannedPart) => nodes[leaves.indexOf(leaf)].getTextContent();
  const html = bodyPart(htmlLeaf, own(htmlLeaf));
  const textLeaf = leaves.find((part) => isBodyText(part) && part.contentType === 'text/plain');
  const text = textLeaf ? bodyPart(textLeaf, own(textLeaf)) : null;
  for (const body of [html, text]) {
    if (body && body.bytes > MESSAGE_LIMITS.maxDecodedPartBytes) {
      throw messageError('part_too_large', `Part ${body.path} decodes to ${body.bytes} bytes; the limit is ${MESSAGE_LIMITS.maxDecodedPartBytes}.`);
    }
  }
  const subjectField = skeleton.headers.find((field) => field.name === 'subject');
  return {
    headers: skeleton.headers,
    subject: subjectField ? (email.subject ?? PostalMime.decodeWords(subjectField.value.trim())) : null,
    html,
    text,
    resources: resourceParts(leaves, email.attachments),
    structure: skeleton.parts.map((part) => ({ path: part.path, contentType: part.contentType })),
  };
}

/** Text the parser takes as the body (not an attachment), as postal-mime decides it. */
function isBodyText(part: ScannedPart): boolean {
  return (part.contentType === 'text/html' || part.contentType === 'text/plain') && part.disposition !== 'attachment';
}

function bodyPart(leaf: ScannedPart, decoded: string): DecodedBodyPart {
  const content = leaf.charset && WINDOWS_1252_LABELS.has(leaf.charset) ? repairWindows1252(decoded) : decoded;
  return { path: leaf.path, charset: leaf.charset, content, bytes: utf8.encode(content).byteLength };
}

// The WHATWG Encoding Standard's labels of windows-1252 (iso-8859-1 and us-ascii included, as browsers read them).
const WINDOWS_1252_LABELS = new Set([
  'windows-1252',
  'cp1252',
  'x-cp1252',
  'iso-8859-1',
  'iso8859-1',
  'iso_8859-1',
  'latin1',
  'l1',
  'us-ascii',
  'ascii',
  'cp819',
  'ibm819',
]);
// Bytes 0x80-0x9f of windows-1252; the five it leaves undefined keep their code point.
const WINDOWS_1252_HIGH =
  '\u20ac\u0081\u201a\u0192\u201e\u2026\u2020\u2021\u02c6\u2030\u0160\u2039\u0152\u008d\u017d\u008f\u0090\u2018\u2019\u201c\u201d\u2022\u2013\u2014\u02dc\u2122\u0161\u203a\u0153\u009d\u017e\u0178';

/**
 * Node 20's TextDecoder decodes windows-1252 (and its iso-8859-1 labels) as Latin-1, so bytes 0x80-0x9f
 * (euro sign, curly quotes, dashes) come out as C1 control characters. No text means those controls, so
 * they are mapped as windows-1252 maps them; correctly decoded text has none and is unchanged.
 */
function repairWindows1252(text: string): string {
  return text.replace(/[\u0080-\u009f]/g, (char) => WINDOWS_1252_HIGH[char.charCodeAt(0) - 0x80]);
}

/**
 * postal-mime lists the leaves that are not body text as attachments, in document order: the same leaves the
 * scan found (both read Content-Type with postal-mime's reader), so the two lists pair up one to one. A pairing
 * that does not hold (another count, another type at the same place) is refused rather than guessed.
 */
function resourceParts(leaves: ScannedPart[], attachments: PostalMime.Attachment[]): ResourcePart[] {
  const resources = leaves.filter((part) => !isBodyText(part));
  const mismatch = resources.findIndex((part, index) => attachments[index]?.mimeType?.toLowerCase() !== part.contentType);
  if (resources.length !== attachments.length || mismatch >= 0) {
    const where = mismatch >= 0 ? ` (part ${resources[mismatch].path})` : '';
    throw messageError('not_a_message', `The message's MIME structure is ambiguous${where}: its parts cannot be read one way only.`);
  }
  return resources.map((part, index) => {
    const attachment = attachments[index];
    const content = attachment.content;
    const bytes = typeof content === 'string' ? utf8.encode(content).byteLength : content ? content.byteLength : 0;
    const contentId = attachment.contentId?.replace(/^<|>$/g, '') ?? null;
    return {
      path: part.path,
      contentType: part.contentType,
      charset: part.charset,
      transferEncoding: part.transferEncoding,
      disposition: part.disposition,
      filename: attachment.filename ?? null,
      contentId: contentId || null,
      bytes,
      related: attachment.related === true,
    };
  });
}
