/**
 * Class and id prefixing as webmail sanitizers do it (Outlook.com's `x_`, Yahoo's `yiv…`): every class
 * name of a `class` attribute and every `.name` / `#name` of a selector gets the prefix, so rules keep
 * matching the elements they matched. Text inside `[...]`, strings and escapes is left alone.
 */
export function prefixSelector(selector: string, classPrefix: string | undefined, idPrefix: string | undefined): string {
  if (!classPrefix && !idPrefix) return selector;
  // The text is copied in slices between the prefixes (not character by character: a selector built that way is
  // a deep chain of concatenations, flattened again by every memo that hashes it); none added, the selector itself.
  let out = '';
  let copiedTo = 0;
  let bracket = 0;
  let quote = '';
  for (let i = 0; i < selector.length; i++) {
    const char = selector[i];
    if (quote) {
      if (char === '\\') i++;
      else if (char === quote) quote = '';
      continue;
    }
    if (char === '"' || char === "'") quote = char;
    else if (char === '[') bracket++;
    else if (char === ']') bracket = Math.max(0, bracket - 1);
    else if (bracket === 0 && char === '\\') i++;
    else if (bracket === 0 && (char === '.' || char === '#') && startsName(selector.charCodeAt(i + 1)) && !endsNumber(selector, i)) {
      const add = char === '.' ? classPrefix : idPrefix;
      if (add) {
        out += selector.slice(copiedTo, i + 1) + add;
        copiedTo = i + 1;
      }
    }
  }
  return copiedTo === 0 ? selector : out + selector.slice(copiedTo);
}

/**
 * Whether the text before `end` ends with a number (`50.5%` in a keyframe selector), whose `.` is no class:
 * `th.large-12.first` ends with an identifier whose last character is a digit, and `.first` is a class.
 */
function endsNumber(selector: string, end: number): boolean {
  let start = end;
  while (start > 0 && isNameCharacter(selector.charCodeAt(start - 1))) start--;
  return start < end && isDigit(selector.charCodeAt(start));
}

// Character classes as code-unit tests: these run for every `.` and `#` of every selector of every prefixing
// client (a one-character regex test per step cost ~1% of an analysis).
const isDigit = (code: number): boolean => code >= 48 && code <= 57;
const isLetter = (code: number): boolean => (code >= 65 && code <= 90) || (code >= 97 && code <= 122);
/** `[-\w]`: a letter, digit, `_` or `-`. */
const isNameCharacter = (code: number): boolean => isLetter(code) || isDigit(code) || code === 95 || code === 45;
/** `[-_a-zA-Z\u00a0-\uffff\\]`: what can start a class or id name (NaN past the end: no). */
const startsName = (code: number): boolean => isLetter(code) || code === 45 || code === 95 || code === 92 || code >= 0xa0;

/** A `class` attribute's names with the prefix; `firstOnly` keeps only the first name (Word reads no other). */
export function prefixClassList(value: string, prefix: string | undefined, firstOnly: boolean): string {
  const names = value.split(/[\t\n\f\r ]+/).filter((name) => name.length > 0);
  const kept = firstOnly ? names.slice(0, 1) : names;
  return kept.map((name) => `${prefix ?? ''}${name}`).join(' ');
}
