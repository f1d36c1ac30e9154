import type { Command } from 'commander';
import { exitIfInterruptedWhileWaiting, interruptible, waitOption } from '../cli/agent-command.js';
import { openWorkspace, outputFor, userOf } from '../cli/context.js';
import { load } from '../cli/lazy.js';

interface WaitFlags {
  wait: number;
}

/**
 * `wiki review`: the proposals runs under `--review` left, and the person's decision on
 * each — all of it, or page by page.
 */
export function registerReview(program: Command): void {
  const review = program
    .command('review')
    .description('list the proposals runs under --review left; show, accept or reject them page by page')
    .addHelpText(
      'after',
      '\nA run with --review (or `review: true` in wiki.config.json) writes a proposal instead of changing wiki/.\n' +
        'Proposals wait in .wiki/proposals/ (or `reviewFolder`): they are not rebuilt if deleted.\n' +
        '\nExamples:\n  $ wiki ingest raw/paper.md --review\n  $ wiki review\n  $ wiki review show 20260121-102233-3f9a2c\n  $ wiki review accept 20260121-102233-3f9a2c wiki/sources/paper.md\n  $ wiki review reject 20260121-102233-3f9a2c\n  $ wiki review prune --older-than 30d',
    )
    .action(async (_opts: unknown, cmd: Command) => {
      const out = outputFor(cmd);
      const ws = await openWorkspace(cmd, {}, { modelFree: true });
      const [{ waitingProposals }, { renderProposalList }] = await load('reviewDecide', 'renderReview');
      const proposals = await waitingProposals(ws, userOf(cmd));
      // The JSON is the summary alone: { id, command, pages: [{ path, change }], created }.
      out.result({ proposals: proposals.map(({ title: _title, ...summary }) => summary) }, () => renderProposalList(proposals, out.c));
    });

  review
    .command('show')
    .description('print each page\'s diff (coloured on a terminal), and whether it still lands as proposed')
    .argument('[id]', 'the proposal (default: the oldest waiting)')
    .argument('[pages...]', 'only these pages, by path or key')
    .action(async (id: string | undefined, pages: string[], _opts: unknown, cmd: Command) => {
      const out = outputFor(cmd);
      const ws = await openWorkspace(cmd, {}, { modelFree: true });
      const [{ showProposal }, { renderProposal }] = await load('reviewShow', 'renderReview');
      const view = await showProposal(ws, id, pages, userOf(cmd));
      // A page named is shown whole; otherwise a removed page is cut to its first lines.
      out.result(view, () => renderProposal(view, out.c, { full: pages.length > 0 }));
    });

  review
    .command('accept')
    .description('land all of a proposal, or the pages named, as one undoable run with one log entry')
    .argument('<id>', 'the proposal')
    .argument('[pages...]', 'only these pages, by path or key (the rest keep waiting)')
    .addOption(waitOption())
    .action(async (id: string, pages: string[], flags: WaitFlags, cmd: Command) => {
      const out = outputFor(cmd);
      const ws = await openWorkspace(cmd, {}, { modelFree: true });
      const [{ acceptProposal }, { renderAccept }] = await load('reviewAccept', 'renderReview');
      await withInterrupt(out, async (signal) => {
        const report = await acceptProposal(ws, id, { pages, user: userOf(cmd), waitSeconds: flags.wait, signal, onNotice: (m) => out.warn(m) });
        out.result(report, () => renderAccept(report, out.c));
        if (report.refused.length > 0) process.exitCode = 1;
      });
    });

  review
    .command('reject')
    .description('drop all of a proposal, or the pages named; writes nothing under wiki/')
    .argument('<id>', 'the proposal')
    .argument('[pages...]', 'only these pages, by path or key (the rest keep waiting)')
    .addOption(waitOption())
    .action(async (id: string, pages: string[], flags: WaitFlags, cmd: Command) => {
      const out = outputFor(cmd);
      const ws = await openWorkspace(cmd, {}, { modelFree: true });
      const [{ rejectProposal }, { renderReject }] = await load('reviewDecide', 'renderReview');
      await withInterrupt(out, async (signal) => {
        const report = await rejectProposal(ws, id, { pages, user: userOf(cmd), waitSeconds: flags.wait, signal });
        out.result(report, () => renderReject(report));
      });
    });

  review
    .command('prune')
    .description('drop the proposals made before an age, e.g. --older-than 30d (they cannot be made again without a paid run)')
    .requiredOption('--older-than <age>', 'days, hours or weeks: 30d, 12h, 2w')
    .addOption(waitOption())
    .action(async (flags: WaitFlags & { olderThan: string }, cmd: Command) => {
      const out = outputFor(cmd);
      const [{ pruneProposals, parseAge }] = await load('reviewDecide');
      const age = parseAge(flags.olderThan);
      const ws = await openWorkspace(cmd, {}, { modelFree: true });
      await withInterrupt(out, async (signal) => {
        const report = await pruneProposals(ws, age, { pages: [], user: userOf(cmd), waitSeconds: flags.wait, signal });
        out.result(report, () =>
          [`Pruned ${report.pruned.length} proposal(s) older than ${flags.olderThan}.`, ...report.pruned.map((p) => `  ${p.id}  ${p.command}  ${p.pages.length} page(s)`), `${report.remaining} still wait.`].join('\n'),
        );
      });
    });
}

/** SIGINT/SIGTERM while waiting for the lock gives the wait up (exit 130/143). */
async function withInterrupt(out: ReturnType<typeof outputFor>, body: (signal: AbortSignal) => Promise<void>): Promise<void> {
  const interrupt = interruptible();
  try {
    await body(interrupt.signal);
  } catch (error) {
    exitIfInterruptedWhileWaiting(error, interrupt.received(), out);
  } finally {
    interrupt.dispose();
  }
}
