import { Injectable, Logger } from '@nestjs/common';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { EmailFormat, ClientId, FixTier } from '@mailproof/engine';
import { checkSourceFiles, type RenderMode } from '@mailproof/contracts';
import {
  analyzeEmailResult,
  auditEmailResult,
  clientSummaries,
  createMcpServer,
  diffEmailsResult,
  InvalidToolArguments,
  ToolFailure,
  type AnalysisDetail,
  type AnalysisLike,
  type ToolHandlers,
} from '@mailproof/mcp';
import type { AuthenticatedAccount } from '../auth/request-identity';
import { DeliverabilityService } from '../deliverability/deliverability.service';
import { domainOrBadRequest, selectorsOrBadRequest } from '../deliverability/domain-input';
import { DomainsService } from '../domains/domains.service';
import { fixNotReadyProblem } from '../fix/fix-problems';
import { FixService, fixRunResult } from '../fix/fix.service';
import type { GateRequest } from '../gate/dto/gate.request';
import { gateRunNotReadyProblem } from '../gate/gate-problems';
import { GateService } from '../gate/gate.service';
import { storedPreviewJson } from '../http/stored-json-response';
import type { PreviewRequest } from '../previews/dto/preview.request';
import { previewNotReadyProblem } from '../previews/preview-problems';
import { PreviewsService } from '../previews/previews.service';
import { doneOrProblem } from '../problems/problem-for-failure';
import { PROBLEM_STATUS, ProblemException } from '../problems/problem.exception';
import { SharesService } from '../shares/shares.service';
import { scoresAndFindings } from './stored-findings';

import { version } from '../../../../package.json';

/** Problems that mean "these arguments are wrong": protocol errors naming the field, as a 400/413 names it over HTTP. */
const ARGUMENT_PROBLEMS = new Set(['validation_failed', 'payload_too_large']);

/**
 * Runs work of the HTTP services and turns their problems into what MCP answers: field errors become
 * InvalidToolArguments (protocol error -32602), every other problem a ToolFailure (a tool result with
 * isError) carrying the problem's code, message and extra fields, never its headers.
 */
async function asTool<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (!(error instanceof ProblemException)) throw error;
    const { headers, errors, ...details } = error.extensions;
    if (ARGUMENT_PROBLEMS.has(error.code) && errors && errors.length > 0) throw new InvalidToolArguments(errors);
    const retryAfter = headers?.['Retry-After'];
    throw new ToolFailure(error.code, error.message, {
      status: error.getStatus(),
      ...details,
      ...(errors ? { errors } : {}),
      ...(retryAfter ? { retryAfterSeconds: Number(retryAfter) } : {}),
    });
  }
}

interface EmailArguments {
  html: string;
  format?: EmailFormat;
  clients?: ClientId[];
  title?: string;
  screenshots?: boolean;
  files?: Record<string, string>;
  mjmlValidation?: 'soft' | 'strict';
  retain?: boolean;
}

/** The email fields of a tool's arguments, as the catalog's input schema checked them. */
function emailArguments(args: Record<string, unknown>): EmailArguments {
  return {
    html: args.html as string,
    format: args.format as EmailFormat | undefined,
    clients: args.clients as ClientId[] | undefined,
    title: args.title as string | undefined,
    screenshots: args.screenshots as boolean | undefined,
    files: args.files as Record<string, string> | undefined,
    mjmlValidation: args.mjmlValidation as EmailArguments['mjmlValidation'],
    retain: args.retain as boolean | undefined,
  };
}

/** The checks the HTTP DTOs run on `files` (OptionalSourceFiles): a 400 or 413 naming the field. */
function checkFilesArgument(files: unknown, html: unknown): void {
  if (files === undefined) return;
  const problems = checkSourceFiles(files, typeof html === 'string' ? Buffer.byteLength(html, 'utf8') : 0);
  if (problems.length === 0) return;
  const tooLarge = problems.some((problem) => problem.status === 413);
  throw new ProblemException(tooLarge ? 'payload_too_large' : 'validation_failed', problems[0].message, {
    errors: problems.map((problem) => ({ field: 'files', message: problem.message })),
  });
}

/**
 * The MCP tools over HTTP: each calls the service its HTTP endpoint calls (previews, the gate, DNS
 * audits, shares, domains, fixes), so the work goes through the same queues and workers and nothing is
 * analyzed in the API process. Only the reshaping of a stored result (grouping, the diff of two
 * results) happens here.
 */
@Injectable()
export class McpToolsService {
  private readonly logger = new Logger('Mcp');

  constructor(
    private readonly previews: PreviewsService,
    private readonly gate: GateService,
    private readonly deliverability: DeliverabilityService,
    private readonly shares: SharesService,
    private readonly domains: DomainsService,
    private readonly fixes: FixService,
  ) {}

  /** A server for one request of one account (stateless: any replica answers any request). */
  serverFor(account: AuthenticatedAccount): Server {
    return createMcpServer({
      version,
      handlers: this.handlersFor(account),
      onUnexpectedError: (tool, error) => this.logger.error(`${tool}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`),
    });
  }

  private handlersFor(account: AuthenticatedAccount): ToolHandlers {
    const preview = (args: EmailArguments) => asTool(() => this.analyzedPreview(args, account));
    const parsed = async (args: EmailArguments) => {
      const { id, json } = await preview(args);
      return { id, result: JSON.parse(json) as AnalysisLike };
    };
    const findings = async (args: EmailArguments) => {
      const { id, json, overallScore } = await preview(args);
      return { previewId: id, result: scoresAndFindings(json, overallScore) };
    };
    return {
      preview_email: async (args) => (await parsed(emailArguments(args))).result,
      analyze_email: async (args) => {
        const { previewId, result } = await findings(emailArguments(args));
        return { ...analyzeEmailResult(result, previewId, (args.detail as AnalysisDetail | undefined) ?? 'summary') };
      },
      audit_email: async (args) => {
        const { id, result } = await parsed(emailArguments(args));
        return auditEmailResult(result, id);
      },
      diff_emails: async (args) => {
        const shared = { format: args.format as EmailFormat | undefined, clients: args.clients as ClientId[] | undefined };
        // A failure says which version it is about (the two have the same kind of problems).
        const side = (name: 'before' | 'after') =>
          findings({ ...shared, html: args[name] as string, title: `diff_emails: ${name}` }).catch((error: unknown) => {
            throw error instanceof ToolFailure ? new ToolFailure(error.code, `${name}: ${error.message}`, { ...error.details, argument: name }) : error;
          });
        const [before, after] = await Promise.all([side('before'), side('after')]);
        return { ...diffEmailsResult(before, after) };
      },
      gate_email: (args) => {
        if (account.plan !== 'pro') {
          return Promise.reject(
            new ToolFailure('plan_required', 'gate_email needs a key on the Pro plan (as POST /api/gate does).', {
              status: PROBLEM_STATUS.plan_required,
              requiredPlan: 'pro',
            }),
          );
        }
        return asTool(async () => {
          checkFilesArgument(args.files, args.html);
          return { ...doneOrProblem(await this.gate.run(args as GateRequest, account), gateRunNotReadyProblem) };
        });
      },
      check_deliverability: (args) =>
        asTool(async () => {
          const audit = await this.deliverability.audit(
            account,
            domainOrBadRequest(args.domain as string),
            selectorsOrBadRequest(args.dkimSelectors as string[] | undefined),
          );
          return { ...audit };
        }),
      share_preview: (args) => asTool(async () => ({ ...(await this.shares.create(account, args.previewId as string)) })),
      capture_screenshots: (args) =>
        asTool(async () => {
          const previewId = args.previewId as string;
          const answer = await this.previews.captureScreenshots(
            previewId,
            { clients: args.clients as ClientId[] | undefined, modes: args.modes as RenderMode[] | undefined },
            account,
          );
          // The reports of the screenshots as stored with them (visualReport.divergence among them), read after the render.
          const stored = await this.previews.read(previewId, account);
          const visualReport = stored?.state === 'done' ? (stored.value.renderedReports?.visualReport ?? null) : null;
          return { ...answer, visualReport };
        }),
      list_domains: () => asTool(async () => ({ ...(await this.domains.list(account)) })),
      fix_email: (args) =>
        asTool(async () => {
          checkFilesArgument(args.files, args.html);
          const { html, format, clients, files, mjmlValidation, retain } = emailArguments(args);
          const run = doneOrProblem(
            await this.fixes.create({ html, format, clients, files, mjmlValidation, retain, tiers: args.tiers as FixTier[] | undefined }, account),
            fixNotReadyProblem,
          );
          return { ...fixRunResult(run) };
        }),
      list_clients: async () => ({ clients: clientSummaries() }),
    };
  }

  /** POST /api/preview's work for this account: the stored result as JSON text (with screenshots when they arrived). */
  private async analyzedPreview(args: EmailArguments, account: AuthenticatedAccount): Promise<{ id: string; json: string; overallScore: number | null }> {
    checkFilesArgument(args.files, args.html);
    const request: PreviewRequest = {
      html: args.html,
      format: args.format,
      clients: args.clients,
      title: args.title,
      screenshots: args.screenshots,
      files: args.files,
      mjmlValidation: args.mjmlValidation,
      retain: args.retain,
    };
    // A failure or a preview still queued after the budget is the problem POST /api/preview answers (asTool makes it a tool failure).
    const preview = doneOrProblem(await this.previews.create(request, account), previewNotReadyProblem);
    return { id: preview.id, json: storedPreviewJson(preview).toString('utf8'), overallScore: preview.overallScore };
  }
}
