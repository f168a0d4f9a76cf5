/**
 * SPF macros (RFC 7208 section 7): their syntax, and their expansion for an audit. An audit has a
 * domain but no message, so only the letters that name domains expand: `d` (the domain whose record
 * is being read) and `o` (the audited domain). The others (`s`, `l`, `i`, `p`, `v`, `h`) change with
 * every message; a term that uses them counts its lookup but cannot be followed.
 */

/** Letters allowed in domain-specs; `c`, `r` and `t` are only for exp= text (RFC 7208 7.1). */
const DOMAIN_LETTERS = 'slodiphv';
const ALL_LETTERS = 'slodiphvcrt';
const MACRO_EXPAND = /^(?:%\{([a-z])(\d*)(r?)([.\-+,/_=]*)\}|%%|%_|%-)/i;
/** toplabel of RFC 7208 section 7.1: not all digits; a hyphen never first or last. */
const DOMAIN_END = /\.(?:[a-z0-9]*[a-z][a-z0-9]*|[a-z0-9]+-[a-z0-9-]*[a-z0-9])\.?$/i;

/** macro-string: visible ASCII, every `%` starting a well-formed macro-expand (a DIGIT transformer is never 0). */
export function isMacroString(text: string, letters: string = ALL_LETTERS): boolean {
  for (let i = 0; i < text.length;) {
    if (text[i] === '%') {
      const macro = MACRO_EXPAND.exec(text.slice(i));
      if (!macro) return false;
      if (macro[1] !== undefined && (!letters.includes(macro[1].toLowerCase()) || /^0+$/.test(macro[2]))) return false;
      i += macro[0].length;
      continue;
    }
    const code = text.charCodeAt(i);
    if (code < 0x21 || code > 0x7e) return false;
    i++;
  }
  return true;
}

/** domain-spec: a macro-string that ends in a macro or in a "." and a top label (RFC 7208 7.1). */
export function isDomainSpec(text: string): boolean {
  if (text === '' || !isMacroString(text, DOMAIN_LETTERS)) return false;
  return DOMAIN_END.test(text) || /(?:%\{[^}]*\}|%%|%_|%-)$/.test(text);
}

export interface MacroContext {
  /** `d`: the domain whose record holds the term. */
  domain: string;
  /** `o`: the audited domain, the same through every include. */
  senderDomain: string;
}

/** One macro with its transformers: split on the delimiters, maybe reverse, keep the rightmost N parts. */
function transform(value: string, digits: string, reverse: string, delimiters: string): string {
  const separator = new RegExp(`[${(delimiters || '.').replace(/[-\]\\/]/g, '\\$&')}]`);
  let parts = value.split(separator);
  if (reverse) parts = parts.reverse();
  if (digits !== '') parts = parts.slice(-Number(digits));
  return parts.join('.');
}

/**
 * The domain a domain-spec names for this audit, or null when it depends on the message (a letter
 * other than d and o). Over-long results lose labels on the left until they fit 253 characters.
 */
export function expandDomainSpec(spec: string, context: MacroContext): string | null {
  let out = '';
  for (let i = 0; i < spec.length;) {
    if (spec[i] !== '%') {
      out += spec[i++];
      continue;
    }
    const macro = MACRO_EXPAND.exec(spec.slice(i)) as RegExpExecArray;
    i += macro[0].length;
    if (macro[0] === '%%') out += '%';
    else if (macro[0] === '%_') out += ' ';
    else if (macro[0] === '%-') out += '%20';
    else {
      const letter = macro[1].toLowerCase();
      if (letter !== 'd' && letter !== 'o') return null;
      out += transform(letter === 'd' ? context.domain : context.senderDomain, macro[2], macro[3], macro[4]);
    }
  }
  let name = out.toLowerCase().replace(/\.$/, '');
  while (name.length > 253 && name.includes('.')) name = name.slice(name.indexOf('.') + 1);
  return name;
}

/** A name DNS can be asked for: no empty label, none over 63 characters. */
export function isQueryableName(name: string): boolean {
  return name.length > 0 && name.length <= 253 && name.split('.').every((label) => label.length > 0 && label.length <= 63);
}
