import mjml2html from 'mjml';
import type { SourceFiles } from '@mailproof/engine/compile';
import type { CompileWorkerResponse, WorkerWarning } from '../worker/compile-worker-protocol';
import { sourceMarkerAttribute, sourceMarkerClass, takeSourceMarkers } from '../source-markers';
import { EMAIL_FILE, expandMjmlIncludes, markMjmlSource, type ExpandedMjml, type LineOrigin } from './expand-mjml-includes';

type MjmlOutcome = Omit<Extract<CompileWorkerResponse, { ok: true }>, 'id'> | Omit<Extract<CompileWorkerResponse, { ok: false }>, 'id'>;

interface MjmlValidationIssue {
  line?: number;
  message?: string;
  tagName?: string;
}

/**
 * Runs inside the compile worker. `<mj-include>` is expanded from `files` first (expand-mjml-includes.ts),
 * so MJML's own include reading stays off (`ignoreIncludes`), `.mjmlconfig` is never read, and messages
 * are built from `message`/`line` only: `formattedMessage` names the server's folder. Validation lines
 * are mapped back to the email (or named in the included file).
 */
export async function compileMjmlInWorker(source: string, validation: 'strict' | 'soft', files: SourceFiles = {}): Promise<MjmlOutcome> {
  let expanded: ExpandedMjml;
  try {
    expanded = expandMjmlIncludes(source, files);
  } catch (error) {
    return { ok: false, message: error instanceof Error ? error.message : String(error) };
  }
  const place = (issue: MjmlValidationIssue): WorkerWarning => placeIssue(issue, expanded.origins);
  try {
    const result = await mjml2html(markMjmlSource(expanded, sourceMarkerClass, sourceMarkerAttribute), {
      validationLevel: 'soft',
      ignoreIncludes: true,
      useMjmlConfigOptions: false,
      keepComments: true,
      minify: false,
      beautify: false,
    } as Parameters<typeof mjml2html>[1]);
    const problems: WorkerWarning[] = [...expanded.problems, ...((result.errors ?? []) as MjmlValidationIssue[]).map(place)].sort(
      (a, b) => (a.line ?? 0) - (b.line ?? 0),
    );
    if (problems.length > 0 && validation === 'strict') {
      const first = problems[0];
      const more = problems.length > 1 ? ` (and ${problems.length - 1} more validation error${problems.length > 2 ? 's' : ''})` : '';
      return { ok: false, message: `${first.message}${more}`, line: first.line };
    }
    const { html, sourcePositions } = takeSourceMarkers(result.html);
    return { ok: true, html, warnings: problems, sourcePositions };
  } catch (error) {
    const issues = (error as { errors?: MjmlValidationIssue[] }).errors;
    if (Array.isArray(issues) && issues.length > 0) return { ok: false, ...place(issues[0]) };
    return { ok: false, message: error instanceof Error ? error.message : String(error) };
  }
}

/** MJML's line is in the expanded document: report it in the email, naming the included file when it is one. */
function placeIssue(issue: MjmlValidationIssue, origins: readonly LineOrigin[]): WorkerWarning {
  const where = issue.tagName ? `<${issue.tagName}>: ` : '';
  const message = `${where}${issue.message ?? 'Invalid MJML'}`;
  const origin = issue.line !== undefined ? origins[issue.line - 1] : undefined;
  if (!origin) return { message, line: issue.line };
  if (origin.file === EMAIL_FILE) return { message, line: origin.line };
  return { message: `${origin.file} line ${origin.line}: ${message}`, line: origin.siteLine };
}
