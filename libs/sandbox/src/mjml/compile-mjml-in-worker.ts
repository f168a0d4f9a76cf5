import mjml2html from 'mjml';
import type { CompileWorkerResponse, WorkerWarning } from '../worker/compile-worker-protocol';

type MjmlOutcome = Omit<Extract<CompileWorkerResponse, { ok: true }>, 'id'> | Omit<Extract<CompileWorkerResponse, { ok: false }>, 'id'>;

interface MjmlValidationIssue {
  line?: number;
  message?: string;
  tagName?: string;
}

/**
 * Runs inside the compile worker. Includes stay off (`ignoreIncludes`), `.mjmlconfig` is never read,
 * and messages are built from `message`/`line` only: `formattedMessage` names the server's folder.
 */
export async function compileMjmlInWorker(source: string, validation: 'strict' | 'soft'): Promise<MjmlOutcome> {
  const warnings: WorkerWarning[] = includeWarnings(source);
  try {
    const result = await mjml2html(source, {
      validationLevel: 'soft',
      ignoreIncludes: true,
      useMjmlConfigOptions: false,
      keepComments: true,
      minify: false,
      beautify: false,
    } as Parameters<typeof mjml2html>[1]);
    const issues = (result.errors ?? []) as MjmlValidationIssue[];
    if (issues.length > 0 && validation === 'strict') {
      const first = issues[0];
      const more = issues.length > 1 ? ` (and ${issues.length - 1} more validation error${issues.length > 2 ? 's' : ''})` : '';
      return { ok: false, message: `${describeIssue(first)}${more}`, line: first.line };
    }
    for (const issue of issues) warnings.push({ message: describeIssue(issue), line: issue.line });
    return { ok: true, html: result.html, warnings };
  } catch (error) {
    const issues = (error as { errors?: MjmlValidationIssue[] }).errors;
    if (Array.isArray(issues) && issues.length > 0) return { ok: false, message: describeIssue(issues[0]), line: issues[0].line };
    return { ok: false, message: error instanceof Error ? error.message : String(error) };
  }
}

function describeIssue(issue: MjmlValidationIssue): string {
  const where = issue.tagName ? `<${issue.tagName}>: ` : '';
  return `${where}${issue.message ?? 'Invalid MJML'}`;
}

// mj-include is ignored (never read from disk); say so, so a missing section is not a mystery.
function includeWarnings(source: string): WorkerWarning[] {
  const warnings: WorkerWarning[] = [];
  const pattern = /<mj-include\b/gi;
  for (let match = pattern.exec(source); match; match = pattern.exec(source)) {
    warnings.push({ message: '<mj-include> is not supported: the included file was not read', line: lineAt(source, match.index) });
  }
  return warnings;
}

function lineAt(text: string, index: number): number {
  let line = 1;
  for (let i = 0; i < index; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}
