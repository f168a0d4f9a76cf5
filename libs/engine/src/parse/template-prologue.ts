/**
 * Template syntax in front of the document and between head elements ("{% extends %}", "{{#if}}",
 * "<% %>" before `<!doctype>`, "{% block styles %}" inside `<head>`). An HTML parser reads it as text,
 * and text there ends the head: the WHATWG algorithm opens `<body>` at it, so the head's `<style>`,
 * `<title>` and `<meta>` land in the body and the document is parsed in quirks mode. The sending platform
 * replaces the syntax before any client sees the email, so the engine parses the markup with each such
 * tag blanked out (the same length, line breaks kept, so every position stays the submitted one) and
 * keeps the tags for the template report.
 */

/** A template tag blanked out before parsing: its text and where it starts in the submitted markup. */
export interface MaskedTemplateTag {
  offset: number;
  text: string;
}

/** Openers and closers of the template tags recognized here (Jinja/Liquid/Django/Nunjucks, Handlebars/Mustache, ERB/EJS). */
const TAG_CLOSERS: ReadonlyArray<[opener: string, closer: string]> = [
  ['{%', '%}'],
  ['{{', '}}'],
  ['{#', '#}'],
  ['<%', '%>'],
];
/** Longest tag looked for; longer "tags" are left as text. */
const MAX_TAG_LENGTH = 2000;
/** Head elements the scan steps over; anything else (body, content, text) ends the prologue. */
const HEAD_TAGS: ReadonlySet<string> = new Set(['html', 'head', 'meta', 'link', 'base', 'title', 'style', 'script', 'noscript']);
/** Elements whose content is text to the parser, stepped over up to their end tag. */
const RAW_TEXT_TAGS: ReadonlySet<string> = new Set(['title', 'style', 'script', 'noscript']);
const TAG_NAME = /^<\/?([A-Za-z][A-Za-z0-9-]*)/;

function isSpace(code: number): boolean {
  return code === 32 || code === 9 || code === 10 || code === 12 || code === 13;
}

/** End of a start or end tag from its `<` (quotes respected), or -1. */
function tagEnd(html: string, from: number): number {
  let quote = 0;
  for (let i = from + 1; i < html.length; i++) {
    const code = html.charCodeAt(i);
    if (quote !== 0) {
      if (code === quote) quote = 0;
    } else if (code === 34 || code === 39) quote = code;
    else if (code === 62) return i + 1;
  }
  return -1;
}

/**
 * The template tags that stand before a doctype or a head element: in front of the document and between
 * head elements. Tags after the last of those (in front of the body's content) stay: there they are text
 * of the body either way.
 */
export function findPrologueTemplateTags(html: string): MaskedTemplateTag[] {
  const tags: MaskedTemplateTag[] = [];
  /** How many of `tags` a doctype or head element follows. */
  let confirmed = 0;
  let at = 0;
  scan: while (at < html.length) {
    const code = html.charCodeAt(at);
    if (isSpace(code)) {
      at++;
      continue;
    }
    for (const [opener, closer] of TAG_CLOSERS) {
      if (!html.startsWith(opener, at)) continue;
      let close = html.indexOf(closer, at + 2);
      if (close === -1 || close - at > MAX_TAG_LENGTH) break scan;
      close += closer.length;
      // Handlebars' triple stash: {{{ name }}}.
      if (opener === '{{' && html.charCodeAt(close) === 125) close++;
      tags.push({ offset: at, text: html.slice(at, close) });
      at = close;
      continue scan;
    }
    if (code !== 60) break;
    if (html.startsWith('<!--', at)) {
      const end = html.indexOf('-->', at + 4);
      if (end === -1) break;
      at = end + 3;
      continue;
    }
    if (html.startsWith('<!', at) || html.startsWith('<?', at)) {
      const end = html.indexOf('>', at);
      if (end === -1) break;
      at = end + 1;
      confirmed = tags.length;
      continue;
    }
    const name = TAG_NAME.exec(html.slice(at, at + 20));
    if (!name) break;
    const tag = name[1].toLowerCase();
    if (!HEAD_TAGS.has(tag)) break;
    const end = tagEnd(html, at);
    if (end === -1) break;
    confirmed = tags.length;
    at = end;
    if (RAW_TEXT_TAGS.has(tag) && html.charCodeAt(at - 2) !== 47 && !name[0].startsWith('</')) {
      const closeTag = new RegExp(`</${tag}`, 'gi');
      closeTag.lastIndex = at;
      if (!closeTag.test(html)) break;
      at = closeTag.lastIndex - tag.length - 2;
    }
  }
  return tags.slice(0, confirmed);
}

/** The markup with each tag replaced by spaces (line breaks kept): same length, same lines and columns. */
export function blankTemplateTags(html: string, tags: readonly MaskedTemplateTag[]): string {
  let blanked = '';
  let from = 0;
  for (const tag of tags) {
    blanked += html.slice(from, tag.offset) + tag.text.replace(/[^\r\n]/g, ' ');
    from = tag.offset + tag.text.length;
  }
  return blanked + html.slice(from);
}
