import { GMAIL_CLIP_LIMIT_BYTES } from '../reports/size-report';
import type { MessageFinding, MessagePartsReport } from './message-report';
import { messageFinding as finding } from './message-finding';
import type { MessagePart, ParsedMessage, ResourcePart } from '../parse/parsed-message';

/** What the part rules read: the message, the HTML part's visible text and the facts derived from both once. */
export interface PartRuleContext {
  message: ParsedMessage;
  /** `cid:` references in the HTML part, percent-decoded, in order of first use. */
  cids: string[];
  /** Cosine similarity of the text part's words to the HTML part's visible text; null without a text part. */
  similarity: number | null;
}

type PartRule = (context: PartRuleContext) => MessageFinding[];

/** Below this the text alternative says something else than the HTML (a lone "view online" line, another campaign). */
export const TEXT_SIMILARITY_MIN = 0.5;
// Gmail and Outlook refuse these as attachments outright (Gmail's list of blocked file types).
const BLOCKED_EXTENSIONS =
  /\.(ade|adp|apk|appx|bat|cab|chm|cmd|com|cpl|dll|dmg|exe|hta|ins|isp|iso|jar|js|jse|lib|lnk|mde|msc|msi|msix|msp|mst|nsh|pif|ps1|scr|sct|shb|sys|vb|vbe|vbs|vxd|wsc|wsf|wsh)$/i;

const textAlternativeRule: PartRule = ({ message, similarity }) => {
  if (!message.text)
    return finding(
      'text-alternative-missing',
      'warning',
      'The message has no text/plain alternative; some filters score HTML-only mail as spam and text-only readers see nothing.',
      'Send multipart/alternative with a text/plain part that says what the HTML says.',
    );
  if (similarity !== null && similarity < TEXT_SIMILARITY_MIN)
    return finding(
      'text-alternative-differs',
      'warning',
      `The text/plain alternative shares little with the HTML part's text (similarity ${similarity.toFixed(2)}); filters compare the two.`,
      'Generate the text part from the same content as the HTML.',
    );
  return [];
};

const gmailClipRule: PartRule = ({ message }) =>
  message.html.bytes > GMAIL_CLIP_LIMIT_BYTES
    ? finding(
        'html-clipped-by-gmail',
        'warning',
        `The HTML part is ${message.html.bytes} bytes decoded; Gmail clips messages past ${GMAIL_CLIP_LIMIT_BYTES} and hides the rest behind "View entire message".`,
        'Trim the HTML (inline CSS duplicates, comments, whitespace) under 102 KB.',
      )
    : [];

const cidRule: PartRule = ({ message, cids }) => {
  const known = new Set(message.resources.flatMap((part) => (part.contentId ? [part.contentId] : [])));
  return cids
    .filter((cid) => !known.has(cid))
    .flatMap((cid) =>
      finding(
        'cid-unresolved',
        'error',
        `The HTML shows cid:${cid}, but no part has that Content-ID: the image is broken.`,
        `Attach the image with Content-ID: <${cid}>.`,
      ),
    );
};

const unreferencedInlineRule: PartRule = ({ message, cids }) =>
  message.resources
    .filter((part) => part.related && part.contentId && !cids.includes(part.contentId))
    .flatMap((part) =>
      finding(
        'inline-image-unreferenced',
        'info',
        `Inline part ${part.path} (Content-ID ${part.contentId}) is not shown by the HTML; clients list it as an attachment.`,
        'Remove it, or reference it with cid:.',
      ),
    );

const attachmentRule: PartRule = ({ message }) => {
  const attachments = message.resources.filter((part) => !isInlineImage(part));
  const blocked = attachments.filter((part) => part.filename && BLOCKED_EXTENSIONS.test(part.filename));
  return [
    ...blocked.flatMap((part) =>
      finding('attachment-blocked-type', 'error', `Attachment ${part.filename} is a file type Gmail blocks.`, 'Link to the file instead of attaching it.'),
    ),
    ...(attachments.length > 0
      ? finding(
          'attachments-present',
          'info',
          `${attachments.length} attachment${attachments.length === 1 ? '' : 's'} (${attachments.reduce((sum, part) => sum + part.bytes, 0)} bytes): bulk mail with attachments draws more spam filtering.`,
          null,
        )
      : []),
  ];
};

export const PART_RULES: readonly PartRule[] = [textAlternativeRule, gmailClipRule, cidRule, unreferencedInlineRule, attachmentRule];

function isInlineImage(part: ResourcePart): boolean {
  return part.contentType.startsWith('image/') && (part.related || (part.disposition === 'inline' && part.contentId !== null));
}

function publicPart({ related: _related, ...part }: ResourcePart): MessagePart {
  return part;
}

/** `cid:` URLs in src, background and CSS url(), percent-decoded (RFC 2392), each once in order. */
export function cidReferences(html: string): string[] {
  const seen = new Set<string>();
  for (const match of html.matchAll(/cid:([^"'\s)>]+)/gi)) {
    let cid = match[1];
    try {
      cid = decodeURIComponent(cid);
    } catch {
      // A malformed escape is kept as written; it then simply matches no part.
    }
    seen.add(cid);
  }
  return [...seen];
}

/** Cosine similarity of two texts' word counts (letters and digits, lower case): 1 same words, 0 none shared. */
export function textSimilarity(a: string, b: string): number {
  const count = (text: string) => {
    const counts = new Map<string, number>();
    for (const word of text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) counts.set(word, (counts.get(word) ?? 0) + 1);
    return counts;
  };
  const left = count(a);
  const right = count(b);
  let dot = 0;
  for (const [word, n] of left) dot += n * (right.get(word) ?? 0);
  const norm = (counts: Map<string, number>) => Math.sqrt([...counts.values()].reduce((sum, n) => sum + n * n, 0));
  const denominator = norm(left) * norm(right);
  return denominator === 0 ? 0 : Math.round((dot / denominator) * 1000) / 1000;
}

/**
 * The parts report. `htmlText` is the HTML part's visible text as the engine's plain-text report extracts
 * it (the analysis has it already), so the text alternative is compared with what a reader sees.
 */
export function buildPartsReport(message: ParsedMessage, htmlText: string | null): MessagePartsReport {
  const cids = cidReferences(message.html.content);
  const similarity = message.text && htmlText !== null ? textSimilarity(message.text.content, htmlText) : null;
  const context: PartRuleContext = { message, cids, similarity };
  return {
    html: { path: message.html.path, bytes: message.html.bytes, charset: message.html.charset, clippedByGmail: message.html.bytes > GMAIL_CLIP_LIMIT_BYTES },
    text: message.text ? { path: message.text.path, bytes: message.text.bytes, similarity: similarity ?? 0 } : null,
    attachments: message.resources.filter((part) => !isInlineImage(part)).map(publicPart),
    inlineImages: message.resources
      .filter(isInlineImage)
      .map((part) => ({ ...publicPart(part), referenced: part.contentId !== null && cids.includes(part.contentId) })),
    unresolvedCids: cids.filter((cid) => !message.resources.some((part) => part.contentId === cid)),
    findings: PART_RULES.flatMap((rule) => rule(context)),
  };
}
