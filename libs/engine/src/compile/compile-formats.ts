// The format list alone (no imports): CompileError names a format, and the message scan (below compile) throws it.
/** The input formats Mailproof compiles to HTML before analyzing (`eml` is parsed: its HTML part is the email). */
export const COMPILE_FORMATS = ['html', 'jsx', 'mjml', 'maizzle', 'eml'] as const;

export type CompileFormat = (typeof COMPILE_FORMATS)[number];

export function isCompileFormat(value: unknown): value is CompileFormat {
  return typeof value === 'string' && (COMPILE_FORMATS as readonly string[]).includes(value);
}
