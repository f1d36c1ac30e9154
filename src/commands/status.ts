import type { Command } from 'commander';
import { openWorkspace, outputFor } from '../cli/context.js';

export function registerStatus(program: Command): void {
  program
    .command('status')
    .description('pages by type, raw sources not yet cited, recent log entries, provider set-up')
    .addHelpText('after', '\nExamples:\n  $ wiki status\n  $ wiki status --json')
    .action(async (_opts: unknown, command: Command) => {
      const out = outputFor(command);
      const ws = await openWorkspace(command);
      // Loaded here, not at start-up: every other command would pay for its imports.
      const [{ workspaceStatus }, { renderStatus }] = await Promise.all([import('../operations/status.js'), import('../cli/render-status.js')]);
      const report = await workspaceStatus(ws.root, ws.schema, ws.config);
      out.result(report, () => renderStatus(report, out.c));
    });
}
