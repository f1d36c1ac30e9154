import type { RunSummaryLine, UndoAction, UndoPlan, UndoResult } from '../operations/history/undo.js';
import { formatStart } from '../state/lock.js';
import type { Colors } from './output.js';

export function renderUndoPlan(plan: UndoPlan, c: Colors): string {
  const { run } = plan;
  const header = `Run ${c.bold(run.runId)} — ${run.op}: ${run.title} (started ${formatStart(run.startedAt)}, ${run.status})`;
  return [header, ...renderActions(plan.actions, c)].join('\n');
}

function renderActions(actions: readonly UndoAction[], c: Colors): string[] {
  return actions.map((action) => {
    const label = action.action === 'restore' ? c.green('restore') : action.action === 'delete' ? c.red('delete ') : c.dim('skip   ');
    const note = action.reason ? c.dim(` (${action.reason})`) : action.action === 'delete' ? c.dim(' (created by that run)') : '';
    const changed = action.changedSinceRun ? c.yellow(' ! changed since that run') : '';
    return `  ${label} ${action.path}${note}${changed}`;
  });
}

/** Paths listed per run before the rest are counted. */
const PATHS_SHOWN = 5;

/** `wiki undo --list`: each recent run, newest first — its id, what it was, and the pages it created and changed. */
export function renderRunList(runs: readonly RunSummaryLine[], c: Colors): string {
  if (runs.length === 0) return 'No runs recorded yet.';
  const lines: string[] = [];
  for (const run of runs) {
    lines.push(`${c.bold(run.runId)}  ${run.op}: ${run.title} ${c.dim(`(started ${formatStart(run.startedAt)}, ${run.status})`)}`);
    const changed = [...run.created.map((p) => `${c.green('+')} ${p}`), ...run.updated.map((p) => `${c.cyan('~')} ${p}`)];
    if (changed.length === 0) lines.push(`  ${c.dim(`no page changed${run.otherFiles ? ` (${run.otherFiles} index or state file${run.otherFiles === 1 ? '' : 's'})` : ''}`)}`);
    for (const entry of changed.slice(0, PATHS_SHOWN)) lines.push(`  ${entry}`);
    if (changed.length > PATHS_SHOWN) lines.push(`  ${c.dim(`… and ${changed.length - PATHS_SHOWN} more`)}`);
  }
  lines.push('', c.dim('`wiki undo` undoes the newest run that changed pages; `wiki undo RUN_ID` a given one.'));
  return lines.join('\n');
}

export function renderUndoResult(result: UndoResult, c: Colors): string {
  if (result.runId === null) return 'Nothing to undo: no recorded run changed any page (see `wiki undo --list`).';
  const count = (kind: UndoAction['action']): number => result.actions.filter((a) => a.action === kind).length;
  const run = `run ${result.runId} (${result.op}: ${result.title})`;
  switch (result.outcome) {
    case 'nothing-to-undo':
      return `Nothing to undo: the files of ${run} are already as before it.`;
    case 'dry-run':
      return [
        `Would undo ${run}:`,
        ...renderActions(result.actions, c),
        `Dry run: ${count('restore')} to restore, ${count('delete')} to delete; nothing was changed.`,
      ].join('\n');
    case 'cancelled':
      return 'Cancelled; nothing was changed.';
    case 'applied':
      return `${c.green('Undid')} ${run}: restored ${count('restore')}, deleted ${count('delete')}.\nRecorded as run ${result.undoRunId}; \`wiki undo\` again reverts this undo.`;
  }
}
