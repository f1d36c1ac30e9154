import { createInterface } from 'node:readline/promises';
import type { Command } from 'commander';
import { exitIfInterruptedWhileWaiting, interruptible } from '../cli/agent-command.js';
import { globalOptions, outputFor } from '../cli/context.js';
import type { Output } from '../cli/output.js';
import { UsageError } from '../errors.js';
import type { UndoAction, UndoPlan, UndoResult } from '../operations/undo.js';
import { formatStart, parseWaitSeconds } from '../state/lock.js';
import { terminalSafe } from '../util/terminal-text.js';
import { resolveWorkspaceRoot } from '../wiki/workspace.js';

interface UndoFlags {
  yes?: boolean;
  dryRun?: boolean;
  force?: boolean;
  wait?: number;
}

export function registerUndo(program: Command): void {
  program
    .command('undo')
    .description('restore the files the last run (or RUN_ID) changed, after showing what it will do')
    .argument('[run-id]', 'the run to undo (default: the most recent run that changed files)')
    .option('-y, --yes', 'do not ask for confirmation (needed when stdin is not a terminal)')
    .option('--dry-run', 'only show what would be done')
    .option('--force', 'also undo files changed since that run (their current versions stay undoable)')
    .option('--wait <seconds>', 'wait this long for another run to release the workspace lock', parseWaitSeconds)
    .addHelpText(
      'after',
      '\nThe log is append-only: undo adds an entry instead of restoring it. Undoing an undo redoes the run.\n\nExamples:\n  $ wiki undo --dry-run\n  $ wiki undo --yes\n  $ wiki undo 20260121-102233-3f9a',
    )
    .action(async (runId: string | undefined, flags: UndoFlags, command: Command) => {
      const out = outputFor(command);
      // Only the schema is needed (for the log path), so undo works even with a broken config.
      const root = await resolveWorkspaceRoot(globalOptions(command).root, process.cwd());
      // Loaded here, not at start-up: every other command would pay for its imports.
      const { loadSchema } = await import('../wiki/schema-loader.js');
      const schema = await loadSchema(root);
      const { undo } = await import('../operations/undo.js');
      let planShown = false;
      const interrupt = interruptible();
      let result: UndoResult;
      try {
        result = await undo(root, {
          signal: interrupt.signal,
          ...(runId !== undefined ? { runId } : {}),
          logPath: schema.contract.log,
          force: Boolean(flags.force),
          dryRun: Boolean(flags.dryRun),
          waitSeconds: flags.wait ?? 0,
          onNotice: (message) => out.warn(message),
          onPlan: (plan) => {
            for (const path of plan.conflicts) out.warn(`${path} changed since run ${plan.run.runId}`);
            if (!flags.dryRun && !out.json && !out.quiet) {
              process.stderr.write(`${terminalSafe(renderPlan(plan, out))}\n`);
              planShown = true;
            }
          },
          confirm: async (plan) => {
            if (flags.yes) return true;
            if (!process.stdin.isTTY) {
              throw new UsageError('not confirmed: stdin is not a terminal', 'pass --yes to confirm (see the plan with `wiki undo --dry-run`)');
            }
            if (!planShown) process.stderr.write(`${terminalSafe(renderPlan(plan, out))}\n`);
            return ask('Undo these changes? [y/N] ');
          },
        });
      } catch (error) {
        interrupt.dispose();
        exitIfInterruptedWhileWaiting(error, interrupt.received(), out);
        return;
      }
      interrupt.dispose();
      out.result(result, () => renderResult(result, out));
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

function renderPlan(plan: UndoPlan, out: Output): string {
  const { run } = plan;
  const header = `Run ${out.c.bold(run.runId)} — ${run.op}: ${run.title} (started ${formatStart(run.startedAt)}, ${run.status})`;
  return [header, ...renderActions(plan.actions, out)].join('\n');
}

function renderActions(actions: readonly UndoAction[], out: Output): string[] {
  return actions.map((action) => {
    const label = action.action === 'restore' ? out.c.green('restore') : action.action === 'delete' ? out.c.red('delete ') : out.c.dim('skip   ');
    const note = action.reason ? out.c.dim(` (${action.reason})`) : action.action === 'delete' ? out.c.dim(' (created by that run)') : '';
    const changed = action.changedSinceRun ? out.c.yellow(' ! changed since that run') : '';
    return `  ${label} ${action.path}${note}${changed}`;
  });
}

function renderResult(result: UndoResult, out: Output): string {
  if (result.runId === null) return 'Nothing to undo: no recorded run changed any file.';
  const count = (kind: UndoAction['action']): number => result.actions.filter((a) => a.action === kind).length;
  const run = `run ${result.runId} (${result.op}: ${result.title})`;
  switch (result.outcome) {
    case 'nothing-to-undo':
      return `Nothing to undo: the files of ${run} are already as before it.`;
    case 'dry-run':
      return [
        `Would undo ${run}:`,
        ...renderActions(result.actions, out),
        `Dry run: ${count('restore')} to restore, ${count('delete')} to delete; nothing was changed.`,
      ].join('\n');
    case 'cancelled':
      return 'Cancelled; nothing was changed.';
    case 'applied':
      return `${out.c.green('Undid')} ${run}: restored ${count('restore')}, deleted ${count('delete')}.\nRecorded as run ${result.undoRunId}; \`wiki undo\` again reverts this undo.`;
  }
}
