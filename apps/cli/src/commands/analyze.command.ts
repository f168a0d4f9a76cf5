import { Option, type Command } from 'commander';
import type { PreviewResultBody } from '@mailproof/contracts';
import { getClient, type ClientId } from '@mailproof/engine';
import { COMPILE_FORMATS, type CompileFormat, type CompileWarning } from '@mailproof/engine/compile';
import { analyzeEmailInput, countBySeverity, groupFindings, withCompilers, type AnalyzedEmail } from './email-analysis';
import { parseClientsOption, readEmailInput, type FormatDetectedBy, type MjmlValidation } from './email-input';
import { formatMessageReport } from './message-report-format';
import { printTable } from './output';
import { describeInput, formatCompileWarnings, formatFindingGroups, plural, positionNote } from './report-format';

interface AnalyzeOptions {
  format?: CompileFormat;
  mjmlValidation?: MjmlValidation;
  clients?: string;
  json?: boolean;
}

const TOP_FINDINGS = 10;

/**
 * `analyze --json`: the input, then the preview result as the API gives it (the contract's type), less what
 * only the server adds: the id, screenshots and the worker's network checks (SpamAssassin, image weights).
 */
type AnalyzeJson = {
  input: { file: string; format: CompileFormat; detectedBy: FormatDetectedBy; compileWarnings: CompileWarning[] };
} & PreviewResultBody;

/** The `--format` and `--clients` options `analyze` and `lint` share. */
export function formatOption(): Option {
  return new Option('--format <format>', 'input format; default: from the file name (see docs/cli.md)').choices(COMPILE_FORMATS);
}

/** `--mjml-validation`: MJML's own levels; soft (MJML's default) reports problems as warnings. */
export function mjmlValidationOption(): Option {
  return new Option('--mjml-validation <level>', 'MJML validation: soft reports problems as warnings (default), strict refuses the email at the first').choices(
    ['soft', 'strict'],
  );
}

export function clientsOption(): Option {
  return new Option('--clients <ids>', 'comma-separated client ids to analyze (default: all 21; see `mailproof clients`)');
}

/** `mailproof analyze FILE|-`: compile and analyze one email locally; no database, Redis or network. */
export function registerAnalyzeCommand(program: Command): void {
  program
    .command('analyze')
    .description('compile and analyze one email against the email clients, in this process (no server needed)')
    .argument('<file>', 'the email: .html, .htm, .maizzle.html, .jsx, .tsx, .mjml or .eml (a whole message); `-` reads stdin')
    .addOption(formatOption())
    .addOption(mjmlValidationOption())
    .addOption(clientsOption())
    .option('--json', 'print the whole analysis as JSON')
    .action(async (file: string, options: AnalyzeOptions) => {
      const clients = parseClientsOption(options.clients);
      const input = await readEmailInput(file, options.format, options.mjmlValidation);
      const result = await withCompilers(() => analyzeEmailInput(input, clients));
      if (options.json) {
        const { analysis, compileWarnings, compiledHtml } = result;
        const printed: AnalyzeJson = {
          input: { file: input.path, format: input.format, detectedBy: input.detectedBy, compileWarnings },
          ...analysis,
          // As the API: the compiled HTML for templates, which findings' positions refer to.
          ...(input.format !== 'html' ? { compiledHtml } : {}),
        };
        console.log(JSON.stringify(printed));
      } else {
        printAnalysisSummary(result);
      }
    });
}

/**
 * The spam level, saying whose it is: without a server there is no spamd, so it is the engine's estimate (its own
 * weights, with SpamAssassin's published scores for the same signals beside them).
 */
export function formatSpamLine(report: NonNullable<PreviewResultBody['spamReport']>): string {
  const source =
    report.levelSource === 'spamassassin'
      ? `SpamAssassin's verdict (${report.spamassassin?.score ?? '?'} of ${report.spamassassin?.threshold ?? report.requiredScore} points)`
      : `engine estimate, SpamAssassin not consulted: ${report.points} points, high from ${report.requiredScore}; SpamAssassin's published scores give the same signals ${report.spamAssassinPoints}`;
  return `Spam: ${report.level} risk (${source}), score ${report.score}/100`;
}

function printAnalysisSummary({ input, compileWarnings, analysis }: AnalyzedEmail): void {
  const clientIds = Object.keys(analysis.compatibilityScores) as ClientId[];
  console.log(describeInput(input));
  console.log(`Overall score: ${analysis.overallScore}/100 across ${plural(clientIds.length, 'client')}`);
  if (analysis.spamReport) console.log(formatSpamLine(analysis.spamReport));
  if (compileWarnings.length > 0) {
    console.log(`\nCompile warnings:`);
    for (const line of formatCompileWarnings(compileWarnings, '  ')) console.log(line);
  }
  console.log('');
  printTable(
    clientIds.map((id) => {
      const score = analysis.compatibilityScores[id];
      return { client: id, name: getClient(id).name, score: score.score, errors: score.errors, warnings: score.warnings, info: score.info };
    }),
  );

  // A whole message (.eml): its headers, parts, authentication and bulk-sender checklist before the HTML part's findings.
  if (analysis.messageReport) {
    console.log('\nMessage (authentication not looked up: the CLI makes no DNS queries):');
    for (const line of formatMessageReport(analysis.messageReport)) console.log(line);
  }

  const groups = groupFindings(analysis.cssReport);
  const counts = countBySeverity(groups);
  const problems = groups.filter((group) => group.severity !== 'info');
  console.log('');
  if (problems.length === 0) {
    console.log(`No errors or warnings; ${plural(counts.info, 'info note')} (--json lists every finding).`);
    return;
  }
  // Errors first, then the problems that hit the most clients.
  const top = [...problems]
    .sort((a, b) => (a.severity === b.severity ? b.clients.length - a.clients.length : a.severity === 'error' ? -1 : 1))
    .slice(0, TOP_FINDINGS);
  console.log(
    `Top findings${positionNote(input)}: ${plural(counts.error, 'error')}, ${plural(counts.warning, 'warning')}, ${plural(counts.info, 'info note')}`,
  );
  for (const line of formatFindingGroups(top, clientIds.length, '  ')) console.log(line);
  if (problems.length > top.length) console.log(`  … and ${problems.length - top.length} more (mailproof lint lists them all, --json prints every finding)`);
}
