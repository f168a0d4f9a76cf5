/**
 * The subject and preview text as inbox lists show them. Clients build the preview ("preheader") from
 * the body's text in source order, hidden text included and CSS ignored, which is why a hidden preheader
 * works and why it is padded with invisible characters: the padding stops body text leaking in.
 */
import { INBOX_LIMITS } from '../clients/inbox-limits';
import { HtmlElement, HtmlNode, childrenOf, isElement, isText } from '../parse/dom';
import type { ReportContext } from './context/report-context';
import { BLOCK_TAGS } from './context/report-document';
import { sortIssues, type ReportIssue } from './context/report-issue';
import { GraphemeText, collapseWhitespace, foldForMatching, graphemeCount, isInvisibleChar } from './context/text-utils';

export interface InboxClientPreview {
  subject: string | null;
  preheader: string | null;
  subjectTruncated: boolean;
  preheaderTruncated: boolean;
  subjectLimit: number;
  preheaderLimit: number;
}

export interface InboxPreview {
  subject: string | null;
  preheader: string | null;
  /** Sender name and address are not part of the HTML; null unless the caller knows them. */
  sender: null;
  subjectLength: number;
  preheaderLength: number;
  /** Where the preheader came from: a hidden preview-text element, or the first body text. */
  preheaderSource: 'hidden' | 'body' | null;
  clients: Record<string, InboxClientPreview>;
  issues: ReportIssue[];
}

/** Enough text for the widest list (Apple Mail, 140) with room to spare. */
const PREVIEW_WINDOW = 200;
/** This many invisible characters in a row is preheader padding: clients show nothing after it. */
const PADDING_RUN = 5;
const BOILERPLATE_STARTS = [
  'view this email in your browser',
  'view in browser',
  'view online',
  'view this email online',
  'having trouble viewing',
  'click here to view',
  'if you cannot see this',
  "if you can't see this",
  'email not displaying correctly',
  'unsubscribe',
  'web version',
  'im browser ansehen',
  'online ansehen',
  'voir la version en ligne',
  'afficher dans le navigateur',
  'ver en el navegador',
  'ver version web',
  'visualizza nel browser',
  'bekijk in je browser',
  'bekijk online',
];

interface PreviewText {
  text: string;
  source: 'hidden' | 'body' | null;
  padded: boolean;
  hiddenLength: number;
}

/** A text node of ASCII white space only: indentation between tags. */
const ASCII_BLANK = /^[ \t\n\r\f]+$/;

/** White space as `\s` matches it, by code unit (the per-character regex was the hot spot here). */
function isWhitespaceCode(code: number): boolean {
  return (
    code === 32 ||
    (code >= 9 && code <= 13) ||
    code === 0xa0 ||
    code === 0x1680 ||
    (code >= 0x2000 && code <= 0x200a) ||
    code === 0x2028 ||
    code === 0x2029 ||
    code === 0x202f ||
    code === 0x205f ||
    code === 0x3000 ||
    code === 0xfeff
  );
}

/** Reads body text in source order until the preview window is full or padding ends it. */
function readPreviewText(context: ReportContext): PreviewText {
  const { doc, styles } = context;
  if (!doc.body) return { text: '', source: null, padded: false, hiddenLength: 0 };
  // White space is collapsed while reading, so the buffer stays as small as the preview itself.
  let raw = '';
  let lastWasSpace = true;
  let visibleChars = 0;
  let invisibleRun = 0;
  let padded = false;
  let firstTextHidden: boolean | null = null;
  let hiddenText = '';
  let visibleSeen = false;
  const appendSpace = (): void => {
    if (!lastWasSpace) {
      raw += ' ';
      lastWasSpace = true;
    }
  };
  const stack: HtmlNode[] = [...childrenOf(doc.body)].reverse();
  outer: while (stack.length > 0) {
    const node = stack.pop()!;
    if (isElement(node)) {
      const tag = node.tagName;
      if (tag === 'script' || tag === 'style' || tag === 'template' || tag === 'title') continue;
      if (BLOCK_TAGS.has(tag)) appendSpace();
      const children = childrenOf(node);
      for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]);
      continue;
    }
    if (!isText(node)) continue;
    const parent = node.parentNode as HtmlElement;
    const isHidden = (): boolean => styles.hiddenReason(parent) !== null || styles.fontSizePx(parent) < 2;
    // Indentation between tags: one space, character by character or at once (both are collapsed at the end).
    if (ASCII_BLANK.test(node.value)) {
      appendSpace();
      if (firstTextHidden && !visibleSeen && isHidden()) hiddenText += ' ';
      continue;
    }
    const hidden = isHidden();
    for (const char of node.value) {
      if (char.length === 1 && char.charCodeAt(0) < 0x80 && char !== ' ' && char.charCodeAt(0) > 13) {
        // Plain ASCII: neither invisible nor white space.
        invisibleRun = 0;
        if (firstTextHidden === null) firstTextHidden = hidden;
        if (!hidden) visibleSeen = true;
        if (hidden && firstTextHidden && !visibleSeen) hiddenText += char;
        raw += char;
        lastWasSpace = false;
        visibleChars++;
        if (visibleChars >= PREVIEW_WINDOW) break outer;
        continue;
      }
      if (isInvisibleChar(char)) {
        invisibleRun++;
        if (invisibleRun >= PADDING_RUN && visibleChars > 0) {
          padded = true;
          break outer;
        }
        continue;
      }
      if (isWhitespaceCode(char.charCodeAt(0))) {
        appendSpace();
        if (hidden && firstTextHidden && !visibleSeen) hiddenText += ' ';
        continue;
      }
      invisibleRun = 0;
      if (firstTextHidden === null) firstTextHidden = hidden;
      if (!hidden) visibleSeen = true;
      if (hidden && firstTextHidden && !visibleSeen) hiddenText += char;
      raw += char;
      lastWasSpace = false;
      visibleChars++;
      if (visibleChars >= PREVIEW_WINDOW) break outer;
    }
  }
  const text = collapseWhitespace(raw);
  return {
    text,
    source: text ? (firstTextHidden ? 'hidden' : 'body') : null,
    padded,
    hiddenLength: graphemeCount(collapseWhitespace(hiddenText)),
  };
}

export function buildInboxPreview(context: ReportContext): InboxPreview {
  const issues: ReportIssue[] = [];
  const subject = context.title;
  const preview = readPreviewText(context);
  const preheaderText = new GraphemeText(preview.text);
  const preheaderFull = preview.text || null;
  const preheader = preheaderFull ? preheaderText.truncate(PREVIEW_WINDOW).text : null;
  const subjectText = new GraphemeText(subject ?? '');

  const clients: Record<string, InboxClientPreview> = {};
  for (const id of [...context.clients].sort()) {
    const limits = INBOX_LIMITS[id];
    const cutSubject = subject ? subjectText.truncate(limits.subject) : null;
    const cutPreheader = preheaderFull && limits.preheader > 0 ? preheaderText.truncate(limits.preheader) : null;
    clients[id] = {
      subject: cutSubject ? cutSubject.text : null,
      preheader: cutPreheader ? cutPreheader.text : null,
      subjectTruncated: cutSubject?.truncated ?? false,
      preheaderTruncated: cutPreheader?.truncated ?? false,
      subjectLimit: limits.subject,
      preheaderLimit: limits.preheader,
    };
  }

  const subjectLength = subjectText.count;
  if (!subject) {
    issues.push({
      rule: 'missing-subject',
      severity: 'info',
      message: 'No <title>: the subject line is set by your sending tool, so it cannot be previewed from the HTML.',
    });
  } else {
    if (subjectLength > 60) {
      const cutBy = Object.entries(clients)
        .filter(([, client]) => client.subjectTruncated)
        .map(([id]) => id);
      issues.push({
        rule: 'subject-too-long',
        severity: 'warning',
        message: `The subject (<title>) is ${subjectLength} characters; ${cutBy.length > 0 ? `${cutBy.join(', ')} cut it` : 'mobile inboxes cut it'}. Aim for under about 40-60.`,
      });
    }
    if (/\p{Extended_Pictographic}/u.test(subject)) {
      issues.push({ rule: 'emoji-in-subject', severity: 'info', message: 'The subject contains emoji; Outlook for Windows may show them as empty boxes.' });
    }
  }

  if (!preheaderFull) {
    issues.push({ rule: 'missing-preheader', severity: 'warning', message: 'The email has no text to show as preview text.' });
  } else {
    const folded = foldForMatching(preheaderFull);
    if (BOILERPLATE_STARTS.some((start) => folded.startsWith(start))) {
      issues.push({
        rule: 'preheader-boilerplate',
        severity: 'warning',
        message: `The preview text starts with "${preheaderFull.slice(0, 40)}"; add a hidden preheader so inboxes show a summary instead.`,
      });
    }
    if (preview.source === 'body') {
      issues.push({ rule: 'missing-preheader', severity: 'info', message: 'No hidden preheader: inboxes show the first text of the body as the preview.' });
    } else if (!preview.padded && preview.hiddenLength < 90) {
      issues.push({
        rule: 'preheader-unpadded',
        severity: 'info',
        message: `The hidden preheader is ${preview.hiddenLength} characters and not padded; wider inbox lists fill the rest with body text. Pad it with &zwnj;&nbsp; pairs.`,
      });
    }
    if (preview.source === 'hidden' && preview.hiddenLength > 150) {
      issues.push({
        rule: 'preheader-too-long',
        severity: 'info',
        message: `The hidden preheader is ${preview.hiddenLength} characters; no inbox shows more than about 140.`,
      });
    }
  }

  return {
    subject,
    preheader,
    sender: null,
    subjectLength,
    preheaderLength: preheader ? graphemeCount(preheader) : 0,
    preheaderSource: preview.source,
    clients,
    issues: sortIssues(issues),
  };
}
