import { relative, resolve, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { CheckReport, ReportedProblem } from './check-report';
import { lowestScore, ruleHelpUri } from './check-report';

/** The schema GitHub code scanning and the SARIF tools name for 2.1.0. */
export const SARIF_SCHEMA_URI = 'https://json.schemastore.org/sarif-2.1.0.json';

interface SarifRule {
  id: string;
  name: string;
  shortDescription: { text: string };
  help: { text: string };
  helpUri: string;
  defaultConfiguration: { level: 'error' | 'warning' | 'note' };
}

export interface SarifOptions {
  docsUrl: string;
  toolVersion: string;
  /** Result paths are relative to it (the repository root in CI); default: the working directory. */
  cwd?: string;
}

/** A result's artifact: the file relative to the working directory, with `/`, percent-encoded as a URI reference. */
function artifactUri(file: string, cwd: string): string {
  return relative(cwd, resolve(cwd, file)).split(sep).map(encodeURIComponent).join('/');
}

function ruleFor(problem: ReportedProblem, docsUrl: string): SarifRule {
  return {
    id: problem.ruleId,
    name: problem.ruleId.replace(/[^A-Za-z0-9]+(.)?/g, (_match, next: string | undefined) => (next ?? '').toUpperCase()),
    shortDescription: { text: problem.title },
    help: { text: problem.help ?? problem.message },
    helpUri: ruleHelpUri(problem.ruleId, docsUrl),
    defaultConfiguration: { level: problem.severity },
  };
}

/**
 * The report as a SARIF 2.1.0 log: one run, one rule per finding kind (its first occurrence's title and help,
 * an absolute help URI into the docs), one result per problem at the file's line and column when known.
 * The run's properties carry the command's verdict (`passed`, the lowest `score`, `exitCode`).
 */
export function toSarif(report: CheckReport, options: SarifOptions): object {
  const cwd = options.cwd ?? process.cwd();
  const rules: SarifRule[] = [];
  const ruleIndex = new Map<string, number>();
  const results: object[] = [];
  for (const file of report.files) {
    for (const problem of file.problems) {
      if (!ruleIndex.has(problem.ruleId)) {
        ruleIndex.set(problem.ruleId, rules.length);
        rules.push(ruleFor(problem, options.docsUrl));
      }
      const region =
        problem.line === undefined ? undefined : { startLine: problem.line, ...(problem.column === undefined ? {} : { startColumn: problem.column }) };
      const location =
        file.file === '-'
          ? undefined
          : { physicalLocation: { artifactLocation: { uri: artifactUri(file.file, cwd), uriBaseId: 'SRCROOT' }, ...(region ? { region } : {}) } };
      results.push({
        ruleId: problem.ruleId,
        ruleIndex: ruleIndex.get(problem.ruleId),
        level: problem.severity,
        message: { text: problem.message },
        ...(location ? { locations: [location] } : {}),
        ...(problem.clients && problem.clients.length > 0 ? { properties: { clients: problem.clients } } : {}),
      });
    }
  }
  const score = lowestScore(report);
  return {
    $schema: SARIF_SCHEMA_URI,
    version: '2.1.0',
    runs: [
      {
        tool: { driver: { name: 'mailproof', version: options.toolVersion, informationUri: options.docsUrl.replace(/\/+$/, '') + '/cli.md', rules } },
        originalUriBaseIds: { SRCROOT: { uri: pathToFileURL(cwd.endsWith(sep) ? cwd : `${cwd}${sep}`).href } },
        invocations: [{ executionSuccessful: report.files.every((file) => file.outcome !== 'error'), exitCode: report.exitCode }],
        results,
        properties: { command: report.command, passed: report.exitCode === 0, ...(score === null ? {} : { score }), summary: report.summary },
      },
    ],
  };
}
