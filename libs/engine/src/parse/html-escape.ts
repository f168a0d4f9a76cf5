// HTML escaping of text and attribute values, for everything that writes HTML back (the render template,
// the client models' views): a string utility under every layer that renders.
const NEEDS_ATTRIBUTE_ESCAPE = /[&"\u00a0]/;

export function escapeAttributeValue(value: string): string {
  return NEEDS_ATTRIBUTE_ESCAPE.test(value)
    ? value
        .replace(/&/g, '&amp;')
        .replace(/"/g, '&quot;')
        .replace(/\u00a0/g, '&nbsp;')
    : value;
}

export function escapeText(value: string): string {
  return /[&<>\u00a0]/.test(value)
    ? value
        .replace(/&/g, '&amp;')
        .replace(/</g, '&lt;')
        .replace(/>/g, '&gt;')
        .replace(/\u00a0/g, '&nbsp;')
    : value;
}
