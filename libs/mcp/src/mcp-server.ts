import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListToolsRequestSchema,
  ReadResourceRequestSchema,
  type CallToolResult,
} from '@modelcontextprotocol/sdk/types.js';
import type { FieldError } from '@mailproof/contracts';
import { advertisedSchema, ArgumentValidator } from './argument-validation';
import { PromptArgumentError, PROMPTS } from './prompts';
import { clientSummaries, CLIENTS_RESOURCE } from './resources';
import { isToolName, TOOLS, type ToolDefinition } from './tool-catalog';
import { divergenceSummary } from './tool-results';
import { InvalidToolArguments, ProtocolError, ToolFailure } from './tool-errors';
import type { ToolName } from './tool-inputs';

/** A tool's work: its checked arguments in, its structured result out. Throws ToolFailure or InvalidToolArguments. */
export type ToolHandler = (args: Record<string, unknown>) => Promise<Record<string, unknown>>;
export type ToolHandlers = Record<ToolName, ToolHandler>;

export interface McpServerOptions {
  /** The Mailproof version, reported as the server's version. */
  version: string;
  handlers: ToolHandlers;
  /** Words for the assistant about this server (the transport's specifics go here). */
  instructions?: string;
  /** Called with what a handler threw that was not a ToolFailure: the assistant only learns "internal_error". */
  onUnexpectedError?: (tool: string, error: unknown) => void;
}

const INSTRUCTIONS =
  'Mailproof checks emails before they are sent: compatibility in 21 email clients (analyze_email, diff_emails), ' +
  'deterministic fixes proven by re-analysis (fix_email), quality reports (audit_email), a pass/fail pre-send gate (gate_email) ' +
  'and sending-domain DNS (check_deliverability). ' +
  'Client ids come from list_clients. Markup is at most 500 KB.';

const validator = new ArgumentValidator();
/** What tools/list answers: the same for every server, made once. */
let listedTools: ReturnType<typeof listedTool>[] | undefined;

function invalidArguments(tool: string, errors: FieldError[]): ProtocolError {
  const list = errors.map((error) => `${error.field}: ${error.message}`).join('; ');
  return new ProtocolError(ErrorCode.InvalidParams, `Invalid arguments for tool ${tool}: ${list}`, { errors });
}

/**
 * The structured result, and as text its JSON; a result with `visualReport.divergence` (preview_email,
 * audit_email, capture_screenshots) gets a second text block, the divergence summarised (clients in order,
 * top regions with their causes), for clients that read text content only.
 */
function success(structured: Record<string, unknown>): CallToolResult {
  const summary = divergenceSummary(structured.visualReport);
  const content: CallToolResult['content'] = [{ type: 'text', text: JSON.stringify(structured) }];
  if (summary) content.push({ type: 'text', text: summary });
  return { content, structuredContent: structured };
}

function failure(code: string, message: string, details: Record<string, unknown> = {}): CallToolResult {
  return { isError: true, content: [{ type: 'text', text: JSON.stringify({ code, message, ...details }) }] };
}

function listedTool(tool: ToolDefinition) {
  return {
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: advertisedSchema(tool.inputSchema) as { type: 'object'; [key: string]: unknown },
    outputSchema: tool.outputSchema as { type: 'object'; [key: string]: unknown },
    annotations: tool.annotations,
  };
}

/**
 * The Mailproof MCP server on the SDK's low-level `Server`, the same for both transports: the API
 * connects one to a stateless streamable-HTTP transport per request, `mailproof mcp` one to stdio.
 * The low-level server (rather than McpServer) because the catalog's schemas are JSON Schema
 * shared with the CLI, and because McpServer answers bad arguments and unknown tools as tool results,
 * where Mailproof answers them as protocol errors (-32602) that name the field (docs/mcp.md).
 */
export function createMcpServer(options: McpServerOptions): Server {
  const server = new Server(
    { name: 'mailproof', title: 'Mailproof', version: options.version },
    { capabilities: { tools: {}, prompts: {}, resources: {} }, instructions: options.instructions ? `${INSTRUCTIONS} ${options.instructions}` : INSTRUCTIONS },
  );
  const tools = (listedTools ??= TOOLS.map(listedTool));

  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools }));

  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const { name, arguments: args = {} } = request.params;
    if (!isToolName(name)) {
      throw new ProtocolError(ErrorCode.InvalidParams, `Unknown tool: ${name}. Tools: ${TOOLS.map((tool) => tool.name).join(', ')}`);
    }
    const tool = TOOLS.find((candidate) => candidate.name === name)!;
    const errors = validator.check(tool.inputSchema, args);
    if (errors.length > 0) throw invalidArguments(name, errors);
    try {
      return success(await options.handlers[name](args));
    } catch (error) {
      if (error instanceof InvalidToolArguments) throw invalidArguments(name, error.errors);
      if (error instanceof ToolFailure) return failure(error.code, error.message, error.details);
      if (error instanceof ProtocolError) throw error;
      options.onUnexpectedError?.(name, error);
      return failure('internal_error', `${name} failed unexpectedly; retry shortly.`);
    }
  });

  server.setRequestHandler(ListPromptsRequestSchema, () => ({
    prompts: PROMPTS.map(({ name, title, description, arguments: promptArguments }) => ({ name, title, description, arguments: promptArguments })),
  }));

  server.setRequestHandler(GetPromptRequestSchema, (request) => {
    const prompt = PROMPTS.find((candidate) => candidate.name === request.params.name);
    if (!prompt) throw new ProtocolError(ErrorCode.InvalidParams, `Unknown prompt: ${request.params.name}. Prompts: ${PROMPTS.map((p) => p.name).join(', ')}`);
    const args = request.params.arguments ?? {};
    const errors: FieldError[] = [
      ...prompt.arguments
        .filter((argument) => argument.required && !args[argument.name]?.trim())
        .map((argument) => ({ field: argument.name, message: 'is required' })),
      ...Object.keys(args)
        .filter((key) => !prompt.arguments.some((argument) => argument.name === key))
        .map((key) => ({ field: key, message: 'is not an argument of this prompt' })),
    ];
    if (errors.length > 0)
      throw new ProtocolError(
        ErrorCode.InvalidParams,
        `Invalid arguments for prompt ${prompt.name}: ${errors.map((e) => `${e.field}: ${e.message}`).join('; ')}`,
        { errors },
      );
    try {
      return { description: prompt.description, messages: [{ role: 'user' as const, content: { type: 'text' as const, text: prompt.message(args) } }] };
    } catch (error) {
      if (!(error instanceof PromptArgumentError)) throw error;
      throw new ProtocolError(ErrorCode.InvalidParams, `Invalid arguments for prompt ${prompt.name}: ${error.field}: ${error.message}`, {
        errors: [{ field: error.field, message: error.message }],
      });
    }
  });

  server.setRequestHandler(ListResourcesRequestSchema, () => ({ resources: [CLIENTS_RESOURCE] }));

  server.setRequestHandler(ReadResourceRequestSchema, (request) => {
    if (request.params.uri !== CLIENTS_RESOURCE.uri)
      throw new ProtocolError(ErrorCode.InvalidParams, `Unknown resource: ${request.params.uri}. Resources: ${CLIENTS_RESOURCE.uri}`);
    return { contents: [{ uri: CLIENTS_RESOURCE.uri, mimeType: CLIENTS_RESOURCE.mimeType, text: JSON.stringify({ clients: clientSummaries() }) }] };
  });

  return server;
}
