import type { Command } from 'commander';
import { openWorkspace, outputFor, userOf } from '../cli/context.js';
import { load } from '../cli/lazy.js';

export function registerPromote(program: Command): void {
  program
    .command('promote')
    .description('move one of your scratch pages (wiki/user/<name>/) into the team\'s folders, validated like any write')
    .argument('<key>', 'the scratch page\'s key')
    .addHelpText('after', '\nExamples:\n  $ wiki --user alice promote attention-notes\n  $ WIKI_USER=alice wiki promote attention-notes --json')
    .action(async (key: string, _opts: Record<string, never>, command: Command) => {
      const out = outputFor(command);
      const user = userOf(command);
      const ws = await openWorkspace(command, {}, { modelFree: true });
      const [{ promotePage }] = await load('promoteOperation');
      const report = await promotePage(ws.root, ws.schema, user, key.trim(), { hubThreshold: ws.config.config.index.hubThreshold, deny: ws.config.config.sandbox.deny });
      out.result(report, () =>
        [
          `Promoted [[${report.key}]]: ${report.from} → ${report.to}${report.replaced ? ' (replaced the team page)' : ''}`,
          out.c.dim(`run ${report.runId}; \`wiki undo ${report.runId}\` puts the scratch page back`),
          ...report.warnings.map((warning) => out.c.yellow(`warning: ${warning.message}`)),
        ].join('\n'),
      );
    });
}
