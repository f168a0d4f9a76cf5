import { readFile, stat } from 'node:fs/promises';
import { extname } from 'node:path';
import { resolveClients, type ClientId } from '@mailproof/engine';
import { COMPILE_FORMATS, type CompileFormat, type SourceFiles } from '@mailproof/engine/compile';
import { COMPILE_LIMITS } from '@mailproof/sandbox';
import { CliError, UsageError } from './cli-errors';
import { readLocalImports } from './local-imports';

/** The path that means "read the email from standard input". */
export const STDIN_PATH = '-';

/** How the format of an input was decided; printed so a surprising guess is easy to spot. */
export type FormatDetectedBy = 'option' | 'extension' | 'content';

export interface EmailInput {
  /** The path as given, or `-` for stdin. */
  path: string;
  /** What messages call the input: the path, or `stdin`. */
  label: string;
  source: string;
  format: CompileFormat;
  detectedBy: FormatDetectedBy;
  /** The local files it imports, keyed relative to its folder (local-imports.ts); none for stdin and html. */
  files: SourceFiles;
  /** `--mjml-validation`: MJML's own default (soft) when unset. */
  mjmlValidation?: MjmlValidation;
}

export type MjmlValidation = 'soft' | 'strict';

/**
 * What the path alone says about the format. `.html`/`.htm` and stdin still need a look at the content,
 * because Maizzle templates are `.html` files too.
 */
type FormatPlan = { kind: 'decided'; format: CompileFormat; detectedBy: 'option' | 'extension' } | { kind: 'html-or-maizzle' } | { kind: 'any' };

const FORMAT_BY_EXTENSION: Readonly<Record<string, CompileFormat>> = {
  '.html': 'html',
  '.htm': 'html',
  '.jsx': 'jsx',
  '.tsx': 'jsx',
  '.mjml': 'mjml',
  '.eml': 'eml',
};

/**
 * Decides from `--format` or the file name; throws a UsageError for a name that says nothing, so `lint`
 * can refuse the whole command line before analyzing any file.
 */
export function planFormat(path: string, formatOption: CompileFormat | undefined): FormatPlan {
  if (formatOption) return { kind: 'decided', format: formatOption, detectedBy: 'option' };
  if (path === STDIN_PATH) return { kind: 'any' };
  const lower = path.toLowerCase();
  if (lower.endsWith('.maizzle.html') || lower.endsWith('.maizzle.htm')) return { kind: 'decided', format: 'maizzle', detectedBy: 'extension' };
  const format = FORMAT_BY_EXTENSION[extname(lower)];
  if (format === 'html') return { kind: 'html-or-maizzle' };
  if (format) return { kind: 'decided', format, detectedBy: 'extension' };
  throw new UsageError(
    `cannot tell the format of ${path} from its extension (known: .html, .htm, .maizzle.html, .jsx, .tsx, .mjml, .eml); pass --format ${COMPILE_FORMATS.join('|')}`,
  );
}

/** The format of an email from `--format`, its name and its text, as `readEmailInput` decides it. */
export function detectFormat(path: string, formatOption: CompileFormat | undefined, source: string): { format: CompileFormat; detectedBy: FormatDetectedBy } {
  return settleFormat(planFormat(path, formatOption), source);
}

function settleFormat(plan: FormatPlan, source: string): { format: CompileFormat; detectedBy: FormatDetectedBy } {
  if (plan.kind === 'decided') return { format: plan.format, detectedBy: plan.detectedBy };
  if (looksLikeMaizzle(source)) return { format: 'maizzle', detectedBy: 'content' };
  if (plan.kind === 'html-or-maizzle') return { format: 'html', detectedBy: 'extension' };
  if (/^\s*(<!--[\s\S]*?-->\s*)*<mjml[\s>]/i.test(source)) return { format: 'mjml', detectedBy: 'content' };
  if (plan.kind === 'any' && looksLikeMessage(source)) return { format: 'eml', detectedBy: 'content' };
  if (looksLikeJsx(source)) return { format: 'jsx', detectedBy: 'content' };
  return { format: 'html', detectedBy: 'content' };
}

/**
 * Maizzle-only markers: YAML front matter at the very start, the built-in layout (`<x-main>`,
 * `<extends src>`) or `page.` expressions. A bare `{{name}}` is not one: ESP merge tags look the same.
 */
export function looksLikeMaizzle(source: string): boolean {
  return (
    /^\uFEFF?---[ \t]*\r?\n[\s\S]*?\r?\n---[ \t]*(\r?\n|$)/.test(source) ||
    /<x-main[\s>/]/i.test(source) ||
    /<extends\s+src\s*=/i.test(source) ||
    /\{\{\{?\s*page\./.test(source)
  );
}

/**
 * A whole message on stdin: it opens with header fields (`Name: value`, folded lines allowed) up to the blank
 * line, among them a From, MIME-Version or Content-Type. Markup never starts with a header field.
 */
export function looksLikeMessage(source: string): boolean {
  const header = /^((?:[!-9;-~]+:[^\r\n]*\r?\n(?:[ \t][^\r\n]*\r?\n)*)+)\r?\n/.exec(source.slice(0, 64 * 1024));
  return header !== null && /^(from|mime-version|content-type):/im.test(header[1]);
}

function looksLikeJsx(source: string): boolean {
  return /^\s*import\s[^;]*\bfrom\s*['"]/m.test(source) || /^\s*export\s+default\b/m.test(source);
}

/** Reads one email (a file, or stdin for `-`), decides its format and reads its local imports (files only). */
export async function readEmailInput(path: string, formatOption: CompileFormat | undefined, mjmlValidation?: MjmlValidation): Promise<EmailInput> {
  const plan = planFormat(path, formatOption);
  const label = path === STDIN_PATH ? 'stdin' : path;
  const source = path === STDIN_PATH ? await readStdin() : await readEmailFile(path);
  const settled = settleFormat(plan, source);
  const files = path === STDIN_PATH ? {} : await readLocalImports(path, source, settled.format);
  return { path, label, source, ...settled, files, ...(mjmlValidation ? { mjmlValidation } : {}) };
}

// Anything larger is refused by the compiler anyway; checking first avoids reading a huge file into memory.
const MAX_SOURCE_BYTES = COMPILE_LIMITS.maxSourceBytes;

async function readEmailFile(path: string): Promise<string> {
  try {
    const info = await stat(path);
    if (info.isDirectory()) throw new CliError(`${path}: is a directory, not an email file`, 'read');
    if (info.size > MAX_SOURCE_BYTES) throw new CliError(`${path}: the file is ${info.size} bytes; the limit is ${MAX_SOURCE_BYTES} bytes (500 KB)`, 'limit');
    return await readFile(path, 'utf8');
  } catch (error) {
    if (error instanceof CliError) throw error;
    throw new CliError(`${path}: cannot read the file (${describeFileSystemError(error)})`, 'read');
  }
}

function describeFileSystemError(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  switch (code) {
    case 'ENOENT':
      return 'no such file';
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    case 'EISDIR':
      return 'is a directory';
    default:
      return code ?? (error instanceof Error ? error.message : String(error));
  }
}

async function readStdin(): Promise<string> {
  if (process.stdin.isTTY) process.stderr.write('mailproof: reading the email from stdin (end with Ctrl-D)\n');
  const chunks: Buffer[] = [];
  let bytes = 0;
  for await (const chunk of process.stdin as AsyncIterable<Buffer>) {
    bytes += chunk.length;
    if (bytes > MAX_SOURCE_BYTES) throw new CliError(`stdin: the email is over the limit of ${MAX_SOURCE_BYTES} bytes (500 KB)`, 'limit');
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** `--clients a,b` → canonical client ids; unknown ids are a usage error listing the valid ones. */
export function parseClientsOption(value: string | undefined): ClientId[] | undefined {
  if (value === undefined) return undefined;
  const requested = value
    .split(',')
    .map((id) => id.trim())
    .filter((id) => id.length > 0);
  if (requested.length === 0) throw new UsageError('--clients needs at least one client id (see `mailproof clients`)');
  try {
    return resolveClients(requested);
  } catch (error) {
    throw new UsageError(`${error instanceof Error ? error.message : String(error)} (see \`mailproof clients\`)`);
  }
}
