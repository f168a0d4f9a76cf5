/**
 * What `lint`, `gate` and `fix --check` report, in one shape the code-host reporters (GitHub workflow
 * commands and job summary, SARIF, JUnit) read. `text` and `json` stay each command's own output.
 */

export const REPORTERS = ['text', 'json', 'github', 'sarif', 'junit'] as const;
export type ReporterName = (typeof REPORTERS)[number];

export type ReportedSeverity = 'error' | 'warning' | 'note';

export interface ReportedProblem {
  severity: ReportedSeverity;
  /**
   * The finding kind: a compatibility rule (`css-display-flex`, `html-svg`, `unknown-property`), a gate
   * check (`gate/threshold`, `gate/links`), a fix (`fix/layout-table-role`) or an input problem (`input/compile`).
   */
  ruleId: string;
  /** A few words for an annotation's title: the property, the check, the fix. */
  title: string;
  message: string;
  /** 1-based, in the file as written (the template's line for jsx, mjml and maizzle); absent when no source position is known. */
  line?: number;
  column?: number;
  clients?: string[];
  /** Whether this problem made the command fail (its exit code). JUnit reports only these as failures. */
  blocking: boolean;
  /** How to resolve it, when the command knows (a finding's suggestion). */
  help?: string;
}

export interface ReportedClientScore {
  clientId: string;
  score: number;
  errors: number;
  warnings: number;
}

export interface ReportedFile {
  /** As given on the command line; `-` for stdin. */
  file: string;
  outcome: 'passed' | 'failed' | 'error';
  score?: number;
  problems: ReportedProblem[];
  clientScores?: ReportedClientScore[];
  /** Lines of context for the job summary: the gate run and preview, the baseline. */
  notes?: string[];
}

export interface CheckReport {
  command: 'lint' | 'gate' | 'fix --check';
  files: ReportedFile[];
  exitCode: number;
  /** The one-line summary the text output ends with. */
  summary: string;
}

/** The npm package the docs are published in: the build copies docs/rules.md and docs/cli.md into it (scripts/build-cli-package.js). */
export const DOCS_PACKAGE = '@mailproof/cli';
export const DOCS_URL_ENV = 'MAILPROOF_DOCS_URL';

/**
 * Where the finding kinds are documented unless `--docs-url` or MAILPROOF_DOCS_URL says otherwise: the docs
 * folder of the package at the version that wrote the report, as jsDelivr's npm CDN serves every published
 * package's files (docs/ci.md, "Help links"). The project names no public host of its own; this URL exists as
 * soon as the package is published and always matches the rules of the version that emitted them.
 */
export function defaultDocsUrl(version: string): string {
  return `https://cdn.jsdelivr.net/npm/${DOCS_PACKAGE}@${version}/docs`;
}

/** The documentation page and anchor that explain a finding kind, as an absolute URL. */
export function ruleHelpUri(ruleId: string, docsUrl: string): string {
  const base = docsUrl.replace(/\/+$/, '');
  const [family, name] = ruleId.includes('/') ? ruleId.split('/', 2) : ['', ruleId];
  if (family === 'gate') return `${base}/rules.md#gate-${name}`;
  if (family === 'fix') return `${base}/rules.md#fixes`;
  if (family === 'input') return `${base}/rules.md#input-problems`;
  return `${base}/rules.md#compatibility-findings`;
}

/** Counts per outcome, for summaries. */
export function countOutcomes(report: CheckReport): { passed: number; failed: number; errors: number } {
  const counts = { passed: 0, failed: 0, errors: 0 };
  for (const file of report.files) {
    if (file.outcome === 'passed') counts.passed += 1;
    else if (file.outcome === 'failed') counts.failed += 1;
    else counts.errors += 1;
  }
  return counts;
}

/** The lowest score among the files that have one (the action's `score` output); null when none has. */
export function lowestScore(report: CheckReport): number | null {
  const scores = report.files.map((file) => file.score).filter((score): score is number => typeof score === 'number');
  return scores.length === 0 ? null : Math.min(...scores);
}
