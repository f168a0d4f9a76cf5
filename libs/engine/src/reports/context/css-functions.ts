/**
 * The CSS functions a color value can hide behind, resolved as a browser computes them: `var()` (with its
 * fallback) and `light-dark()`. Whether a client keeps such a declaration at all is the per-client drop
 * masks' question (caniemail's `css-variables` and `css-function-light-dark`), not this file's.
 */

/** Custom properties substituted into each other at most this deep (a cycle is invalid, as in CSS). */
const MAX_SUBSTITUTION_DEPTH = 8;

/** The arguments of a function call starting at `open` (the index of its '('), split on top-level commas. */
export function readArguments(value: string, open: number): { args: string[]; end: number } | null {
  const args: string[] = [];
  let depth = 0;
  let start = open + 1;
  for (let i = open + 1; i < value.length; i++) {
    const char = value[i];
    if (char === '(') depth++;
    else if (char === ')') {
      if (depth === 0) {
        args.push(value.slice(start, i));
        return { args, end: i + 1 };
      }
      depth--;
    } else if (char === ',' && depth === 0) {
      args.push(value.slice(start, i));
      start = i + 1;
    }
  }
  return null;
}

/** Replaces every call of `name(` in `value` with what `replace` makes of its arguments; null when one fails. */
function replaceCalls(value: string, name: string, replace: (args: string[]) => string | null): string | null {
  let result = '';
  let from = 0;
  for (let at = value.indexOf(`${name}(`, from); at !== -1; at = value.indexOf(`${name}(`, from)) {
    // Only the function itself, not a longer identifier ending in its name.
    if (at > 0 && /[\w-]/.test(value[at - 1])) {
      result += value.slice(from, at + name.length + 1);
      from = at + name.length + 1;
      continue;
    }
    const call = readArguments(value, at + name.length);
    if (!call) return null;
    const replacement = replace(call.args);
    if (replacement === null) return null;
    result += value.slice(from, at) + replacement;
    from = call.end;
  }
  return result + value.slice(from);
}

/**
 * Substitutes `var(--name, fallback)` with the custom property's value as `lookup` finds it (inherited,
 * lower-cased names), else its fallback. Null when a variable has neither: the declaration is then
 * invalid at computed-value time and the property computes to its unset value.
 */
export function substituteVariables(value: string, lookup: (name: string) => string | undefined, depth = 0): string | null {
  if (!value.includes('var(')) return value;
  if (depth >= MAX_SUBSTITUTION_DEPTH) return null;
  return replaceCalls(value, 'var', (args) => {
    const name = args[0].trim().toLowerCase();
    const found = lookup(name);
    const chosen = found !== undefined && found.trim() !== '' ? found : args.length > 1 ? args.slice(1).join(',') : undefined;
    if (chosen === undefined) return null;
    return substituteVariables(chosen.trim(), lookup, depth + 1);
  });
}

/** `light-dark(a, b)` as `a` in a light color scheme and `b` in a dark one. */
export function resolveLightDark(value: string, dark: boolean): string | null {
  if (!value.includes('light-dark(')) return value;
  return replaceCalls(value, 'light-dark', (args) => (args.length === 2 ? resolveLightDark(args[dark ? 1 : 0].trim(), dark) : null));
}
