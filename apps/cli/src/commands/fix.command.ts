import { readFile, writeFile } from 'node:fs/promises';
import { Option, type Command } from 'commander';
import { createTwoFilesPatch } from 'diff';
import { fixOutcomeBody, type FixOutcomeBody, type FixPatched } from '@mailproof/contracts';
import { FIX_TIERS, type FixResult, type FixTier } from '@mailproof/engine';
import type { CompileFormat, CompileWarning } from '@mailproof/engine/compile';
import { clientsOption, formatOption, mjmlValidationOption } from './analyze.command';
import { CliError, UsageError } from './cli-errors';
import { fixEmailInput, withCompilers, type FixedEmail } from './email-analysis';
import { STDIN_PATH, parseClientsOption, planFormat, readEmailInput, type FormatDetectedBy, type MjmlValidation } from './email-input';
import { describeInput, formatCompileWarnings, plural } from './report-format';
import type { CheckReport, ReportedProblem } from '../reporters/check-report';
import { addReporterOptions, emitReport, programVersion, resolveReporter, type ReporterCliOptions } from '../reporters/reporter-options';

interface FixOptions extends ReporterCliOptions {
  format?: CompileFormat;
  mjmlValidation?: MjmlValidation;
  clients?: string;
  tier: FixTier;
  write?: boolean;
  check?: boolean;
}

/** `fix --check`: 1 when a fix would apply, as a formatter's check mode (0 when there is nothing to fix). */
export const FIX_CHECK_EXIT_CODES = { clean: 0, fixable: 1 } as const;

/**
 * `fix --json`: the input, which tiers ran and whether the file was written, then the answer POST /api/fix
 * gives (the contract's body: the engine's result with `format`, `patched` and, for compiled HTML, a `note`).
 */
type FixJson = {
  input: { file: string; format: CompileFormat; detectedBy: FormatDetectedBy; compileWarnings: CompileWarning[] };
  tiers: FixTier[];
  written: boolean;
} & FixOutcomeBody;

/** Formats whose fixes are never made in the source (MJML's may be, when the engine says so); a message's are made in its decoded HTML part. */
const COMPILED_ONLY: readonly CompileFormat[] = ['jsx', 'maizzle', 'eml'];

/** `--tier layout` runs the safe fixes too: a tier includes every tier before it. */
export function tiersUpTo(tier: FixTier): FixTier[] {
  return FIX_TIERS.slice(0, FIX_TIERS.indexOf(tier) + 1);
}

/** `mailproof fix FILE|-`: apply the deterministic fixes locally, print the diff, optionally write the file. */
export function registerFixCommand(program: Command): void {
  const command = program
    .command('fix')
    .description('apply the safe fixes (each proven by re-analysis) and print the diff; --write patches the file (no server needed)')
    .argument('<file>', 'the email: .html, .htm, .maizzle.html, .jsx, .tsx, .mjml or .eml; `-` reads stdin (without --write)')
    .addOption(formatOption())
    .addOption(mjmlValidationOption())
    .addOption(clientsOption())
    .addOption(
      new Option('--tier <tier>', 'the most visible tier to apply: safe (invisible fixes) or layout (safe + visible layout changes)')
        .choices(FIX_TIERS)
        .default('safe'),
    )
    .option('--write', 'patch the file in place (HTML files, and templates whose source the fixes could patch)')
    .option('--check', 'write nothing; exit 1 when a fix would apply (for CI, with --reporter)')
    .option('--json', 'print the whole fix result as JSON (--reporter json)');
  addReporterOptions(command).action(async (file: string, options: FixOptions, self: Command) => {
    const reporter = resolveReporter(options);
    if (options.check && options.write) throw new UsageError('--check writes nothing: pass --check or --write, not both');
    if (!options.check && (reporter === 'github' || reporter === 'sarif' || reporter === 'junit' || options.sarifFile)) {
      throw new UsageError(`--reporter ${reporter === 'text' ? 'sarif (--sarif-file)' : reporter} reports what \`fix --check\` finds: add --check`);
    }
    const clients = parseClientsOption(options.clients);
    if (options.write && file === STDIN_PATH) throw new UsageError('--write needs a file: stdin (-) cannot be patched in place');
    const plan = planFormat(file, options.format);
    // jsx and maizzle are always fixed in their compiled HTML: refused before anything is compiled.
    if (options.write && plan.kind === 'decided' && COMPILED_ONLY.includes(plan.format)) throw refuseWrite(file, plan.format);
    const input = await readEmailInput(file, options.format, options.mjmlValidation);
    const tiers = tiersUpTo(options.tier);
    const fixed = await withCompilers(() => fixEmailInput(input, clients, tiers));
    const body = fixOutcomeBody(fixed.result, input.format);
    if (options.write && body.patched !== 'source') throw refuseWrite(input.label, input.format);
    const written = options.write === true && body.applied.length > 0 ? await writePatched(file, input.source, body.html) : false;
    if (options.check) process.exitCode = body.applied.length > 0 ? FIX_CHECK_EXIT_CODES.fixable : FIX_CHECK_EXIT_CODES.clean;
    if (options.check) emitReport(fixCheckReport(file, body, process.exitCode as number), reporter, options, programVersion(self));
    if (reporter === 'json') {
      const printed: FixJson = {
        input: { file: input.path, format: input.format, detectedBy: input.detectedBy, compileWarnings: fixed.compileWarnings },
        tiers,
        written,
        ...body,
      };
      console.log(JSON.stringify(printed));
      return;
    }
    if (reporter !== 'text') return;
    printFix(fixed, { tiers, patched: body.patched, write: options.write === true, written });
  });
}

/**
 * `fix --check` for the code-host reporters: each fix that would apply, at its line when the fixes are made in
 * the file itself (in compiled HTML a line would not be the author's, so the annotation is on the file), and
 * the suggestions only the author can make as notes.
 */
function fixCheckReport(file: string, body: FixOutcomeBody, exitCode: number): CheckReport {
  const inFile = body.patched === 'source';
  // The engine gives line 0 for an element the parser implied (the <html> of a fragment): no position in the file.
  const at = (line: number) => (inFile && line > 0 ? { line } : {});
  const problems: ReportedProblem[] = body.applied.map((fix) => ({
    severity: 'error',
    ruleId: `fix/${fix.rule}`,
    title: fix.rule,
    message: `a ${fix.tier} fix applies: ${fix.description}`,
    ...at(fix.line),
    clients: fix.clients,
    blocking: true,
    help: `\`mailproof fix ${file}${inFile ? ' --write' : ''}\` ${inFile ? 'applies it' : 'shows the fixed HTML'}`,
  }));
  for (const skip of body.skipped) {
    problems.push({
      severity: 'note',
      ruleId: `fix/${skip.rule}`,
      title: skip.rule,
      message: skip.reason,
      ...at(skip.line),
      blocking: false,
    });
  }
  const outcome = body.applied.length > 0 ? 'failed' : 'passed';
  const summary = `${file === STDIN_PATH ? 'stdin' : file}: ${body.applied.length === 0 ? 'nothing to fix' : `${body.applied.length} ${body.applied.length === 1 ? 'fix' : 'fixes'} would apply`}`;
  return { command: 'fix --check', files: [{ file, outcome, score: body.before.score, problems }], exitCode, summary };
}

function refuseWrite(label: string, format: CompileFormat): UsageError {
  if (format === 'eml') {
    return new UsageError(
      `${label}: --write cannot patch a message: its fixes are made in its decoded HTML part, which would have to be encoded into the message again ` +
        '(and a DKIM signature over the body would break). Run without --write to see the diff of the HTML part, or save the fixed HTML with --json (its `html` field).',
    );
  }
  return new UsageError(
    `${label}: --write cannot patch a ${format} template: its fixes are made in the compiled HTML, which no file holds. ` +
      'Run without --write to see the diff of the compiled HTML, or save the fixed HTML with --json (its `html` field).',
  );
}

/**
 * Writes the patched text over the file, unless the file changed since it was read (or is not UTF-8,
 * whose bytes the text could not give back): the fixes were made in what was read.
 */
async function writePatched(path: string, source: string, html: string): Promise<true> {
  let current: Buffer;
  try {
    current = await readFile(path);
  } catch (error) {
    throw new CliError(`${path}: cannot read the file again before writing (${error instanceof Error ? error.message : String(error)})`, 'read');
  }
  if (!current.equals(Buffer.from(source, 'utf8'))) {
    throw new CliError(`${path}: the file changed while it was being fixed, or is not valid UTF-8; nothing was written`, 'read');
  }
  try {
    await writeFile(path, html, 'utf8');
  } catch (error) {
    throw new CliError(`${path}: cannot write the file (${error instanceof Error ? error.message : String(error)})`, 'read');
  }
  return true;
}

interface PrintContext {
  tiers: FixTier[];
  patched: FixPatched;
  write: boolean;
  written: boolean;
}

/** The diff (unless --write), then what was applied per rule, what was skipped and why, and the re-analysis before and after. */
function printFix({ input, compileWarnings, compiledHtml, result }: FixedEmail, context: PrintContext): void {
  const label = input.label;
  if (!context.write && result.applied.length > 0) {
    // The engine's diff names no file; the same diff under the file's name applies with `patch -p0` (html input).
    const name = context.patched === 'source' ? label : `${label} (compiled HTML)`;
    const before = context.patched === 'source' ? input.source : compiledHtml;
    process.stdout.write(createTwoFilesPatch(name, name, before, result.html, 'submitted', 'fixed'));
    console.log('');
  }
  console.log(`${describeInput(input)}, tiers: ${context.tiers.join(' + ')}`);
  if (context.patched === 'compiled-html') {
    console.log(
      input.format === 'eml'
        ? 'The fixes are made in the decoded HTML part of this message, not in the file.'
        : `The fixes are made in the compiled HTML of this ${input.format} template, not in the file.`,
    );
  }
  if (compileWarnings.length > 0) {
    console.log('Compile warnings:');
    for (const line of formatCompileWarnings(compileWarnings, '  ')) console.log(line);
  }
  for (const line of formatApplied(result)) console.log(line);
  for (const line of formatSkipped(result)) console.log(line);
  console.log(`Before: ${describeTally(result.before)}`);
  console.log(`After:  ${describeTally(result.after)}`);
  const resolved = Object.entries(result.resolved);
  if (resolved.length > 0) {
    const total = resolved.reduce((sum, [, count]) => sum + count, 0);
    console.log(`Resolved ${plural(total, 'finding')}: ${resolved.map(([rule, count]) => `${rule} ${count}`).join(', ')}`);
  }
  if (result.applied.length === 0) console.log('Nothing to fix: the file is left as it is.');
  else if (context.written) console.log(`Wrote ${label}.`);
  else if (context.patched === 'source') console.log(`Nothing written: \`mailproof fix ${label} --write\` patches the file.`);
}

function describeTally(tally: FixResult['before']): string {
  return `score ${tally.score}/100, ${plural(tally.errors, 'error')}, ${plural(tally.warnings, 'warning')}`;
}

/** One line per rule: how many changes, on which lines, and what each kind of change does. */
export function formatApplied(result: Pick<FixResult, 'applied'>): string[] {
  if (result.applied.length === 0) return ['Applied: none'];
  const byRule = new Map<string, { lines: number[]; descriptions: string[] }>();
  for (const fix of result.applied) {
    const entry = byRule.get(fix.rule) ?? { lines: [], descriptions: [] };
    if (!entry.lines.includes(fix.line)) entry.lines.push(fix.line);
    if (!entry.descriptions.includes(fix.description)) entry.descriptions.push(fix.description);
    byRule.set(fix.rule, entry);
  }
  const counts = new Map<string, number>();
  for (const fix of result.applied) counts.set(fix.rule, (counts.get(fix.rule) ?? 0) + 1);
  const ruleWidth = Math.max(...[...byRule.keys()].map((rule) => rule.length));
  const lines = [`Applied ${result.applied.length} ${result.applied.length === 1 ? 'fix' : 'fixes'}:`];
  for (const [rule, entry] of byRule) {
    const where = `${entry.lines.length === 1 ? 'line' : 'lines'} ${entry.lines.join(', ')}`;
    lines.push(`  ${rule.padEnd(ruleWidth)}  ${String(counts.get(rule)).padStart(3)}x  ${where}: ${entry.descriptions.join('; ')}`);
  }
  return lines;
}

/** One line per place a fix was not made, with the reason (a content image needs words only its author knows). */
export function formatSkipped(result: Pick<FixResult, 'skipped'>): string[] {
  if (result.skipped.length === 0) return [];
  return [`Skipped ${result.skipped.length}:`, ...result.skipped.map((skip) => `  line ${skip.line}  ${skip.rule}: ${skip.reason}`)];
}
