/**
 * The subject and preview text as inbox lists show them. Clients build the preview ("preheader") from
 * the body's text in source order, hidden text included and CSS ignored, which is why a hidden preheader
 * works and why it is padded with invisible characters: the padding stops body text leaking in.
 */
import { BLOCK_TAGS, type EmailNode } from './parsed-email';
import { INBOX_LIMITS, type ReportClientId, isReportClientId } from './report-clients';
import type { ReportContext } from './report-context';
import { sortIssues, type ReportIssue } from './report-issue';
import { collapseWhitespace, foldForMatching, graphemeCount, graphemesOf, isInvisibleChar, truncateGraphemes } from './text-utils';

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
  'view this email in your browser', 'view in browser', 'view online', 'view this email online', 'having trouble viewing',
  'click here to view', 'if you cannot see this', "if you can't see this", 'email not displaying correctly', 'unsubscribe',
  'web version', 'im browser ansehen', 'online ansehen', 'voir la version en ligne', 'afficher dans le navigateur',
  'ver en el navegador', 'ver version web', 'visualizza nel browser', 'bekijk in je browser', 'bekijk online',
];

interface PreviewText {
  text: string;
  source: 'hidden' | 'body' | null;
  padded: boolean;
  hiddenLength: number;
}

/** Reads body text in source order until the preview window is full or padding ends it. */
function readPreviewText(context: ReportContext): PreviewText {
  const { parsed, style } = context;
  if (!parsed.body) return { text: '', source: null, padded: false, hiddenLength: 0 };
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
  const stack: EmailNode[] = [...parsed.body.children].reverse();
  outer: while (stack.length > 0) {
    const node = stack.pop()!;
    if (node.kind === 'element') {
      if (node.tag === 'script' || node.tag === 'style' || node.tag === 'template' || node.tag === 'title') continue;
      if (BLOCK_TAGS.has(node.tag)) appendSpace();
      for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i]);
      continue;
    }
    if (node.kind !== 'text') continue;
    const hidden = style.hiddenReason(node.parent) !== null || style.fontSizePx(node.parent) < 2;
    for (const char of node.value) {
      if (isInvisibleChar(char)) {
        invisibleRun++;
        if (invisibleRun >= PADDING_RUN && visibleChars > 0) {
          padded = true;
          break outer;
        }
        continue;
      }
      if (/\s/.test(char)) {
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
  const preheaderSegments = graphemesOf(preview.text, PREVIEW_WINDOW);
  const preheaderFull = preview.text || null;
  const preheader = preheaderFull ? truncateGraphemes(preheaderSegments, PREVIEW_WINDOW).text : null;
  const subjectSegments = subject ? graphemesOf(subject) : [];

  const clients: Record<string, InboxClientPreview> = {};
  for (const id of [...context.clients].sort()) {
    if (!isReportClientId(id)) continue;
    const limits = INBOX_LIMITS[id as ReportClientId];
    const cutSubject = subject ? truncateGraphemes(subjectSegments, limits.subject) : null;
    const cutPreheader = preheaderFull && limits.preheader > 0 ? truncateGraphemes(preheaderSegments, limits.preheader) : null;
    clients[id] = {
      subject: cutSubject ? cutSubject.text : null,
      preheader: cutPreheader ? cutPreheader.text : null,
      subjectTruncated: cutSubject?.truncated ?? false,
      preheaderTruncated: cutPreheader?.truncated ?? false,
      subjectLimit: limits.subject,
      preheaderLimit: limits.preheader,
    };
  }

  const subjectLength = subjectSegments.length;
  if (!subject) {
    issues.push({ rule: 'missing-subject', severity: 'info', message: 'No <title>: the subject line is set by your sending tool, so it cannot be previewed from the HTML.' });
  } else {
    if (subjectLength > 60) {
      const cutBy = Object.entries(clients).filter(([, client]) => client.subjectTruncated).map(([id]) => id);
      issues.push({ rule: 'subject-too-long', severity: 'warning', message: `The subject (<title>) is ${subjectLength} characters; ${cutBy.length > 0 ? `${cutBy.join(', ')} cut it` : 'mobile inboxes cut it'}. Aim for under about 40-60.` });
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
      issues.push({ rule: 'preheader-boilerplate', severity: 'warning', message: `The preview text starts with "${preheaderFull.slice(0, 40)}"; add a hidden preheader so inboxes show a summary instead.` });
    }
    if (preview.source === 'body') {
      issues.push({ rule: 'missing-preheader', severity: 'info', message: 'No hidden preheader: inboxes show the first text of the body as the preview.' });
    } else if (!preview.padded && preview.hiddenLength < 90) {
      issues.push({ rule: 'preheader-unpadded', severity: 'info', message: `The hidden preheader is ${preview.hiddenLength} characters and not padded; wider inbox lists fill the rest with body text. Pad it with &zwnj;&nbsp; pairs.` });
    }
    if (preview.source === 'hidden' && preview.hiddenLength > 150) {
      issues.push({ rule: 'preheader-too-long', severity: 'info', message: `The hidden preheader is ${preview.hiddenLength} characters; no inbox shows more than about 140.` });
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
