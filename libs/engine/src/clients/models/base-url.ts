import { HtmlElement, getAttribute, isElement } from '../../parse/dom';
import type { ParsedEmail } from '../../parse/parse-email';

/** The attributes that hold a URL a `<base>` resolves, by tag. */
const URL_ATTRIBUTES: ReadonlyMap<string, readonly string[]> = new Map([
  ['a', ['href']],
  ['area', ['href']],
  ['img', ['src']],
  ['body', ['background']],
  ['table', ['background']],
  ['tr', ['background']],
  ['td', ['background']],
  ['th', ['background']],
]);

/** A URL with a scheme, protocol-relative, or a link to an anchor of the message: no base changes it. */
const NOT_RELATIVE = /^(?:[a-z][a-z0-9+.-]*:|\/\/|#)/i;

export interface RelativeUrl {
  element: HtmlElement;
  attribute: string;
  value: string;
}

/** The email's relative URLs in link, image and background attributes, in document order. */
export function relativeUrls(parsed: ParsedEmail): RelativeUrl[] {
  const found: RelativeUrl[] = [];
  for (const element of parsed.elements) {
    const names = URL_ATTRIBUTES.get(element.tagName);
    if (!names) continue;
    for (const attribute of names) {
      const value = getAttribute(element, attribute)?.trim();
      if (value && !NOT_RELATIVE.test(value)) found.push({ element, attribute, value });
    }
  }
  return found;
}

/** The `<base href>` elements of the email in document order, with whether each sits in `<body>`. */
export function baseElements(parsed: ParsedEmail): Array<{ href: string; inBody: boolean }> {
  return (parsed.elementsByTag.get('base') ?? [])
    .filter((base) => getAttribute(base, 'href')?.trim())
    .map((base) => ({ href: (getAttribute(base, 'href') ?? '').trim(), inBody: insideBody(base) }));
}

function insideBody(element: HtmlElement): boolean {
  for (let node = element.parentNode; node && isElement(node); node = node.parentNode) if (node.tagName === 'body') return true;
  return false;
}

/** What a browser resolves relative URLs against: the first `<base href>` of the document. */
export function browserBase(parsed: ParsedEmail): string | undefined {
  return baseElements(parsed)[0]?.href;
}

/** `value` resolved against `base`; the value itself when either is not a URL a browser would read. */
export function resolveAgainst(value: string, base: string): string {
  try {
    return new URL(value, base).href;
  } catch {
    return value;
  }
}

/** The first or last `<base href>` inside `<body>`, else the document's (where the client keeps a base in the head too). */
export function bodyBase(which: 'first' | 'last'): (parsed: ParsedEmail) => string | undefined {
  return (parsed) => {
    const bases = baseElements(parsed);
    const inBody = bases.filter((b) => b.inBody);
    const pool = inBody.length > 0 ? inBody : bases;
    return (which === 'first' ? pool[0] : pool[pool.length - 1])?.href;
  };
}
