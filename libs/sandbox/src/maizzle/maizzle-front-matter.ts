import { parse } from 'yaml';
import { CompileError } from '@mailproof/engine/compile';

export interface MaizzleFrontMatter {
  data: Record<string, unknown>;
  body: string;
  /** Lines before the body, so positions in the body can be reported against the original source. */
  bodyLineOffset: number;
}

const FRONT_MATTER = /^(?:\uFEFF)?---[ \t]*\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/;

/** YAML front matter is data only (no custom tags, aliases capped), parsed on the host. */
export function parseMaizzleFrontMatter(source: string): MaizzleFrontMatter {
  const match = FRONT_MATTER.exec(source);
  if (!match) return { data: {}, body: source, bodyLineOffset: 0 };
  let data: unknown;
  try {
    data = parse(match[1], { maxAliasCount: 50, prettyErrors: false, customTags: [] });
  } catch (error) {
    const yamlError = error as { message?: string; linePos?: Array<{ line: number; col: number }> };
    const position = yamlError.linePos?.[0];
    throw new CompileError({
      message: `Front matter: ${(yamlError.message ?? String(error)).split('\n')[0]}`,
      format: 'maizzle',
      line: position ? position.line + 1 : 1,
      column: position?.col,
    });
  }
  if (data !== null && data !== undefined && (typeof data !== 'object' || Array.isArray(data))) {
    throw new CompileError({ message: 'Front matter must be a YAML mapping', format: 'maizzle', line: 2 });
  }
  const bodyLineOffset = match[0].split('\n').length - 1;
  return { data: (data ?? {}) as Record<string, unknown>, body: source.slice(match[0].length), bodyLineOffset };
}
