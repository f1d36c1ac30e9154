import type { Command } from 'commander';
import { addConfigFlags, configFlagLayer } from '../cli/config-flags.js';
import { openWorkspace, outputFor, userOf } from '../cli/context.js';
import { load } from '../cli/lazy.js';
import { UsageError } from '../errors.js';

export function registerMcp(program: Command): void {
  const command = program
    .command('mcp')
    .description('serve the wiki to coding agents (Claude Code, Cursor, …) over the Model Context Protocol on stdio; read-only tools: ask_wiki, search_wiki, read_page, list_pages, lint_report; pages above the visibility cap are never served')
    .addHelpText(
      'after',
      '\nstdout carries only MCP messages; notices go to stderr. The server stops when the client closes stdin.\n\nExamples:\n  $ claude mcp add wiki -- wiki --root /path/to/wiki mcp\n  $ wiki --root ~/research mcp',
    );
  addConfigFlags(command, ['maxVisibility']).action(async (_opts: unknown, command: Command) => {
      const out = outputFor(command);
      const user = userOf(command);
      const ws = await openWorkspace(command, await configFlagLayer(command));
      const [{ capRank, visibilityLevels }] = await load('access');
      const level = ws.config.config.mcp.maxVisibility;
      const maxRank = capRank(ws.schema.contract, level);
      if (maxRank === undefined) {
        const { levels } = visibilityLevels(ws.schema.contract);
        throw new UsageError(`"${level}" is not a visibility level of this wiki`, `schema.md declares: ${levels.join(', ')}`);
      }
      // Never out.result here: stdout belongs to the protocol.
      const [{ serveWikiMcpOverStdio }] = await load('mcpServer');
      await serveWikiMcpOverStdio(
        { root: ws.root, schema: ws.schema, config: ws.config.config },
        { log: (line) => out.info(line), viewer: { maxVisibility: level, user } },
      );
    });
}
