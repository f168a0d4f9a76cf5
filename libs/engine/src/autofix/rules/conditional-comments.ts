import type { HtmlComment } from '../../parse/dom';
import type { FixCandidate, FixRule, TextEdit } from '../fix-model';
import { lineAt } from '../text-edits';

/** What a condition may hold: `mso`, `gte mso 9`, `!mso`, `(mso)|(IE)`, `mso | IE`. */
const CONDITION_TEXT = /^[\w\s!()|&.]+$/;

interface CommentRepair {
  edits: TextEdit[];
  what: string[];
}

function rangeOf(comment: HtmlComment): { start: number; end: number } | undefined {
  const location = (comment as { sourceCodeLocation?: { startOffset: number; endOffset: number } | null }).sourceCodeLocation;
  return location ? { start: location.startOffset, end: location.endOffset } : undefined;
}

/** `<!-- [if mso]>` → `<!--[if mso]>`, `<!--[if mso\n  ]>` → `<!--[if mso]>`: Outlook reads the condition only when it is written tight. */
function repairOpener(raw: string, at: number, repair: CommentRepair): number {
  const opener = /^<!--(\s*)\[if(\s+)([^\]]*?)(\s*)\]>/i.exec(raw);
  if (!opener || !CONDITION_TEXT.test(opener[3])) return 0;
  if (opener[1] !== '') {
    repair.edits.push({ start: at + 4, end: at + 4 + opener[1].length, text: '' });
    repair.what.push('space after <!-- removed');
  }
  const condition = opener[3].replace(/\s+/g, ' ');
  if (opener[2] !== ' ' || opener[4] !== '' || condition !== opener[3]) {
    const from = at + 4 + opener[1].length;
    repair.edits.push({ start: from, end: at + opener[0].length, text: `[if ${condition}]>` });
    repair.what.push('condition written on one line');
  }
  return opener[0].length;
}

/** The closers of an `[if …]>` comment: `<!\n [endif]` → `<![endif]`, `<![endif]/-->` → `<![endif]-->`, `<!--[endif]-->` → `<![endif]-->`. */
function repairCloser(raw: string, at: number, repair: CommentRepair): void {
  const broken = /<!(\s+)\[endif\]/gi;
  for (let match = broken.exec(raw); match; match = broken.exec(raw)) {
    repair.edits.push({ start: at + match.index + 2, end: at + match.index + 2 + match[1].length, text: '' });
    repair.what.push('<![endif] written on one line');
  }
  const slash = /<!\[endif\](\s*\/\s*)-->$/i.exec(raw);
  if (slash) {
    const from = at + slash.index + '<![endif]'.length;
    repair.edits.push({ start: from, end: from + slash[1].length, text: '' });
    repair.what.push('<![endif]/--> written <![endif]-->');
  }
  const commentCloser = /<!--\[endif\]-->$/i.exec(raw);
  if (commentCloser && !/<!\s*\[endif\]/i.test(raw.slice(0, commentCloser.index))) {
    repair.edits.push({ start: at + commentCloser.index + 2, end: at + commentCloser.index + 4, text: '' });
    repair.what.push('<!--[endif]--> written <![endif]-->');
  }
}

/**
 * `<![endif]>` (without `--`) ends no comment, so the comment runs on to the next `-->`: repaired only when
 * what it swallowed is whitespace and one more conditional comment's start, so no text or link appears.
 */
function repairUnclosedEndif(raw: string, at: number, repair: CommentRepair): void {
  const endif = /<!\[endif\]>/i.exec(raw);
  if (!endif) return;
  const tail = raw.slice(endif.index + endif[0].length, raw.length - 3);
  // The `-->` that ends the comment today must end that next conditional comment once this one is closed.
  if (!/^\s*<!--\[if [^\]]*\]>(?:(?!<!--)[\s\S])*<!\[endif\]\s*$/i.test(tail)) return;
  const from = at + endif.index + endif[0].length - 1;
  repair.edits.push({ start: from, end: from, text: '--' });
  repair.what.push('<![endif]> written <![endif]-->');
}

/**
 * Malformed Outlook conditional comments repaired where the intent is certain: a line break or stray space
 * in `<!--[if mso]>` (react-email #1813 and #2373, mjml #2835), `<!\n[endif]-->`, `<![endif]/-->` (jsx-email
 * #403), `<!--[endif]-->` for `<![endif]-->` or `<!--<![endif]-->`, and `<![endif]>` without its `--`.
 * Anything else is left as written.
 */
export const conditionalCommentRepair: FixRule = {
  id: 'conditional-comment-repair',
  tier: 'safe',
  resolves: [
    { report: 'vml', rule: 'unterminated-conditional' },
    { report: 'vml', rule: 'unbalanced-conditional' },
  ],
  helps: ['outlook-windows', 'outlook-windows-legacy'],
  find({ parsed }) {
    const candidates: FixCandidate[] = [];
    let revealedOpen = 0;
    for (const comment of parsed.comments) {
      const range = rangeOf(comment);
      if (!range) continue;
      const raw = parsed.source.slice(range.start, range.end);
      if (!raw.startsWith('<!--') || !raw.endsWith('-->')) continue;
      const repair: CommentRepair = { edits: [], what: [] };
      if (/^<!--\s*\[if[^\]]*\]><!-->$/i.test(raw)) {
        // `<!--[if !mso]><!-->` shows what follows to every client but Outlook.
        revealedOpen++;
        repairOpener(raw, range.start, repair);
      } else if (/^<!--\s*<!\s*\[endif\]\s*-->$/i.test(raw)) {
        revealedOpen = Math.max(0, revealedOpen - 1);
        repairCloser(raw, range.start, repair);
        if (raw[4] !== '<') {
          repair.edits.push({ start: range.start + 4, end: range.start + 4 + (/^\s*/.exec(raw.slice(4))?.[0].length ?? 0), text: '' });
          repair.what.push('space after <!-- removed');
        }
      } else if (/^<!--\s*\[endif\]\s*-->$/i.test(raw) && revealedOpen > 0) {
        revealedOpen--;
        repair.edits.push({ start: range.start + 4, end: range.start + 4, text: '<!' });
        repair.what.push('<!--[endif]--> written <!--<![endif]-->');
      } else if (repairOpener(raw, range.start, repair) > 0 || /^<!--\[if/i.test(raw)) {
        repairCloser(raw, range.start, repair);
        repairUnclosedEndif(raw, range.start, repair);
      }
      if (repair.edits.length === 0) continue;
      repair.edits.sort((a, b) => a.start - b.start);
      candidates.push({
        rule: this.id,
        line: lineAt(parsed, range.start),
        edits: repair.edits,
        description: `conditional comment repaired: ${[...new Set(repair.what)].join(', ')}`,
      });
    }
    return { candidates, refusals: [] };
  },
};
