import type { Command } from 'commander';
import { openWorkspace, outputFor, userOf } from '../cli/context.js';
import { configFlagLayer } from '../cli/config-flags.js';
import { load } from '../cli/lazy.js';
import { addReviewOptions, proposalsOutcome, reviewRequestFor } from '../cli/review-notice.js';

export function registerPromote(program: Command): void {
  const promote = program
    .command('promote')
    .description('move one of your scratch pages (wiki/user/<name>/) into the team\'s folders, validated like any write')
    .argument('<key>', 'the scratch page\'s key');
  addReviewOptions(promote)
    .addHelpText('after', '\nExamples:\n  $ wiki --user alice promote attention-notes\n  $ WIKI_USER=alice wiki promote attention-notes --json\n  $ wiki --user alice promote attention-notes --review   (a proposal: the page moves when it is accepted)')
    .action(async (key: string, _opts: Record<string, never>, command: Command) => {
      const out = outputFor(command);
      const user = userOf(command);
      const ws = await openWorkspace(command, await configFlagLayer(command), { modelFree: true });
      const [{ promotePage }] = await load('promoteOperation');
      const review = await reviewRequestFor(ws, false);
      const report = await promotePage(ws.root, ws.schema, user, key.trim(), { hubThreshold: ws.config.config.index.hubThreshold, deny: ws.config.config.sandbox.deny, review: review?.forCommand() });
      const notes = review ? await proposalsOutcome(report, review, user) : [];
      out.result(report, () =>
        [
          report.proposal === undefined
            ? `Promoted [[${report.key}]]: ${report.from} → ${report.to}${report.replaced ? ' (replaced the team page)' : ''}`
            : `Proposed: promote [[${report.key}]]: ${report.from} → ${report.to}${report.replaced ? ' (would replace the team page)' : ''}`,
          ...(report.runId === undefined ? [] : [out.c.dim(`run ${report.runId}; \`wiki undo ${report.runId}\` puts the scratch page back`)]),
          ...report.warnings.map((warning) => out.c.yellow(`warning: ${warning.message}`)),
          ...notes,
        ].join('\n'),
      );
    });
}
