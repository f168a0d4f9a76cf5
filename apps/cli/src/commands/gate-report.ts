import { NOT_A_MESSAGE_REASON } from '@mailproof/engine';
import { EXIT_CODES } from './cli-errors';
import type { GateProblem, GateVerdictResponse } from './gate-client';
import { plural } from './report-format';
import type { CheckReport, ReportedFile, ReportedProblem } from '../reporters/check-report';

/** Exit codes of `mailproof gate` (docs/cli.md): a wrong command line is still 3, as everywhere. */
export const GATE_EXIT_CODES = { passed: EXIT_CODES.ok, failed: 1, error: 2, usage: EXIT_CODES.usage } as const;

/** What went wrong with one file: its message for people, and the server's problem fields when it answered. */
export interface GateFileError extends GateProblem {
  kind: 'read' | 'limit' | 'compile' | 'http' | 'unreachable' | 'other';
  message: string;
}

/** One file's outcome; `--json` prints these as they are. */
export type GateFileResult =
  | { file: string; format: string; ref: string | null; outcome: 'passed' | 'failed'; verdict: GateVerdictResponse; attempts?: number }
  | { file: string; format: string | null; ref: string | null; outcome: 'error'; error: GateFileError; attempts?: number };

export interface GateSummary {
  files: number;
  passed: number;
  failed: number;
  errors: number;
}

export function summarizeGate(results: readonly GateFileResult[]): GateSummary {
  const summary: GateSummary = { files: results.length, passed: 0, failed: 0, errors: 0 };
  for (const result of results) {
    if (result.outcome === 'passed') summary.passed += 1;
    else if (result.outcome === 'failed') summary.failed += 1;
    else summary.errors += 1;
  }
  return summary;
}

/** 2 when any file could not be gated (its verdict is unknown), else 1 when any verdict failed, else 0. */
export function gateExitCode(results: readonly GateFileResult[]): number {
  const summary = summarizeGate(results);
  if (summary.errors > 0) return GATE_EXIT_CODES.error;
  if (summary.failed > 0) return GATE_EXIT_CODES.failed;
  return GATE_EXIT_CODES.passed;
}

type Failure = GateVerdictResponse['failures'][number];

/** One failure in words, on one line, led by its check so a CI log can be grepped. */
export function describeFailure(failure: Failure): string {
  switch (failure.check) {
    case 'threshold':
      return `[threshold] ${failure.clientId} scores ${failure.score}, below the threshold of ${failure.threshold}`;
    case 'client-errors':
      return `[client-errors] ${failure.clientId} has ${plural(failure.errors, 'error')}`;
    case 'links':
      return `[links] a link goes nowhere (${failure.reason}): href="${failure.href}"`;
    case 'size':
      return `[size] the email is ${failure.bytes} bytes, over the ${failure.limit} bytes at which Gmail clips it`;
    case 'alt-text':
      return `[alt-text] an image has no alt text: ${failure.src}`;
    case 'link-unreachable':
      return `[link-unreachable] ${failure.url} answered HTTP ${failure.status}`;
    case 'worse-than-baseline': {
      const what = [failure.property, failure.rule === undefined ? undefined : `(${failure.rule})`].filter(Boolean).join(' ');
      const where = failure.clientId === undefined ? '' : ` in ${failure.clientId}`;
      return `[worse-than-baseline] new ${failure.severity}${where}${what ? `: ${what}` : ''}, not in the baseline`;
    }
    case 'bulk-sender':
      return `[bulk-sender] ${failure.requirement} not met: ${failure.reason}${failure.fix ? ` (fix: ${failure.fix})` : ''}`;
    case 'divergence':
      return `[divergence] ${failure.clientId} (${failure.scheme}) departs further from the design: divergence ${failure.baselineScore} -> ${failure.score} (allowed +${failure.threshold}${
        failure.referenceChange === null ? '' : `, the design itself changed ${failure.referenceChange}%`
      })${describeRegions(failure.regions)}`;
    default: {
      // A check this CLI does not know yet (a newer server): its fields as they came.
      const { family, check, ...rest } = failure as { family: string; check: string };
      return `[${check}] ${family} check failed: ${JSON.stringify(rest)}`;
    }
  }
}

type VisualFailureRegion = Extract<Failure, { check: 'divergence' }>['regions'][number];

/** A visual failure's regions on its one line: where, what kind, the first elements under it, and the cause when known. */
function describeRegions(regions: readonly VisualFailureRegion[]): string {
  if (regions.length === 0) return '';
  const parts = regions.map((region) => {
    const { x, y, width, height } = region.box;
    const elements = region.elements.map((element) => (element.line === null ? element.selector : `${element.selector} (line ${element.line})`));
    const cause = region.cause ? `; ${region.cause.message}` : '';
    return `${region.kind} at ${Math.round(x)},${Math.round(y)} ${Math.round(width)}x${Math.round(height)}${elements.length > 0 ? ` over ${elements.join(', ')}` : ''}${cause}`;
  });
  return `; regions: ${parts.join(' | ')}`;
}

/** Where a visual failure points in the source: the first region's first element with a known line. */
function firstRegionLine(regions: readonly VisualFailureRegion[]): number | undefined {
  for (const region of regions) {
    const element = region.elements.find((candidate) => candidate.line !== null);
    if (element && element.line !== null) return element.line;
  }
  return undefined;
}

/** A note's label: its check, and the requirement or the client (and scheme) it is about. */
function noteSubject(note: NonNullable<GateVerdictResponse['notes']>[number]): string | undefined {
  if ('requirement' in note && note.requirement) return note.requirement;
  if ('clientId' in note && note.clientId) return note.scheme ? `${note.clientId} ${note.scheme}` : note.clientId;
  return undefined;
}

/** A failed verdict's suggested fix: how many findings the safe fixes resolve, and the command that shows them. */
export function describeSuggestedFix(fixable: number, file: string): string {
  const command = file === '-' ? 'mailproof fix -' : `mailproof fix ${file}`;
  return `fix: the safe fixes resolve ${plural(fixable, 'finding')}; \`${command}\` shows them (or POST /api/fix, suggestedFix.request)`;
}

/** The suggested fix's line: its count when known; while the server still computes it (docs/gate.md), the command that answers at once. */
function suggestedFixLine(suggestedFix: NonNullable<GateVerdictResponse['suggestedFix']>, file: string): string {
  if ('fixable' in suggestedFix) return describeSuggestedFix(suggestedFix.fixable, file);
  return `fix: \`${file === '-' ? 'mailproof fix -' : `mailproof fix ${file}`}\` shows what the safe fixes resolve`;
}

function describeLinks(links: GateVerdictResponse['links'] | undefined): string {
  if (!links || !links.resolved) return 'links: checked statically, none fetched (--resolve-links fetches them)';
  const unchecked = links.unchecked ?? [];
  if (unchecked.length === 0) return `links: ${links.checked} fetched, every link checked`;
  const reasons = new Map<string, number>();
  for (const link of unchecked) reasons.set(link.reason, (reasons.get(link.reason) ?? 0) + 1);
  const byReason = [...reasons].map(([reason, count]) => `${count} ${reason}`).join(', ');
  return `links: ${links.checked} fetched, ${unchecked.length} not checked (${byReason}; an unchecked link never fails the gate)`;
}

function describeBaseline(verdict: GateVerdictResponse, local: boolean): string {
  if (local) return 'baseline: none (--local checks compatibility and content only)';
  const ref = verdict.baseline?.ref;
  const compares = verdict.checks?.includes('regression') || verdict.checks?.includes('visual');
  if (!compares) return `baseline: regression not checked${ref ? ` (ref ${ref})` : ''}`;
  if (!ref) return 'baseline: no ref, regression check skipped';
  if (!verdict.baseline.comparedTo) return `baseline: ref ${ref} has no stored baseline yet, nothing to compare with`;
  return `baseline: ref ${ref}, compared with the version stored ${verdict.baseline.comparedTo}`;
}

/** The per-file block a person reads in a CI log. */
export function formatGateResult(result: GateFileResult, local: boolean): string[] {
  if (result.outcome === 'error') return [`ERROR ${label(result.file)}: ${result.error.message}`];
  const { verdict } = result;
  const worst = verdict.worstClient ? `, worst client ${verdict.worstClient}` : '';
  const failures = verdict.failures.length > 0 ? ` (${plural(verdict.failures.length, 'failure')})` : '';
  const lines = [`${verdict.passed ? 'PASS ' : 'FAIL '} ${label(result.file)}  score ${verdict.overallScore}/100${worst}${failures}`];
  for (const failure of verdict.failures) lines.push(`  - ${describeFailure(failure)}`);
  // An HTML email's "not a message" note says nothing a CI log needs on every run (--json keeps it).
  for (const note of (verdict.notes ?? []).filter((item) => item.reason !== NOT_A_MESSAGE_REASON)) {
    const subject = noteSubject(note);
    lines.push(`  note: [${note.check}${subject ? ` ${subject}` : ''}] ${note.reason}`);
  }
  if (verdict.suggestedFix) lines.push(`  ${suggestedFixLine(verdict.suggestedFix, result.file)}`);
  lines.push(`  ${describeLinks(verdict.links)}`);
  lines.push(`  ${describeBaseline(verdict, local)}`);
  if (verdict.runId || verdict.previewId) lines.push(`  run ${verdict.runId ?? '-'}, preview ${verdict.previewId ?? '-'}`);
  return lines;
}

export function formatGateSummary(results: readonly GateFileResult[]): string {
  const summary = summarizeGate(results);
  return `${plural(summary.files, 'file')}: ${summary.passed} passed, ${summary.failed} failed, ${plural(summary.errors, 'error')}`;
}

/** The one line an HTTP problem becomes: status, code, title/detail, validation errors, compile position. */
export function describeProblem(status: number, problem: GateProblem): string {
  const head = `HTTP ${status}${problem.code ? ` ${problem.code}` : ''}`;
  const detail = problem.detail ?? problem.title ?? '';
  const position = problem.line === undefined ? '' : ` (line ${problem.line}${problem.column === undefined ? '' : `, column ${problem.column}`})`;
  const fields = (problem.errors ?? [])
    .map((error) => [error.field, error.message].filter(Boolean).join(': '))
    .filter((line) => line.length > 0)
    .join('; ');
  const hint = status === 401 ? ' (check MAILPROOF_API_KEY)' : problem.code === 'plan_required' ? ' (the gate needs a key on the Pro plan)' : '';
  return `${head}${detail ? `: ${detail}` : ''}${position}${fields ? ` [${fields}]` : ''}${hint}`;
}

function label(file: string): string {
  return file === '-' ? 'stdin' : file;
}

/** Words after the `[check] ` a failure's line starts with. */
function failureMessage(failure: Failure): string {
  return describeFailure(failure).replace(/^\[[^\]]+\] /, '');
}

/**
 * The gate's results for the code-host reporters: each failure an error (the verdict has no source
 * positions, so annotations are on the file), notes and the suggested fix as notes, the run in the notes.
 */
export function gateCheckReport(results: readonly GateFileResult[], exitCode: number, local: boolean): CheckReport {
  const files = results.map((result): ReportedFile => {
    if (result.outcome === 'error') {
      const { kind, message, line, column } = result.error;
      return {
        file: result.file,
        outcome: 'error',
        problems: [{ severity: 'error', ruleId: `input/${kind}`, title: 'not gated', message, line, column, blocking: true }],
      };
    }
    const { verdict } = result;
    const problems: ReportedProblem[] = verdict.failures.map((failure) => {
      const line = failure.check === 'divergence' ? firstRegionLine(failure.regions) : undefined;
      return {
        severity: 'error',
        ruleId: `gate/${failure.check}`,
        title: 'clientId' in failure && failure.clientId ? `${failure.check} in ${failure.clientId}` : failure.check,
        message: failureMessage(failure),
        ...(line === undefined ? {} : { line }),
        ...('clientId' in failure && failure.clientId ? { clients: [failure.clientId] } : {}),
        blocking: true,
      };
    });
    for (const note of (verdict.notes ?? []).filter((item) => item.reason !== NOT_A_MESSAGE_REASON)) {
      problems.push({ severity: 'note', ruleId: `gate/${note.check}`, title: noteSubject(note) ?? note.check, message: note.reason, blocking: false });
    }
    if (verdict.suggestedFix) {
      problems.push({
        severity: 'note',
        ruleId: 'gate/suggested-fix',
        title: 'suggested fix',
        message: suggestedFixLine(verdict.suggestedFix, result.file),
        blocking: false,
      });
    }
    const notes = [describeLinks(verdict.links), describeBaseline(verdict, local)];
    if (verdict.runId || verdict.previewId) notes.push(`run ${verdict.runId ?? '-'}, preview ${verdict.previewId ?? '-'}`);
    return { file: result.file, outcome: result.outcome, score: verdict.overallScore, problems, notes };
  });
  return { command: 'gate', files, exitCode, summary: formatGateSummary(results) };
}
