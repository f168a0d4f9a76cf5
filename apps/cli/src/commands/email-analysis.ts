import { analyzeEmail, type ClientId, type PreviewAnalysis } from '@mailproof/engine';
import type { CompileWarning } from '@mailproof/engine/compile';
import { compileEmail, disposeCompilers } from '@mailproof/sandbox';
import { describeInputError } from './cli-errors';
import type { EmailInput } from './email-input';

export interface AnalyzedEmail {
  input: EmailInput;
  compileWarnings: CompileWarning[];
  /** The HTML the analysis ran on (the source itself for html input). */
  compiledHtml: string;
  analysis: PreviewAnalysis;
}

/** Compiles one email in-process (sandboxed, as the preview worker does) and analyzes the HTML. */
export async function analyzeEmailInput(input: EmailInput, clients: readonly ClientId[] | undefined): Promise<AnalyzedEmail> {
  try {
    const compiled = await compileEmail(input.source, input.format, { files: input.files, mjmlValidation: input.mjmlValidation });
    const analysis = analyzeEmail(compiled.html, {
      format: input.format,
      clients,
      compileWarnings: compiled.warnings,
      sourcePositions: compiled.sourcePositions,
    });
    return { input, compileWarnings: compiled.warnings, compiledHtml: compiled.html, analysis };
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
