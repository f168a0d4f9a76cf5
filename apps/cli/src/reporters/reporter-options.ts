import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { Option, type Command } from 'commander';
import { UsageError } from '../commands/cli-errors';
import { DOCS_PACKAGE, DOCS_URL_ENV, REPORTERS, defaultDocsUrl, type CheckReport, type ReporterName } from './check-report';
import { writeGithubReport } from './github';
import { toJunit } from './junit';
import { toSarif } from './sarif';

export interface ReporterCliOptions {
  reporter?: ReporterName;
  json?: boolean;
  sarifFile?: string;
  docsUrl?: string;
}

/** `--reporter`, `--sarif-file` and `--docs-url`, shared by lint, gate and fix. */
export function addReporterOptions(command: Command): Command {
  return command
    .addOption(new Option('--reporter <name>', 'output: text, json, github (workflow commands and job summary), sarif or junit').choices(REPORTERS))
    .option('--sarif-file <path>', 'also write the SARIF log to this file, whatever the reporter')
    .option(
      '--docs-url <url>',
      `base URL of the docs the SARIF help links point into (default: $${DOCS_URL_ENV}, else the docs published in ${DOCS_PACKAGE} at this version, ${defaultDocsUrl('<version>')})`,
    );
}

/** `--json` is the short form of `--reporter json`; the two may not disagree. Checked before any file is read. */
export function resolveReporter(options: ReporterCliOptions): ReporterName {
  if (options.json && options.reporter && options.reporter !== 'json') throw new UsageError(`--json and --reporter ${options.reporter} disagree: pass one`);
  if (options.docsUrl !== undefined) checkDocsUrl(options.docsUrl);
  return options.json ? 'json' : (options.reporter ?? 'text');
}

function checkDocsUrl(value: string): void {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UsageError(`--docs-url must be an absolute URL, not "${value}"`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new UsageError(`--docs-url must be http or https, not ${url.protocol}`);
}

function docsUrl(options: ReporterCliOptions, version: string): string {
  return options.docsUrl ?? (process.env[DOCS_URL_ENV] || defaultDocsUrl(version));
}

/** The program's version, for the SARIF tool driver (`mailproof --version`). */
export function programVersion(command: Command): string {
  let root: Command = command;
  while (root.parent) root = root.parent;
  return root.version() ?? '0.0.0';
}

/**
 * Writes what a code-host reporter (github, sarif, junit) prints, and the SARIF file when asked for.
 * text and json are printed by each command itself; only the SARIF file is written for them here.
 */
export function emitReport(report: CheckReport, reporter: ReporterName, options: ReporterCliOptions, version: string): void {
  const sarif = () => `${JSON.stringify(toSarif(report, { docsUrl: docsUrl(options, version), toolVersion: version }), null, 2)}\n`;
  if (options.sarifFile) {
    mkdirSync(dirname(options.sarifFile), { recursive: true });
    writeFileSync(options.sarifFile, sarif());
  }
  if (reporter === 'github') writeGithubReport(report);
  else if (reporter === 'sarif') process.stdout.write(sarif());
  else if (reporter === 'junit') process.stdout.write(`${toJunit(report)}\n`);
}
