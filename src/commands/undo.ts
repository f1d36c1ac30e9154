import { createInterface } from 'node:readline/promises';
import type { Command } from 'commander';
import { exitIfInterruptedWhileWaiting, interruptible, waitOption } from '../cli/agent-command.js';
import { globalOptions, outputFor } from '../cli/context.js';
import { renderRunList, renderUndoPlan, renderUndoResult } from '../cli/render-undo.js';
import { UsageError } from '../errors.js';
import type { UndoResult } from '../operations/history/undo.js';
import { isSpecialPage } from '../wiki/contract.js';
import { resolveWorkspaceRoot } from '../wiki/workspace.js';
import { load } from '../cli/lazy.js';

interface UndoFlags {
  list?: boolean;
  yes?: boolean;
  dryRun?: boolean;
  force?: boolean;
  wait: number;
}

/** How many runs `wiki undo --list` shows. */
const RUNS_LISTED = 10;

export function registerUndo(program: Command): void {
  program
    .command('undo')
    .description('restore the files the last run that changed pages (or RUN_ID) changed, after showing what it will do; --list shows recent runs')
    .argument('[run-id]', 'the run to undo, e.g. 20260121-102233-3f9a2c (default: the most recent run that changed pages)')
    .option('--list', 'list the recent runs, newest first, with the pages each created and changed')
    .option('-y, --yes', 'do not ask for confirmation (needed when stdin is not a terminal)')
    .option('--dry-run', 'only show what would be done')
    .option('--force', 'also undo files changed since that run (their current versions stay undoable)')
    .addOption(waitOption())
    .addHelpText(
      'after',
      '\nThe log is append-only: undo adds an entry instead of restoring it. Undoing an undo redoes the run.\n\nExamples:\n  $ wiki undo --list\n  $ wiki undo --dry-run\n  $ wiki undo --yes\n  $ wiki undo 20260121-102233-3f9a2c',
    )
    .action(async (runId: string | undefined, flags: UndoFlags, command: Command) => {
      const out = outputFor(command);
      // Only the schema is needed (for the log path), so undo works even with a broken config.
      const root = await resolveWorkspaceRoot(globalOptions(command).root, process.cwd());
      const [{ loadSchema }] = await load('schemaLoader');
      const schema = await loadSchema(root);
      const [{ undo, recentRuns }] = await load('undoOperation');
      const isGenerated = (file: string): boolean => isSpecialPage(schema.contract, file);
      if (flags.list) {
        const runs = await recentRuns(root, { logPath: schema.contract.log, isGenerated, limit: RUNS_LISTED });
        out.result({ runs }, () => renderRunList(runs, out.c));
        return;
      }
      let planShown = false;
      const interrupt = interruptible();
      let result: UndoResult;
      try {
        result = await undo(root, {
          signal: interrupt.signal,
          runId,
          logPath: schema.contract.log,
          isGenerated,
          force: Boolean(flags.force),
          dryRun: Boolean(flags.dryRun),
          waitSeconds: flags.wait,
          onNotice: (message) => out.warn(message),
          onPlan: (plan) => {
            for (const path of plan.conflicts) out.warn(`${path} changed since run ${plan.run.runId}`);
            if (!flags.dryRun && !out.json && !out.quiet) {
              out.notice(renderUndoPlan(plan, out.c));
              planShown = true;
            }
          },
          confirm: async (plan) => {
            if (flags.yes) return true;
            if (!process.stdin.isTTY) {
              throw new UsageError('not confirmed: stdin is not a terminal', 'pass --yes to confirm (see the plan with `wiki undo --dry-run`)');
            }
            if (!planShown) out.notice(renderUndoPlan(plan, out.c));
            return ask('Undo these changes? [y/N] ');
          },
        });
      } catch (error) {
        interrupt.dispose();
        exitIfInterruptedWhileWaiting(error, interrupt.received(), out);
        return;
      }
      interrupt.dispose();
      out.result(result, () => renderUndoResult(result, out.c));
    });
}

async function ask(question: string): Promise<boolean> {
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  try {
    return /^y(es)?$/i.test((await rl.question(question)).trim());
  } finally {
    rl.close();
  }
}
