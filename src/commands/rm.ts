import type { Command } from 'commander';
import { configFlagLayer } from '../cli/config-flags.js';
import { openWorkspace, outputFor } from '../cli/context.js';
import { load } from '../cli/lazy.js';
import { addReviewOptions, proposalsOutcome, reviewRequestFor } from '../cli/review-notice.js';

interface RmFlags {
  dryRun?: boolean;
  prune?: boolean;
}

export function registerRm(program: Command): void {
  const command = program
    .command('rm')
    .description('remove sources and what rests on them: raw files, their record and facts, pages drawing only on them; one undoable run')
    .argument('<sources...>', 'source files, folders or globs under raw/')
    .option('--dry-run', 'show what would be removed and changed; change nothing')
    .option('--prune', 'also remove the sentences that cited only the removed sources (by default they are kept and listed)');
  addReviewOptions(command)
    .addHelpText(
      'after',
      '\nPages drawing only on the removed sources are deleted, unless a person wrote lines in them (then kept, marked archived_since, and listed).\nPages drawing on other sources too lose the removed ones from `sources` and their citations of them; links to removed pages become plain text.\nUnder --review nothing changes, raw/ included, until the proposal is accepted (wiki review).\n\nExamples:\n  $ wiki rm raw/old-preprint.md --dry-run\n  $ wiki rm "raw/drafts/*.md"\n  $ wiki rm raw/old-preprint.md --review   (a proposal: the source goes when it is accepted)\n  $ wiki undo          (puts everything back)',
    )
    .action(async (args: string[], opts: RmFlags, cmd: Command) => {
      const out = outputFor(cmd);
      const ws = await openWorkspace(cmd, await configFlagLayer(cmd), { modelFree: true });
      const [{ removeSources, resolveSources }, { renderRemove }] = await load('removeOperation', 'renderRemove');
      const review = await reviewRequestFor(ws, Boolean(opts.dryRun));
      const sources = await resolveSources(ws.root, process.cwd(), args);
      const report = await removeSources(ws, sources, { dryRun: Boolean(opts.dryRun), prune: Boolean(opts.prune), onNotice: (message) => out.warn(message), review: review?.forCommand() });
      const notes = review ? await proposalsOutcome(report, review) : [];
      out.result(report, () => [renderRemove(report, out.c), ...notes].join('\n'));
    });
}
