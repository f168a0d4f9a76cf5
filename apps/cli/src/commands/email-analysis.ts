import {
  analyzeEmail,
  buildMessageReport,
  fixEmail,
  type ClientId,
  type FixResult,
  type FixTier,
  type MessageReport,
  type PreviewAnalysis,
} from '@mailproof/engine';
import type { CompileResult, CompileWarning } from '@mailproof/engine/compile';
import { compileEmail, disposeCompilers } from '@mailproof/sandbox';
import { describeInputError } from './cli-errors';
import type { EmailInput } from './email-input';
import { requireFormatCompilers } from './format-compilers';

export interface AnalyzedEmail {
  input: EmailInput;
  compileWarnings: CompileWarning[];
  /** The HTML the analysis ran on (the source itself for html input). */
  compiledHtml: string;
  /** With the message report of a whole message (eml; authentication inconclusive: no DNS is asked locally), else null. */
  analysis: PreviewAnalysis & { messageReport: MessageReport | null };
}

export interface FixedEmail {
  input: EmailInput;
  compileWarnings: CompileWarning[];
  /** The HTML the fixes were made in (the source itself for html input). */
  compiledHtml: string;
  result: FixResult;
}

/** Compiles one email in-process, sandboxed as the preview worker does. */
function compileInput(input: EmailInput): Promise<CompileResult> {
  requireFormatCompilers(input.format, input.label);
  return compileEmail(input.source, input.format, { files: input.files, mjmlValidation: input.mjmlValidation });
}

/** Compiles one email in-process (sandboxed, as the preview worker does) and analyzes the HTML. */
export async function analyzeEmailInput(input: EmailInput, clients: readonly ClientId[] | undefined): Promise<AnalyzedEmail> {
  try {
    const compiled = await compileInput(input);
    const analysis = analyzeEmail(compiled.html, {
      format: input.format,
      clients,
      compileWarnings: compiled.warnings,
      sourcePositions: compiled.sourcePositions,
    });
    const messageReport = compiled.message ? buildMessageReport(compiled.message, { htmlText: analysis.plainText?.text ?? null, authentication: null }) : null;
    return { input, compileWarnings: compiled.warnings, compiledHtml: compiled.html, analysis: { ...analysis, messageReport } };
  } catch (error) {
    throw describeInputError(input.label, error);
  }
}

/** Compiles one email as `analyzeEmailInput` does and applies the fixes of `tiers` to the HTML (the engine's fixEmail). */
export async function fixEmailInput(input: EmailInput, clients: readonly ClientId[] | undefined, tiers: readonly FixTier[]): Promise<FixedEmail> {
  try {
    const compiled = await compileInput(input);
    const result = fixEmail(compiled.html, {
      format: input.format,
      clients,
      tiers,
      compileWarnings: compiled.warnings,
      sourcePositions: compiled.sourcePositions,
      // MJML: the engine writes value fixes into the template itself where it can, as the fix worker asks it to.
      ...(input.format === 'mjml' ? { templateSource: input.source } : {}),
    });
    return { input, compileWarnings: compiled.warnings, compiledHtml: compiled.html, result };
  } catch (error) {
    throw describeInputError(input.label, error);
  }
}

/**
 * Runs work that may compile, then releases the isolate snapshots and compile worker threads:
 * they keep the event loop alive, and the command must end once it has printed.
 */
export async function withCompilers<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } finally {
    await disposeCompilers();
  }
}

/** Grouping is the engine's (MCP's analyze_email groups the same way); re-exported for the commands. */
export { countBySeverity, groupFindings, type FindingGroup } from '@mailproof/engine';
