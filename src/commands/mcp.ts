import type { Command } from 'commander';
import { openWorkspace, outputFor } from '../cli/context.js';
import { load } from '../cli/lazy.js';

export function registerMcp(program: Command): void {
  program
    .command('mcp')
    .description('serve the wiki to coding agents (Claude Code, Cursor, …) over the Model Context Protocol on stdio; read-only tools: search_wiki, read_page, list_pages, lint_report')
    .addHelpText(
      'after',
      '\nstdout carries only MCP messages; notices go to stderr. The server stops when the client closes stdin.\n\nExamples:\n  $ claude mcp add wiki -- wiki --root /path/to/wiki mcp\n  $ wiki --root ~/research mcp',
    )
    .action(async (_opts: Record<string, never>, command: Command) => {
      const out = outputFor(command);
      const ws = await openWorkspace(command);
      // Never out.result here: stdout belongs to the protocol.
      const [{ serveWikiMcpOverStdio }] = await load('mcpServer');
      await serveWikiMcpOverStdio({ root: ws.root, schema: ws.schema, config: ws.config.config }, { log: (line) => out.info(line) });
    });
}
