import type { ToolOutcome } from './tool.js';

export type ChangeKind = NonNullable<ToolOutcome['changed']>[number]['change'];
export type ChangedFile = { path: string; change: ChangeKind };

/** A file created during the run stays "created" however often it is rewritten afterwards. */
const STRENGTH: Record<ChangeKind, number> = { created: 3, updated: 2, appended: 1 };

/**
 * Merge change reports into one list per path, in order of first change. The strongest
 * kind wins (created > updated > appended), so a page created then edited reads "created".
 */
export function mergeChanges(into: ChangedFile[], more: readonly ChangedFile[]): ChangedFile[] {
  const merged = into.map((entry) => ({ ...entry }));
  const byPath = new Map(merged.map((entry) => [entry.path, entry]));
  for (const change of more) {
    const existing = byPath.get(change.path);
    if (existing === undefined) {
      const entry = { path: change.path, change: change.change };
      merged.push(entry);
      byPath.set(entry.path, entry);
    } else if (STRENGTH[change.change] > STRENGTH[existing.change]) {
      existing.change = change.change;
    }
  }
  return merged;
}
