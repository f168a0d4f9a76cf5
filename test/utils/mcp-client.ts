import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';

/** The SDK's own MCP client over streamable HTTP to `<baseUrl>/api/mcp` with a key, initialized. */
export async function connectMcp(baseUrl: string, key: string, fetch?: FetchLike): Promise<Client> {
  const client = new Client({ name: 'mailproof-tests', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(`${baseUrl}/api/mcp`), {
    requestInit: { headers: { Authorization: `Bearer ${key}` } },
    ...(fetch ? { fetch } : {}),
  });
  await client.connect(transport);
  return client;
}

/** The JSON text of a tool result's first content block, parsed. */
export function textOf(result: object): Record<string, unknown> {
  const content = (result as { content: Array<{ type: string; text?: string }> }).content;
  return JSON.parse(content[0].text ?? 'null') as Record<string, unknown>;
}
