import { Controller, Delete, Get, Post, Req, Res } from '@nestjs/common';
import { ApiExcludeEndpoint, ApiOkResponse, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { Response } from 'express';
import { Authenticated, CurrentAccount } from '../auth/auth.decorators';
import type { AuthenticatedAccount, AuthenticatedRequest } from '../auth/request-identity';
import { ProblemException } from '../problems/problem.exception';
import { sendBatchRefused, sendWebResponse, webRequestOf } from './mcp-http';
import { McpToolsService } from './mcp-tools.service';

/**
 * POST /api/mcp: the Model Context Protocol over streamable HTTP, stateless. Each request gets a new
 * server and transport and nothing outlives it, so any API replica answers any request (no session
 * id, no affinity). Answers are plain JSON (`enableJsonResponse`), never an event stream: every tool
 * answers once, within the budget of the HTTP endpoint it wraps. The SDK's web-standard transport
 * takes the body the API already parsed and hands back a Response, which mcp-http.ts sends.
 */
@ApiTags('mcp')
@Controller('api/mcp')
export class McpController {
  constructor(private readonly tools: McpToolsService) {}

  @Post()
  @Authenticated()
  @ApiOperation({
    summary: 'MCP (JSON-RPC 2.0 over streamable HTTP, stateless) for AI assistants: tools, prompts and the client list. See docs/mcp.md.',
  })
  @ApiOkResponse({ description: 'A JSON-RPC 2.0 response (application/json). Send Accept: application/json, text/event-stream.' })
  @ApiResponse({ status: 400, description: 'a JSON-RPC batch, or a body that is not a JSON-RPC message (problem+json with jsonrpcCode)' })
  @ApiResponse({ status: 406, description: 'Accept does not list application/json and text/event-stream (problem+json not_acceptable)' })
  @ApiResponse({ status: 401, description: 'no valid API key (problem+json)' })
  async handle(@Req() req: AuthenticatedRequest, @Res() res: Response, @CurrentAccount() account: AuthenticatedAccount): Promise<void> {
    // JSON-RPC batching left MCP in protocol version 2025-06-18; one message per request keeps each call's limits and errors its own.
    if (Array.isArray(req.body)) return sendBatchRefused(req, res);
    const server = this.tools.serverFor(account);
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    try {
      await server.connect(transport);
      await sendWebResponse(req, res, await transport.handleRequest(webRequestOf(req), { parsedBody: req.body }));
    } finally {
      await transport.close();
      await server.close();
    }
  }

  /** A stateless server offers no event stream to GET and no session to DELETE: 405, as the protocol allows. */
  @Get()
  @ApiExcludeEndpoint()
  stream(): never {
    throw methodNotAllowed();
  }

  @Delete()
  @ApiExcludeEndpoint()
  terminate(): never {
    throw methodNotAllowed();
  }
}

function methodNotAllowed(): ProblemException {
  return new ProblemException(
    'method_not_allowed',
    'This MCP server is stateless: send JSON-RPC messages with POST; there is no event stream (GET) or session (DELETE).',
    {
      headers: { Allow: 'POST' },
    },
  );
}
