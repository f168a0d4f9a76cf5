import type { HtmlElement } from '../../parse/dom';
import { getAttribute, hasAttribute } from '../../parse/dom';
import type { ParsedEmail } from '../../parse/parse-email';
import { isDataTable } from '../../reports/context/data-table';
import type { FixCandidate, FixRefusal, FixRule, FixRuleOutput } from '../fix-model';
import { addAttributeEdit, elementLine, startTagRange } from '../source-ranges';

/** File names of spacer images: spacer.gif, blank.png, pixel.gif, clear.gif, shim.gif, transparent.png. */
const SPACER_NAME = /(?:^|[/_.-])(?:spacer|blank|pixel|clear|shim|transparent|spc)\d*\.(?:gif|png)(?:[?#]|$)/i;
/** An image this thin in either direction lays out space; it shows nothing a reader needs. */
const SPACER_MAX_PX = 2;

function firstElement(parsed: ParsedEmail, tag: string): HtmlElement | undefined {
  return parsed.elementsByTag.get(tag)?.[0];
}

function endTagStart(element: HtmlElement): number | undefined {
  return (element as { sourceCodeLocation?: { endTag?: { startOffset: number } } | null }).sourceCodeLocation?.endTag?.startOffset;
}

/**
 * Where new head elements go: after the last `<meta>` the head holds, else before `</head>`; undefined
 * when the email has no head written in it (a fragment: nothing is added).
 */
function headInsertionPoint(parsed: ParsedEmail): number | undefined {
  const head = firstElement(parsed, 'head');
  if (!head || !startTagRange(head)) return undefined;
  const metas = (parsed.elementsByTag.get('meta') ?? []).filter((meta) => meta.parentNode === head && startTagRange(meta));
  const lastMeta = metas[metas.length - 1];
  if (lastMeta) return startTagRange(lastMeta)?.endOffset;
  return endTagStart(head);
}

function hasMeta(parsed: ParsedEmail, name: string): boolean {
  return (parsed.elementsByTag.get('meta') ?? []).some((meta) => getAttribute(meta, 'name')?.trim().toLowerCase() === name);
}

function none(): FixRuleOutput {
  return { candidates: [], refusals: [] };
}

/** `role="presentation"` on layout tables: screen readers stop announcing rows and columns. */
export const layoutTableRole: FixRule = {
  id: 'layout-table-role',
  tier: 'safe',
  resolves: [{ report: 'accessibility', rule: 'layout-table-missing-role' }],
  find({ parsed, report }) {
    const candidates: FixCandidate[] = [];
    const refusals: FixRefusal[] = [];
    for (const table of parsed.elementsByTag.get('table') ?? []) {
      const line = elementLine(table);
      const role = getAttribute(table, 'role')?.trim().toLowerCase();
      if (role !== undefined) {
        // A role of the author's own (SendGrid's "module") is theirs to change; presentation and none are done.
        if (role !== 'presentation' && role !== 'none')
          refusals.push({ rule: this.id, line, reason: `the table has role="${role}" of its own; it is left as written` });
        continue;
      }
      // The accessibility report's rule: header cells, a caption, scope, summary or borders make a data table.
      if (isDataTable(table, report.styles)) {
        refusals.push({ rule: this.id, line, reason: 'a data table (header cells, caption, scope or borders) keeps its table semantics' });
        continue;
      }
      const edit = addAttributeEdit(parsed.source, table, 'role="presentation"');
      if (edit) candidates.push({ rule: this.id, line, edits: [edit], description: 'role="presentation" on a layout table' });
    }
    return { candidates, refusals };
  },
};

/** `alt=""` on tracking pixels and spacers; a content image without alt gets a suggestion, never a guess. */
export const decorativeImageAlt: FixRule = {
  id: 'decorative-image-alt',
  tier: 'safe',
  resolves: [{ report: 'accessibility', rule: 'img-missing-alt' }],
  find({ parsed, report }) {
    const candidates: FixCandidate[] = [];
    const refusals: FixRefusal[] = [];
    for (const image of report.images) {
      if (image.kind !== 'img' || image.alt !== null) continue;
      const line = elementLine(image.element);
      const thin = (image.width !== null && image.width <= SPACER_MAX_PX) || (image.height !== null && image.height <= SPACER_MAX_PX);
      if (!image.isTrackingPixel && !thin && !SPACER_NAME.test(image.src)) {
        refusals.push({
          rule: this.id,
          line,
          reason: 'suggestion only: a content image needs alt text that says what it shows (or alt="" when it only decorates); only its author knows which',
        });
        continue;
      }
      const edit = addAttributeEdit(parsed.source, image.element, 'alt=""');
      if (edit)
        candidates.push({ rule: this.id, line, edits: [edit], description: `alt="" on a ${image.isTrackingPixel ? 'tracking pixel' : 'spacer image'}` });
    }
    return { candidates, refusals };
  },
};

const OFFICE_SETTINGS =
  '<!--[if mso]><xml><o:OfficeDocumentSettings><o:AllowPNG/><o:PixelsPerInch>96</o:PixelsPerInch></o:OfficeDocumentSettings></xml><![endif]-->';
const VML_NAMESPACE = 'xmlns:v="urn:schemas-microsoft-com:vml"';
const OFFICE_NAMESPACE = 'xmlns:o="urn:schemas-microsoft-com:office:office"';

/**
 * Word's document settings (96 DPI, so images keep their size on high-DPI Windows; PNG allowed) and the
 * VML and Office namespaces on `<html>`: read only by Outlook's Word engine.
 */
export const officeDocumentSettings: FixRule = {
  id: 'office-document-settings',
  tier: 'safe',
  resolves: [
    { report: 'vml', rule: 'missing-pixels-per-inch' },
    { report: 'vml', rule: 'missing-office-namespace' },
    { report: 'vml', rule: 'missing-vml-namespace' },
  ],
  helps: ['outlook-windows', 'outlook-windows-legacy'],
  find({ parsed }) {
    const candidates: FixCandidate[] = [];
    const html = firstElement(parsed, 'html');
    if (html && startTagRange(html)) {
      const missing = [hasAttribute(html, 'xmlns:v') ? '' : VML_NAMESPACE, hasAttribute(html, 'xmlns:o') ? '' : OFFICE_NAMESPACE].filter(Boolean);
      const edit = missing.length > 0 ? addAttributeEdit(parsed.source, html, missing.join(' ')) : undefined;
      if (edit) candidates.push({ rule: this.id, line: elementLine(html), edits: [edit], description: 'the VML and Office namespaces on <html>' });
    }
    const head = firstElement(parsed, 'head');
    const headEnd = head ? endTagStart(head) : undefined;
    const hasSettings = parsed.comments.some((comment) => /PixelsPerInch/i.test(comment.data));
    if (head && headEnd !== undefined && !hasSettings) {
      candidates.push({
        rule: this.id,
        line: elementLine(head),
        edits: [{ start: headEnd, end: headEnd, text: `${OFFICE_SETTINGS}\n` }],
        description: "Word's document settings: 96 DPI and PNG allowed",
      });
    }
    return { candidates, refusals: [] };
  },
};

/** Stops Apple Mail on iOS from scaling the email's text and layout on its own. */
export const appleReformattingMeta: FixRule = {
  id: 'apple-reformatting-meta',
  tier: 'safe',
  resolves: [],
  helps: ['apple-mail-ios', 'apple-mail-macos'],
  find({ parsed }) {
    if (hasMeta(parsed, 'x-apple-disable-message-reformatting')) return none();
    const at = headInsertionPoint(parsed);
    if (at === undefined) return none();
    return {
      candidates: [
        {
          rule: this.id,
          line: elementLine(firstElement(parsed, 'head') as HtmlElement),
          edits: [{ start: at, end: at, text: '\n<meta name="x-apple-disable-message-reformatting">' }],
          description: 'the x-apple-disable-message-reformatting meta',
        },
      ],
      refusals: [],
    };
  },
};

function hasDarkModeRules(parsed: ParsedEmail): boolean {
  return parsed.styleSheets.some((sheet) => /prefers-color-scheme\s*:\s*dark/i.test(sheet.text));
}

/**
 * The color-scheme metas, only when the email already has dark-mode rules: they tell Apple Mail and
 * others that those rules are meant, so the client applies them instead of inverting the email.
 */
export const colorSchemeMeta: FixRule = {
  id: 'color-scheme-meta',
  tier: 'safe',
  resolves: [],
  helps: ['apple-mail-ios', 'apple-mail-macos', 'outlook-macos', 'hey-mail'],
  find({ parsed }) {
    if (!hasDarkModeRules(parsed) || hasMeta(parsed, 'color-scheme')) return none();
    const at = headInsertionPoint(parsed);
    if (at === undefined) return none();
    const metas = hasMeta(parsed, 'supported-color-schemes')
      ? '\n<meta name="color-scheme" content="light dark">'
      : '\n<meta name="color-scheme" content="light dark">\n<meta name="supported-color-schemes" content="light dark">';
    return {
      candidates: [
        {
          rule: this.id,
          line: elementLine(firstElement(parsed, 'head') as HtmlElement),
          edits: [{ start: at, end: at, text: metas }],
          description: 'the color-scheme metas for the dark-mode rules the email already has',
        },
      ],
      refusals: [],
    };
  },
};
