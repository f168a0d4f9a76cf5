import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { fixOutcomeBody } from '@mailproof/contracts';
import type { ClientId, EmailFormat, FixTier } from '@mailproof/engine';
import {
  analyzeEmailResult,
  auditEmailResult,
  clientSummaries,
  createMcpServer,
  diffEmailsResult,
  ToolFailure,
  type AnalysisDetail,
  type AnalysisLike,
  type ToolHandler,
  type ToolHandlers,
} from '@mailproof/mcp';
import { disposeCompilers } from '@mailproof/sandbox';
import { CliError } from './cli-errors';
import { analyzeEmailInput, fixEmailInput } from './email-analysis';
import type { EmailInput } from './email-input';
import { RemoteTools, remoteServerFromEnv, type RemoteServer } from './mcp-remote';

import { version } from '../../../../package.json';

/** The tools that need a server: everything that stores, audits DNS or reads the account. */
type RemoteTool = 'preview_email' | 'gate_email' | 'check_deliverability' | 'share_preview' | 'list_domains' | 'capture_screenshots';

const LOCAL_PROBLEM_CODES: Record<string, string> = { compile: 'compile_failed', limit: 'payload_too_large', usage: 'validation_failed' };

/** A tool argument's email as the CLI's commands read a file: the format as given (html by default). */
function emailInput(
  source: string,
  field: string,
  format: EmailFormat | undefined,
  local: { files?: Record<string, string>; mjmlValidation?: 'soft' | 'strict' },
): EmailInput {
  return { path: field, label: field, source, format: format ?? 'html', detectedBy: 'option', files: local.files ?? {}, mjmlValidation: local.mjmlValidation };
}

/** Work on an email in this process; its problems (compile failures, engine limits) become tool failures. */
async function locally<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (!(error instanceof CliError)) throw error;
    throw new ToolFailure(LOCAL_PROBLEM_CODES[error.kind] ?? 'internal_error', error.message, { ...error.position });
  }
}

/** One email compiled and analyzed in this process, as `mailproof analyze` does; problems become tool failures. */
async function analyzeLocally(
  source: string,
  field: string,
  format: EmailFormat | undefined,
  clients: ClientId[] | undefined,
  local: { files?: Record<string, string>; mjmlValidation?: 'soft' | 'strict' } = {},
): Promise<AnalysisLike> {
  const { analysis } = await locally(() => analyzeEmailInput(emailInput(source, field, format, local), clients));
  // A shallow copy: the engine's interface has no index signature, the copy's object type has one.
  return { ...analysis };
}

/** fix_email in this process, as `mailproof fix` fixes a file: POST /api/fix's answer without a run id (nothing is stored). */
async function fixLocally(args: Record<string, unknown>): Promise<Record<string, unknown>> {
  const format = (args.format as EmailFormat | undefined) ?? 'html';
  const input = emailInput(args.html as string, 'html', format, args as { files?: Record<string, string>; mjmlValidation?: 'soft' | 'strict' });
  const tiers = (args.tiers as FixTier[] | undefined) ?? ['safe'];
  const { result } = await locally(() => fixEmailInput(input, args.clients as ClientId[] | undefined, tiers));
  return { ...fixOutcomeBody(result, format) };
}

function notConfigured(missing: string[]): ToolHandler {
  return (async () => {
    throw new ToolFailure(
      'server_not_configured',
      `This tool runs on a Mailproof server: set ${missing.join(' and ')} in the environment of \`mailproof mcp\` ` +
        '(MAILPROOF_API_URL=https://your-mailproof-server, MAILPROOF_API_KEY=mp_live_...). analyze_email, audit_email, diff_emails, fix_email and list_clients work without one.',
    );
  }) as ToolHandler;
}

/**
 * `mailproof mcp`'s work (mcp.command.ts loads this file when the command runs): analyze_email, audit_email,
 * diff_emails, fix_email and list_clients run in this process (no server, database or network); the others go
 * to the server in MAILPROOF_API_URL with MAILPROOF_API_KEY and say so when those are unset.
 * stdout carries the protocol only: nothing else may be printed there.
 */
export async function serveMcp(): Promise<void> {
  const remoteServer = remoteServerFromEnv(process.env);
  const remote = 'missing' in remoteServer ? null : new RemoteTools(remoteServer, version);
  const remoteHandler = (name: RemoteTool): ToolHandler =>
    remote ? (args) => remote.call(name, args) : notConfigured((remoteServer as { missing: string[] }).missing);

  const handlers: ToolHandlers = {
    analyze_email: async (args) => {
      const result = await analyzeLocally(args.html as string, 'html', args.format as EmailFormat, args.clients as ClientId[], args as never);
      return { ...analyzeEmailResult(result, null, (args.detail as AnalysisDetail | undefined) ?? 'summary') };
    },
    audit_email: async (args) =>
      auditEmailResult(await analyzeLocally(args.html as string, 'html', args.format as EmailFormat, args.clients as ClientId[], args as never), null),
    diff_emails: async (args) => {
      const before = await analyzeLocally(args.before as string, 'before', args.format as EmailFormat, args.clients as ClientId[]);
      const after = await analyzeLocally(args.after as string, 'after', args.format as EmailFormat, args.clients as ClientId[]);
      return { ...diffEmailsResult({ result: before, previewId: null }, { result: after, previewId: null }) };
    },
    list_clients: async () => ({ clients: clientSummaries() }),
    fix_email: fixLocally,
    preview_email: remoteHandler('preview_email'),
    gate_email: remoteHandler('gate_email'),
    check_deliverability: remoteHandler('check_deliverability'),
    share_preview: remoteHandler('share_preview'),
    capture_screenshots: remoteHandler('capture_screenshots'),
    list_domains: remoteHandler('list_domains'),
  };

  const server = createMcpServer({
    version,
    handlers,
    instructions: remote
      ? `analyze_email, audit_email, diff_emails, fix_email and list_clients run on this machine; the other tools call ${(remoteServer as RemoteServer).apiUrl}.`
      : 'analyze_email, audit_email, diff_emails, fix_email and list_clients run on this machine; the other tools need MAILPROOF_API_URL and MAILPROOF_API_KEY.',
    onUnexpectedError: (tool, error) => process.stderr.write(`mailproof mcp: ${tool}: ${error instanceof Error ? error.message : String(error)}\n`),
  });
  const transport = new StdioServerTransport();
  // The assistant ends the session by closing stdin: release the compilers and the server connection so the process exits.
  const closed = new Promise<void>((resolve) => (server.onclose = resolve));
  process.stdin.once('end', () => void transport.close());
  await server.connect(transport);
  await closed;
  await remote?.close();
  await disposeCompilers();
}
