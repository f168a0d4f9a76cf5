import { relative, resolve, sep } from 'node:path';
import { Option, type Command } from 'commander';
import { GATE_CHECK_FAMILIES, type ClientId, type GateCheckFamily } from '@mailproof/engine';
import type { CompileFormat } from '@mailproof/engine/compile';
import { clientsOption, formatOption, mjmlValidationOption } from './analyze.command';
import { CliError, UsageError, describeInputError } from './cli-errors';
import { withCompilers } from './email-analysis';
import { STDIN_PATH, parseClientsOption, planFormat, readEmailInput, type EmailInput, type MjmlValidation } from './email-input';
import { callGate, type GateRequestBody, type RetryNotice, type RetryPolicy, RETRY_AFTER_CAP_MS } from './gate-client';
import { LOCAL_CHECKS, localGate } from './gate-local';
import {
  GATE_EXIT_CODES,
  describeProblem,
  formatGateResult,
  formatGateSummary,
  gateCheckReport,
  gateExitCode,
  summarizeGate,
  type GateFileError,
  type GateFileResult,
} from './gate-report';
import { addReporterOptions, emitReport, programVersion, resolveReporter, type ReporterCliOptions } from '../reporters/reporter-options';

interface GateOptions extends ReporterCliOptions {
  apiUrl?: string;
  apiKey?: string;
  /** A string from --ref, false from --no-ref, undefined: one per file from its path. */
  ref?: string | false;
  threshold?: string;
  visualThreshold?: string;
  checks?: string;
  clients?: string;
  resolveLinks?: boolean;
  bulk?: boolean;
  updateBaseline?: 'on-pass' | 'always' | 'never';
  failOnError: boolean;
  format?: CompileFormat;
  mjmlValidation?: MjmlValidation;
  local?: boolean;
  retries: string;
  timeout: string;
}

export const DEFAULT_API_URL = 'http://localhost:3000';
/** Caps every wait between attempts (seconds); CI scripts and the tests set it low. Retry-After is capped at 60 s anyway. */
export const RETRY_MAX_WAIT_ENV = 'MAILPROOF_RETRY_MAX_WAIT_SECONDS';
const REF_PATTERN = /^[A-Za-z0-9._/:@-]{1,200}$/;
const MAX_REF_LENGTH = 200;
const MAX_RETRIES = 5;

/** What every file's request shares, checked once before any file is read. */
interface GateRun {
  local: boolean;
  apiUrl: string;
  apiKey: string;
  fixedRef: string | false | undefined;
  format: CompileFormat | undefined;
  mjmlValidation: MjmlValidation | undefined;
  clients: ClientId[] | undefined;
  checks: GateCheckFamily[] | undefined;
  threshold: number | undefined;
  failOnError: boolean;
  shared: Omit<GateRequestBody, 'html' | 'format' | 'ref'>;
  policy: RetryPolicy;
}

/**
 * `mailproof gate FILE...`: asks a Mailproof server (POST /api/gate) whether each email is safe to send,
 * one request per file, in turn. Exit 0 when every verdict passed, 1 when one failed, 2 when a file could
 * not be gated (unreadable, server unreachable, 4xx/5xx after retries); 3 for a wrong command line.
 */
export function registerGateCommand(program: Command): void {
  const command = program
    .command('gate')
    .description('the pre-send gate for CI: is each email safe to send? (exit 0 passed, 1 a verdict failed, 2 an error)')
    .argument('<files...>', 'emails to gate (.html, .htm, .maizzle.html, .jsx, .tsx, .mjml, .eml); `-` reads stdin')
    .option('--api-url <url>', `the Mailproof server (default: $MAILPROOF_API_URL or ${DEFAULT_API_URL})`)
    .option('--api-key <key>', 'a Pro API key (default: $MAILPROOF_API_KEY; prefer the variable, a flag shows in process lists)')
    .option('--ref <ref>', "the email's stable name for baselines (one file only; default: the file's path relative to here)")
    .option('--no-ref', 'send no ref: no regression check, no baseline stored')
    .option('--threshold <score>', 'a client scoring below it fails, 0-100 (server default 70)')
    .option('--checks <families>', `comma-separated subset of ${GATE_CHECK_FAMILIES.join(', ')} (default: all but visual, which is opt-in and needs a ref)`)
    .option('--visual-threshold <points>', "with --checks ...,visual: points a client's divergence may grow over the baseline's before it fails, 0-100")
    .addOption(clientsOption())
    .option('--resolve-links', 'fetch every link; a 4xx/5xx answer fails the gate')
    .option('--bulk', 'the mail is bulk: a message (.eml) must meet the Gmail/Yahoo bulk-sender requirements even without List-Unsubscribe')
    .addOption(new Option('--update-baseline <when>', 'when the stored baseline moves (server default on-pass)').choices(['on-pass', 'always', 'never']))
    .option('--no-fail-on-error', 'a client with errors does not fail the gate by itself')
    .addOption(formatOption())
    .addOption(mjmlValidationOption())
    .option('--json', 'print { files, summary, exitCode } as JSON (--reporter json)')
    .option('--local', 'no server: compatibility and content checks in this process (no baselines, no link fetching)')
    .option('--retries <n>', `retries after a 429, a 5xx or a network failure, 0-${MAX_RETRIES}`, '2')
    .option('--timeout <seconds>', 'how long one request may take', '60');
  addReporterOptions(command).action(async (files: string[], options: GateOptions, self: Command) => {
    const reporter = resolveReporter(options);
    const run = prepareRun(files, options);
    const results: GateFileResult[] = [];
    const gateAll = async () => {
      for (const file of files) {
        const result = await gateFile(file, run);
        results.push(result);
        if (reporter === 'text') console.log(`${formatGateResult(result, run.local).join('\n')}\n`);
      }
    };
    if (run.local) await withCompilers(gateAll);
    else await gateAll();
    const exitCode = gateExitCode(results);
    if (reporter === 'json') console.log(JSON.stringify({ files: results, summary: summarizeGate(results), exitCode }));
    else if (reporter === 'text') console.log(formatGateSummary(results));
    emitReport(gateCheckReport(results, exitCode, run.local), reporter, options, programVersion(self));
    process.exitCode = exitCode;
  });
}

/** Checks the whole command line (and the key) before any file is read or any request sent. */
function prepareRun(files: string[], options: GateOptions): GateRun {
  if (files.filter((file) => file === STDIN_PATH).length > 1) throw new UsageError('stdin (-) can only be read once');
  if (typeof options.ref === 'string') {
    if (files.length > 1) throw new UsageError('--ref names one email: pass one file with it (each file gets its own ref from its path otherwise)');
    if (!REF_PATTERN.test(options.ref)) throw new UsageError(`--ref must be 1-${MAX_REF_LENGTH} characters of letters, digits and ._/-:@`);
  }
  for (const file of files) planFormat(file, options.format);
  const clients = parseClientsOption(options.clients);
  const checks = parseChecks(options.checks);
  const threshold = parseNumber('--threshold', options.threshold, 0, 100, false);
  const visualThreshold = parseNumber('--visual-threshold', options.visualThreshold, 0, 100, false);
  if (visualThreshold !== undefined && !checks?.includes('visual')) throw new UsageError('--visual-threshold goes with --checks ...,visual');
  if (checks?.includes('visual') && options.ref === false) throw new UsageError('--checks visual compares with the baseline of a ref: drop --no-ref');
  const retries = parseNumber('--retries', options.retries, 0, MAX_RETRIES, true) as number;
  const timeoutSeconds = parseNumber('--timeout', options.timeout, 1, 3600, false) as number;
  const local = options.local === true;

  if (local) {
    const serverOnly = [
      typeof options.ref === 'string' ? '--ref' : null,
      options.updateBaseline ? '--update-baseline' : null,
      options.resolveLinks ? '--resolve-links' : null,
      options.bulk ? '--bulk' : null,
      checks?.includes('regression') ? '--checks regression' : null,
      checks?.includes('message') ? '--checks message' : null,
      checks?.includes('visual') ? '--checks visual' : null,
    ].filter((flag): flag is string => flag !== null);
    if (serverOnly.length > 0)
      throw new UsageError(`${serverOnly.join(', ')} need${serverOnly.length === 1 ? 's' : ''} a server; --local runs ${LOCAL_CHECKS.join(' and ')} only`);
  }

  const apiUrl = (options.apiUrl ?? process.env.MAILPROOF_API_URL ?? DEFAULT_API_URL).replace(/\/+$/, '');
  if (!local) checkApiUrl(apiUrl);
  const apiKey = options.apiKey ?? process.env.MAILPROOF_API_KEY ?? '';
  if (!local && apiKey.trim() === '') {
    throw new CliError(
      'no API key: set MAILPROOF_API_KEY (or pass --api-key) to a key on the Pro plan; --local runs the checks without a server',
      'usage',
      GATE_EXIT_CODES.error,
    );
  }

  const shared: GateRun['shared'] = {};
  if (threshold !== undefined) shared.threshold = threshold;
  if (checks) shared.checks = checks;
  if (clients) shared.clients = clients;
  if (options.failOnError === false) shared.failOnError = false;
  if (options.updateBaseline) shared.updateBaseline = options.updateBaseline;
  if (options.resolveLinks) shared.resolveLinks = true;
  if (options.bulk) shared.bulk = true;
  if (visualThreshold !== undefined) shared.visualThreshold = visualThreshold;

  return {
    local,
    apiUrl,
    apiKey: apiKey.trim(),
    fixedRef: options.ref,
    format: options.format,
    mjmlValidation: options.mjmlValidation,
    clients,
    checks,
    threshold,
    failOnError: options.failOnError !== false,
    shared,
    policy: { attempts: retries + 1, maxWaitMs: retryWaitCapMs(), timeoutMs: timeoutSeconds * 1000 },
  };
}

function parseChecks(value: string | undefined): GateCheckFamily[] | undefined {
  if (value === undefined) return undefined;
  const requested = [
    ...new Set(
      value
        .split(',')
        .map((check) => check.trim())
        .filter((check) => check.length > 0),
    ),
  ];
  if (requested.length === 0) throw new UsageError(`--checks needs at least one of ${GATE_CHECK_FAMILIES.join(', ')}`);
  const unknown = requested.filter((check) => !(GATE_CHECK_FAMILIES as readonly string[]).includes(check));
  if (unknown.length > 0) throw new UsageError(`unknown check(s): ${unknown.join(', ')}. Valid: ${GATE_CHECK_FAMILIES.join(', ')}`);
  return GATE_CHECK_FAMILIES.filter((family) => requested.includes(family));
}

function parseNumber(flag: string, value: string | undefined, min: number, max: number, integer: boolean): number | undefined {
  if (value === undefined) return undefined;
  const number = value.trim() === '' ? Number.NaN : Number(value);
  if (!Number.isFinite(number) || number < min || number > max || (integer && !Number.isInteger(number))) {
    throw new UsageError(`${flag} must be ${integer ? 'a whole number' : 'a number'} from ${min} to ${max}, not "${value}"`);
  }
  return number;
}

function checkApiUrl(apiUrl: string): void {
  let url: URL;
  try {
    url = new URL(apiUrl);
  } catch {
    throw new UsageError(`--api-url (or MAILPROOF_API_URL) is not a URL: "${apiUrl}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UsageError(`--api-url must be http or https, not ${url.protocol}`);
}

/** Each wait is at most 60 s (the contract's Retry-After cap), lower when MAILPROOF_RETRY_MAX_WAIT_SECONDS says so. */
function retryWaitCapMs(): number {
  const raw = process.env[RETRY_MAX_WAIT_ENV];
  if (raw === undefined || raw.trim() === '') return RETRY_AFTER_CAP_MS;
  const seconds = Number(raw);
  if (!Number.isFinite(seconds) || seconds < 0) throw new UsageError(`${RETRY_MAX_WAIT_ENV} must be a number of seconds, not "${raw}"`);
  return Math.min(RETRY_AFTER_CAP_MS, seconds * 1000);
}

/**
 * The default ref: the file's path relative to the working directory, with `/` separators and every
 * character the server does not take replaced by `-`; the last 200 characters when longer. stdin: none.
 */
export function defaultRef(file: string, cwd = process.cwd()): string | null {
  if (file === STDIN_PATH) return null;
  const path = relative(cwd, resolve(cwd, file)).split(sep).join('/');
  const ref = path.replace(/[^A-Za-z0-9._/:@-]/g, '-');
  return ref.length > MAX_REF_LENGTH ? ref.slice(-MAX_REF_LENGTH) : ref || null;
}

function refFor(file: string, run: GateRun): string | null {
  if (run.local || run.fixedRef === false) return null;
  return typeof run.fixedRef === 'string' ? run.fixedRef : defaultRef(file);
}

function fileError(error: unknown, label: string): GateFileError {
  const described = describeInputError(label, error);
  const kind = described.kind === 'read' || described.kind === 'limit' || described.kind === 'compile' ? described.kind : 'other';
  // The file is the entry's own field and heads its line: the message need not start with it again.
  const message = described.message.startsWith(`${label}: `) ? described.message.slice(label.length + 2) : described.message;
  return { kind, message, ...described.position };
}

async function gateFile(file: string, run: GateRun): Promise<GateFileResult> {
  const ref = refFor(file, run);
  let input: EmailInput;
  try {
    input = await readEmailInput(file, run.format, run.mjmlValidation);
  } catch (error) {
    if (error instanceof CliError && error.kind === 'usage') throw error;
    return { file, format: null, ref, outcome: 'error', error: fileError(error, file) };
  }
  if (run.local) {
    try {
      const verdict = await localGate(input, { threshold: run.threshold, checks: run.checks, clients: run.clients, failOnError: run.failOnError });
      return { file, format: input.format, ref: null, outcome: verdict.passed ? 'passed' : 'failed', verdict };
    } catch (error) {
      return { file, format: input.format, ref: null, outcome: 'error', error: fileError(error, input.label) };
    }
  }

  const compileInputs = {
    ...(Object.keys(input.files).length > 0 ? { files: input.files } : {}),
    ...(input.mjmlValidation ? { mjmlValidation: input.mjmlValidation } : {}),
  };
  const body: GateRequestBody = { html: input.source, format: input.format, ...compileInputs, ...(ref ? { ref } : {}), ...run.shared };
  const onRetry = (notice: RetryNotice) => console.error(`mailproof: ${input.label}: ${describeRetry(notice)}`);
  const result = await callGate(run.apiUrl, run.apiKey, body, run.policy, onRetry);
  const after = result.attempts > 1 ? ` (after ${result.attempts} attempts)` : '';
  switch (result.kind) {
    case 'verdict':
      return { file, format: input.format, ref, outcome: result.verdict.passed ? 'passed' : 'failed', verdict: result.verdict, attempts: result.attempts };
    case 'unreachable':
      return {
        file,
        format: input.format,
        ref,
        outcome: 'error',
        error: { kind: 'unreachable', message: `cannot reach the Mailproof server at ${run.apiUrl} (${result.message})${after}` },
        attempts: result.attempts,
      };
    case 'problem':
      return {
        file,
        format: input.format,
        ref,
        outcome: 'error',
        error: { ...result.problem, kind: 'http', status: result.status, message: `${describeProblem(result.status, result.problem)}${after}` },
        attempts: result.attempts,
      };
  }
}

function describeRetry(notice: RetryNotice): string {
  const seconds = (ms: number) => `${Math.round(ms / 100) / 10} s`;
  let why = '';
  if (notice.fromRetryAfter) {
    const asked = notice.retryAfterMs as number;
    why = asked > notice.waitMs ? ` (Retry-After: ${seconds(asked)}, capped at ${seconds(notice.waitMs)})` : ` (Retry-After: ${seconds(asked)})`;
  }
  return `attempt ${notice.attempt} of ${notice.attempts} failed (${notice.reason}); retrying in ${seconds(notice.waitMs)}${why}`;
}
