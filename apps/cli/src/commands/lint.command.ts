import type { Command } from 'commander';
import { CLIENT_IDS, type CompatibilityScore, type CssFinding, type Severity } from '@mailproof/engine';
import type { CompileFormat, CompileWarning } from '@mailproof/engine/compile';
import { CliError, EXIT_CODES, UsageError, describeInputError } from './cli-errors';
import { clientsOption, formatOption, mjmlValidationOption } from './analyze.command';
import { analyzeEmailInput, countBySeverity, groupFindings, withCompilers, type FindingGroup } from './email-analysis';
import { STDIN_PATH, parseClientsOption, planFormat, readEmailInput, type EmailInput, type FormatDetectedBy, type MjmlValidation } from './email-input';
import { describeInput, formatCompileWarnings, formatFindingGroups, plural, positionNote } from './report-format';
import type { CheckReport, ReportedFile, ReportedProblem } from '../reporters/check-report';
import { addReporterOptions, emitReport, programVersion, resolveReporter, type ReporterCliOptions } from '../reporters/reporter-options';

interface LintOptions extends ReporterCliOptions {
  format?: CompileFormat;
  mjmlValidation?: MjmlValidation;
  clients?: string;
  failOnWarning?: boolean;
}

interface LintedFile {
  file: string;
  ok: true;
  format: CompileFormat;
  detectedBy: FormatDetectedBy;
  overallScore: number;
  counts: Record<Severity, number>;
  /** Findings grouped across clients, as the text output prints them. */
  problems: FindingGroup[];
  compileWarnings: CompileWarning[];
  /** Every finding of the engine, one per client (the cssReport elements of a preview result). */
  findings: CssFinding[];
}

interface FailedFile {
  file: string;
  ok: false;
  error: ReturnType<CliError['toJSON']>;
}

type LintResult = LintedFile | FailedFile;

/** Per-client scores of each linted file, for the job summary (kept out of --json, whose shape is documented). */
type ClientScores = Partial<Record<string, CompatibilityScore>>;

/**
 * `mailproof lint FILE...`: findings per file, for CI. Exit 0 when clean, 1 on any error (a finding
 * with severity error, or a file that cannot be read, compiled or analyzed), 2 with --fail-on-warning
 * when there are warnings but no errors; 3 for a wrong command line (nothing is analyzed then).
 */
export function registerLintCommand(program: Command): void {
  const command = program
    .command('lint')
    .description('check emails and exit non-zero on errors (or warnings with --fail-on-warning); for CI')
    .argument('<files...>', 'emails to check (.html, .htm, .maizzle.html, .jsx, .tsx, .mjml); `-` reads stdin')
    .addOption(formatOption())
    .addOption(mjmlValidationOption())
    .addOption(clientsOption())
    .option('--fail-on-warning', 'exit 2 when there are warnings but no errors')
    .option('--json', 'print { files, summary, exitCode } as JSON (--reporter json)');
  addReporterOptions(command).action(async (files: string[], options: LintOptions, self: Command) => {
    // The whole command line is checked before any file is analyzed, so a typo never passes for a result.
    const reporter = resolveReporter(options);
    const clients = parseClientsOption(options.clients);
    if (files.filter((file) => file === STDIN_PATH).length > 1) throw new UsageError('stdin (-) can only be read once');
    for (const file of files) planFormat(file, options.format);

    const scores = new Map<LintResult, ClientScores>();
    const results = await withCompilers(async () => {
      const linted: LintResult[] = [];
      for (const file of files) {
        const { result, clientScores } = await lintFile(file, options.format, clients, options.mjmlValidation);
        linted.push(result);
        if (clientScores) scores.set(result, clientScores);
      }
      return linted;
    });
    const exitCode = lintExitCode(results, options.failOnWarning === true);
    const report = lintCheckReport(results, scores, exitCode, options.failOnWarning === true);
    if (reporter === 'json') console.log(JSON.stringify({ files: results, summary: summarize(results), exitCode }));
    else if (reporter === 'text') printLintReport(results, clients?.length ?? CLIENT_IDS.length);
    emitReport(report, reporter, options, programVersion(self));
    process.exitCode = exitCode;
  });
}

async function lintFile(
  file: string,
  format: CompileFormat | undefined,
  clients: Parameters<typeof analyzeEmailInput>[1],
  mjmlValidation: MjmlValidation | undefined,
): Promise<{ result: LintResult; clientScores?: ClientScores }> {
  let input: EmailInput | undefined;
  try {
    input = await readEmailInput(file, format, mjmlValidation);
    const { analysis, compileWarnings } = await analyzeEmailInput(input, clients);
    const problems = groupFindings(analysis.cssReport);
    const result: LintedFile = {
      file,
      ok: true,
      format: input.format,
      detectedBy: input.detectedBy,
      overallScore: analysis.overallScore,
      counts: countBySeverity(problems),
      problems,
      compileWarnings,
      findings: analysis.cssReport,
    };
    return { result, clientScores: analysis.compatibilityScores };
  } catch (error) {
    if (error instanceof CliError && error.exitCode === EXIT_CODES.usage) throw error;
    return { result: { file, ok: false, error: describeInputError(input?.label ?? file, error).toJSON() } };
  }
}

/** Warnings and errors (info notes stay out, as in the text output), at the author's position, for the code-host reporters. */
function lintCheckReport(results: readonly LintResult[], scores: Map<LintResult, ClientScores>, exitCode: number, failOnWarning: boolean): CheckReport {
  const files: ReportedFile[] = results.map((result) => {
    if (!result.ok) {
      const { kind, message, line, column } = result.error;
      return {
        file: result.file,
        outcome: 'error',
        problems: [
          {
            severity: 'error',
            ruleId: `input/${kind}`,
            title: `cannot ${kind === 'read' ? 'read' : 'check'} the email`,
            message,
            line,
            column,
            blocking: true,
          },
        ],
      };
    }
    const problems: ReportedProblem[] = [];
    for (const warning of result.compileWarnings) {
      problems.push({
        severity: 'warning',
        ruleId: 'input/compile-warning',
        title: `${result.format} compile warning`,
        message: warning.message,
        line: warning.line,
        column: warning.column,
        blocking: failOnWarning,
      });
    }
    for (const group of result.problems) {
      if (group.severity === 'info') continue;
      const finding = result.findings.find((item) => item.rule === group.rule && item.property === group.property && item.severity === group.severity);
      problems.push({
        severity: group.severity,
        ruleId: group.rule,
        title: group.property,
        message: finding?.message ?? `${group.property} is not supported as written`,
        line: group.line,
        column: group.column,
        clients: group.clients,
        blocking: group.severity === 'error' || failOnWarning,
        help: group.suggestion,
      });
    }
    const clientScores = Object.entries(scores.get(result) ?? {}).map(([clientId, score]) => ({
      clientId,
      score: score!.score,
      errors: score!.errors,
      warnings: score!.warnings,
    }));
    const failed = result.counts.error > 0 || (failOnWarning && result.counts.warning > 0);
    return { file: result.file, outcome: failed ? 'failed' : 'passed', score: result.overallScore, problems, clientScores };
  });
  return { command: 'lint', files, exitCode, summary: lintSummaryLine(results) };
}

function lintExitCode(results: readonly LintResult[], failOnWarning: boolean): number {
  const summary = summarize(results);
  if (summary.failed > 0 || summary.errors > 0) return EXIT_CODES.failure;
  if (failOnWarning && summary.warnings > 0) return EXIT_CODES.warnings;
  return EXIT_CODES.ok;
}

function summarize(results: readonly LintResult[]): { files: number; failed: number; errors: number; warnings: number; info: number } {
  const summary = { files: results.length, failed: 0, errors: 0, warnings: 0, info: 0 };
  for (const result of results) {
    if (!result.ok) {
      summary.failed += 1;
      continue;
    }
    summary.errors += result.counts.error;
    summary.warnings += result.counts.warning;
    summary.info += result.counts.info;
  }
  return summary;
}

function printLintReport(results: readonly LintResult[], analyzedCount: number): void {
  for (const result of results) {
    if (!result.ok) {
      // The message already starts with the file name.
      console.log(`${result.error.message}\n`);
      continue;
    }
    const input = { label: result.file === STDIN_PATH ? 'stdin' : result.file, format: result.format, detectedBy: result.detectedBy };
    const listed = result.problems.filter((group) => group.severity !== 'info');
    console.log(`${describeInput(input)}  score ${result.overallScore}/100${listed.length > 0 ? positionNote(input) : ''}`);
    for (const line of formatCompileWarnings(result.compileWarnings, '  compile warning: ')) console.log(line);
    for (const line of formatFindingGroups(listed, analyzedCount, '  ')) console.log(line);
    const { error, warning, info } = result.counts;
    const infoNote = info > 0 ? ` (info notes are not listed; --json has them)` : '';
    console.log(`  ${plural(error, 'error')}, ${plural(warning, 'warning')}, ${plural(info, 'info note')}${infoNote}\n`);
  }
  console.log(lintSummaryLine(results));
}

function lintSummaryLine(results: readonly LintResult[]): string {
  const summary = summarize(results);
  const failed = summary.failed > 0 ? `${summary.failed} could not be analyzed, ` : '';
  return `${plural(summary.files, 'file')}: ${failed}${plural(summary.errors, 'error')}, ${plural(summary.warnings, 'warning')}`;
}
