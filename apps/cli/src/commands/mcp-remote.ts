import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport, StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { ProtocolError, ToolFailure } from '@mailproof/mcp';

export interface RemoteServer {
  apiUrl: string;
  apiKey: string;
}

/** MAILPROOF_API_URL and MAILPROOF_API_KEY, or what is missing of them. */
export function remoteServerFromEnv(env: NodeJS.ProcessEnv): RemoteServer | { missing: string[] } {
  const apiUrl = env.MAILPROOF_API_URL?.trim();
  const apiKey = env.MAILPROOF_API_KEY?.trim();
  const missing = [...(apiUrl ? [] : ['MAILPROOF_API_URL']), ...(apiKey ? [] : ['MAILPROOF_API_KEY'])];
  return apiUrl && apiKey ? { apiUrl: apiUrl.replace(/\/+$/, ''), apiKey } : { missing };
}

/**
 * The tools that need a Mailproof server (stored previews, the gate's baselines, DNS audits, shares,
 * monitored domains), called through the server's own MCP endpoint: the server validates, runs and
 * answers, and its answer is passed on as it is. One client, connected on first use.
 */
export class RemoteTools {
  private client?: Promise<Client>;

  constructor(
    private readonly server: RemoteServer,
    private readonly version: string,
  ) {}

  async call(name: string, args: Record<string, unknown>): Promise<Record<string, unknown>> {
    let result: Awaited<ReturnType<Client['callTool']>>;
    try {
      result = await (await this.connected()).callTool({ name, arguments: args });
    } catch (error) {
      // Protocol errors (bad arguments) pass through unchanged; a transport failure drops the client so the next call reconnects.
      if (error instanceof McpError) throw new ProtocolError(error.code, error.message.replace(/^MCP error -?\d+: /, ''), error.data);
      this.client = undefined;
      throw this.unreachable(error);
    }
    const text = Array.isArray(result.content) && result.content[0]?.type === 'text' ? String(result.content[0].text) : '';
    if (result.isError) {
      const problem = parseObject(text);
      throw new ToolFailure(String(problem.code ?? 'internal_error'), String(problem.message ?? text), omit(problem, ['code', 'message']));
    }
    return (result.structuredContent as Record<string, unknown> | undefined) ?? parseObject(text);
  }

  async close(): Promise<void> {
    const client = this.client;
    this.client = undefined;
    if (client) await (await client.catch(() => undefined))?.close();
  }

  private connected(): Promise<Client> {
    this.client ??= (async () => {
      const client = new Client({ name: 'mailproof-cli', version: this.version });
      const transport = new StreamableHTTPClientTransport(new URL(`${this.server.apiUrl}/api/mcp`), {
        requestInit: { headers: { Authorization: `Bearer ${this.server.apiKey}` } },
      });
      await client.connect(transport);
      return client;
    })();
    this.client.catch(() => (this.client = undefined));
    return this.client;
  }

  private unreachable(error: unknown): ToolFailure {
    const server = this.server.apiUrl;
    if (error instanceof StreamableHTTPError && error.code === 401) {
      return new ToolFailure('unauthorized', `The Mailproof server at ${server} refused MAILPROOF_API_KEY (missing, invalid or revoked).`, { status: 401 });
    }
    if (error instanceof StreamableHTTPError && error.code === 429) {
      return new ToolFailure('rate_limited', `The Mailproof server at ${server} rate-limited this key; retry within a minute.`, { status: 429 });
    }
    const reason = error instanceof Error ? error.message : String(error);
    return new ToolFailure('server_unreachable', `Could not reach the Mailproof server at ${server} (MAILPROOF_API_URL): ${reason}`);
  }
}

function parseObject(text: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : { message: text };
  } catch {
    return { message: text };
  }
}

function omit(object: Record<string, unknown>, keys: string[]): Record<string, unknown> {
  return Object.fromEntries(Object.entries(object).filter(([key]) => !keys.includes(key)));
}
