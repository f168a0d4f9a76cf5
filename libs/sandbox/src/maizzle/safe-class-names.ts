/**
 * Maizzle's `safeClassNames`: characters some email clients choke on in class names are replaced, in
 * the class attributes and in the selectors left in <style> (media queries, pseudo-classes).
 */
const REPLACEMENTS: Record<string, string> = {
  ':': '-',
  '/': '-',
  '.': '_',
  '%': 'pc',
  '#': '_',
  '[': '',
  ']': '',
  '(': '',
  ')': '',
  '{': '',
  '}': '',
  '!': 'i-',
  ',': '_',
  "'": '',
  '"': '',
  '=': '-',
  '&': 'and-',
  '+': 'plus-',
  '*': 'x',
  '@': 'at-',
  '~': '-',
  '<': 'lt-',
  '>': 'gt-',
  '?': '',
  $: '',
  '\\': '',
};
const UNSAFE = /[:/.%#[\](){}!,'"=&+*@~<>?$\\]/g;

export function safeClassName(name: string): string {
  return name.replace(UNSAFE, (character) => REPLACEMENTS[character] ?? '');
}

export function toSafeClassNames(html: string): string {
  const withSafeAttributes = html.replace(/(\sclass\s*=\s*)(["'])([^"']*)\2/gi, (_match, prefix: string, quote: string, value: string) => {
    const classes = value.split(/\s+/).map((name) => (name.includes('{{') ? name : safeClassName(name)));
    return `${prefix}${quote}${classes.join(' ')}${quote}`;
  });
  return withSafeAttributes.replace(/(<style\b[^>]*>)([\s\S]*?)(<\/style\s*>)/gi, (_match, open: string, css: string, close: string) => {
    return `${open}${css.replace(/\.((?:[\w-]|\\[^\n])+)/g, (selector, name: string) => (name.includes('\\') ? `.${safeClassName(unescapeCss(name))}` : selector))}${close}`;
  });
}

function unescapeCss(name: string): string {
  return name.replace(/\\([0-9a-fA-F]{1,6})\s?/g, (_match, hex: string) => String.fromCodePoint(parseInt(hex, 16))).replace(/\\(.)/g, '$1');
}
