/**
 * What a fix run stores and answers (POST /api/fix, GET /api/fix/:id, MCP fix_email; docs/fix.md "The API"):
 * the engine's FixResult passed through whole, plus the run's id, the format and what was patched.
 */
import type { EmailFormat, FixResult } from '@mailproof/engine';

/** `source`: the submitted markup was patched. `compiled-html`: the patched email is the compiled HTML (jsx, maizzle, mjml where the source could not be, and an eml message's decoded HTML part). */
export type FixPatched = 'source' | 'compiled-html';

export const FIX_PATCHED = ['source', 'compiled-html'] as const satisfies readonly FixPatched[];

/**
 * The answer without its id (what `mailproof mcp` answers locally, where no run is stored): every field of the
 * engine's result, so a field the engine adds (a per-fix snippet...) reaches every caller without a change here.
 */
export type FixOutcomeBody = Omit<FixResult, 'patched'> & {
  format: EmailFormat;
  patched: FixPatched;
  /** Present when the patched email is not the submitted markup: what to do with it. */
  note?: string;
};

/** A stored fix run's answer: its id, then the body (the stored Brotli JSON, preview-result.codec). */
export type FixRunResult = { id: string } & FixOutcomeBody;

/** The engine's result as this contract reads it: `patched` is the engine's when it says (MJML source patching), else the format decides. */
type EngineFixResult = FixResult & { patched?: FixPatched };

function compiledHtmlNote(format: EmailFormat): string {
  // A message's HTML part is patched decoded: re-encoding it into the MIME tree (transfer encoding, charset,
  // DKIM signature over the body) is the sender's ESP's job, and a changed body breaks the signature anyway.
  if (format === 'eml') {
    return (
      'The patched email is the decoded HTML part of your message, not the message itself: html and diff are HTML. ' +
      'Apply the fixes in the template your ESP sends (applied lists each with its rule and line in the HTML part), then export the message again.'
    );
  }
  return (
    `The patched email is the compiled HTML of your ${format} template, not the template itself: html and diff are HTML. ` +
    'Apply the fixes in the template by hand (applied lists each with its rule and line in the compiled HTML), or send the compiled HTML.'
  );
}

/** The answer body of a fix: the engine's result whole, with the format, what was patched and, for compiled HTML of a template, a note. */
export function fixOutcomeBody(result: EngineFixResult, format: EmailFormat): FixOutcomeBody {
  const { patched: enginePatched, ...fields } = result;
  const patched: FixPatched = enginePatched ?? (format === 'html' ? 'source' : 'compiled-html');
  return { format, patched, ...(patched === 'compiled-html' ? { note: compiledHtmlNote(format) } : {}), ...fields };
}
