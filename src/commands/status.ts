import type { Command } from 'commander';
import { openWorkspace, outputFor, userOf } from '../cli/context.js';
import { load } from '../cli/lazy.js';

export function registerStatus(program: Command): void {
  program
    .command('status')
    .description('pages by type, raw sources not yet cited, recent log entries, provider set-up')
    .addHelpText('after', '\nExamples:\n  $ wiki status\n  $ wiki status --json')
    .action(async (_opts: unknown, command: Command) => {
      const out = outputFor(command);
      const ws = await openWorkspace(command);
      const [{ workspaceStatus }, { renderStatus }] = await load('statusOperation', 'renderStatus');
      const report = await workspaceStatus(ws.root, ws.schema, ws.config, userOf(command));
      out.result(report, () => renderStatus(report, out.c));
    });
}
