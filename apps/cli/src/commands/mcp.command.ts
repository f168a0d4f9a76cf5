import type { Command } from 'commander';

/**
 * `mailproof mcp`: the MCP tools over stdio for a local assistant (mcp-serve.ts). The MCP SDK and the tools'
 * code load when the command runs, not when the program starts (docs/cli.md, "Start-up").
 */
export function registerMcpCommand(program: Command): void {
  program
    .command('mcp')
    .description('serve the Mailproof tools to an AI assistant over stdio (Model Context Protocol; docs/mcp.md)')
    .action(async () => (await import('./mcp-serve')).serveMcp());
}
