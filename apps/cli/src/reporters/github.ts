import { appendFileSync } from 'node:fs';
import type { CheckReport, ReportedFile, ReportedProblem } from './check-report';
import { countOutcomes, lowestScore } from './check-report';

/** Workflow command data: `%`, CR and LF are escaped so a message stays one command. */
function escapeData(value: string): string {
  return value.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

/** Workflow command properties: also `:` and `,`, which would end the property. */
function escapeProperty(value: string): string {
  return escapeData(value).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

const COMMAND: Record<ReportedProblem['severity'], string> = { error: 'error', warning: 'warning', note: 'notice' };

/** One `::error file=…,line=…,col=…,title=…::message` line per problem, at the author's position when known. */
export function githubAnnotations(report: CheckReport): string[] {
  const lines: string[] = [];
  for (const file of report.files) {
    for (const problem of file.problems) {
      const properties = [
        ...(file.file === '-' ? [] : [`file=${escapeProperty(file.file)}`]),
        ...(problem.line === undefined ? [] : [`line=${problem.line}`]),
        ...(problem.line !== undefined && problem.column !== undefined ? [`col=${problem.column}`] : []),
        `title=${escapeProperty(`${problem.ruleId}: ${problem.title}`)}`,
      ];
      const clients = problem.clients && problem.clients.length > 0 ? ` (${describeClients(problem.clients)})` : '';
      const help = problem.help ? `\n${problem.help}` : '';
      lines.push(`::${COMMAND[problem.severity]} ${properties.join(',')}::${escapeData(`${problem.message}${clients}${help}`)}`);
    }
  }
  return lines;
}

function describeClients(clients: readonly string[]): string {
  return clients.length <= 3 ? clients.join(', ') : `${clients.slice(0, 3).join(', ')} +${clients.length - 3} more`;
}

/** Markdown table cell text: pipes and line breaks would break the table. */
function cell(value: string): string {
  return value.replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');
}

const OUTCOME_MARK: Record<ReportedFile['outcome'], string> = { passed: '✅ passed', failed: '❌ failed', error: '⚠️ error' };

/**
 * The job summary: per file its outcome and score, the scores per client where known, the failures,
 * and a link to the workflow run. GitHub renders it on the run's page.
 */
export function githubJobSummary(report: CheckReport, env: NodeJS.ProcessEnv = process.env): string {
  const counts = countOutcomes(report);
  const lowest = lowestScore(report);
  const out: string[] = [`## Mailproof ${report.command}`, ''];
  out.push(`${report.summary}${lowest === null ? '' : ` · lowest score ${lowest}/100`} · exit code ${report.exitCode}`, '');
  out.push('| file | result | score | problems |', '|---|---|---|---|');
  for (const file of report.files) {
    const blocking = file.problems.filter((problem) => problem.blocking).length;
    out.push(
      `| ${cell(file.file === '-' ? 'stdin' : file.file)} | ${OUTCOME_MARK[file.outcome]} | ${file.score ?? '–'} | ${blocking} blocking, ${file.problems.length} in all |`,
    );
  }
  for (const file of report.files) {
    const listed = file.problems.filter((problem) => problem.blocking || problem.severity === 'error');
    const scores = file.clientScores ?? [];
    if (listed.length === 0 && scores.length === 0 && (file.notes ?? []).length === 0) continue;
    out.push('', `### ${cell(file.file === '-' ? 'stdin' : file.file)}`);
    if (scores.length > 0) {
      out.push('', '| client | score | errors | warnings |', '|---|---|---|---|');
      for (const score of scores) out.push(`| ${score.clientId} | ${score.score} | ${score.errors} | ${score.warnings} |`);
    }
    if (listed.length > 0) {
      out.push('');
      for (const problem of listed) {
        const where = problem.line === undefined ? '' : ` (line ${problem.line}${problem.column === undefined ? '' : `, column ${problem.column}`})`;
        out.push(`- **${cell(problem.ruleId)}**${where}: ${cell(problem.message)}`);
      }
    }
    for (const note of file.notes ?? []) out.push('', cell(note));
  }
  const runUrl =
    env.GITHUB_SERVER_URL && env.GITHUB_REPOSITORY && env.GITHUB_RUN_ID
      ? `${env.GITHUB_SERVER_URL}/${env.GITHUB_REPOSITORY}/actions/runs/${env.GITHUB_RUN_ID}`
      : null;
  out.push('');
  if (runUrl) out.push(`[This workflow run](${runUrl}) · `);
  out.push(`${counts.passed} passed, ${counts.failed} failed, ${counts.errors} not checked.`, '');
  return `${out.join('\n')}\n`;
}

/** Prints the annotations and the summary line; appends the job summary to $GITHUB_STEP_SUMMARY when it is set. */
export function writeGithubReport(report: CheckReport, env: NodeJS.ProcessEnv = process.env): void {
  for (const line of githubAnnotations(report)) console.log(line);
  console.log(report.summary);
  if (env.GITHUB_STEP_SUMMARY) appendFileSync(env.GITHUB_STEP_SUMMARY, githubJobSummary(report, env));
}
