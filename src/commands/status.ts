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
      const [{ workspaceStatus }, { renderStatus }, { waitingProposals }, { renderWaiting }] = await load('statusOperation', 'renderStatus', 'reviewDecide', 'renderReview');
      const report = await workspaceStatus(ws.root, ws.schema, ws.config, userOf(command));
      // Proposals are not derived state: a person is told they wait wherever the wiki is looked at.
      const proposals = await waitingProposals(ws, userOf(command));
      out.result({ ...report, proposals: proposals.map(({ title: _title, ...summary }) => summary) }, () => `${renderStatus(report, out.c)}${renderWaiting(proposals, out.c)}`);
    });
}
