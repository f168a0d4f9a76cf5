import { escapeHtml } from '../../shares/html-escape';

/** Markup that is already safe: made by `html` or `raw` only, never from a plain string. */
export class SafeHtml {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

type Interpolation = SafeHtml | string | number | boolean | null | undefined | readonly Interpolation[];

function render(value: Interpolation): string {
  if (value === null || value === undefined || value === false) return '';
  if (value instanceof SafeHtml) return value.value;
  if (Array.isArray(value)) return value.map(render).join('');
  return escapeHtml(value);
}

/**
 * The dashboard's only way to write markup: every interpolated value is escaped unless it is SafeHtml
 * (the result of another `html` template), so a user's title is text wherever it lands, including
 * attribute values (always double-quoted in the templates). Arrays are joined; null, undefined and
 * false render nothing, so `${cond && html`...`}` works.
 */
export function html(strings: TemplateStringsArray, ...values: Interpolation[]): SafeHtml {
  let out = strings[0];
  for (let i = 0; i < values.length; i++) out += render(values[i]) + strings[i + 1];
  return new SafeHtml(out);
}

/** Trusted markup made by code (the share page's report sections, the SVG charts). Never user input. */
export function raw(markup: string): SafeHtml {
  return new SafeHtml(markup);
}
