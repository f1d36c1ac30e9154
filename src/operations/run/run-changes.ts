import type { WriteChange } from '../../tools/context.js';
import { isSpecialPage, type Contract } from '../../wiki/contract.js';

/** What one run changed: the files, how, and each one's content before and after, for its summary and git. */
export class RunChanges {
  /** Files changed through the tools or the run's own writes, workspace-relative, in first-change order. */
  readonly changed = new Map<string, WriteChange>();
  /** Other files the run changed outside the tools (log, stale marks, copied sources), for git. */
  readonly alsoChanged = new Set<string>();
  /** Each changed file's content before this run first changed it, and after its last change. */
  private readonly contentBefore = new Map<string, string | undefined>();
  private readonly contentAfter = new Map<string, string>();

  /** `relPath` is about to change from `previous`. */
  changing(relPath: string, previous: string | undefined): void {
    if (!this.contentBefore.has(relPath)) this.contentBefore.set(relPath, previous);
  }

  /** `relPath` changed and now holds `content`. */
  changedTo(relPath: string, change: WriteChange, content: string): void {
    if (!this.changed.has(relPath)) this.changed.set(relPath, change);
    this.contentAfter.set(relPath, content);
  }

  /** Content pages created / updated by this run. */
  pageChanges(contract: Contract): { created: string[]; updated: string[] } {
    const created: string[] = [];
    const updated: string[] = [];
    for (const [relPath, change] of this.changed) {
      if (!relPath.startsWith('wiki/') || isSpecialPage(contract, relPath)) continue;
      if (change === 'created') created.push(relPath);
      else if (!this.endedAsItBegan(relPath)) updated.push(relPath);
    }
    return { created, updated };
  }

  /** Every workspace file this run changed: what a git auto-commit should hold. */
  filesChanged(): string[] {
    return [...new Set([...this.changed.keys(), ...this.alsoChanged])].sort();
  }

  /** A page written back to the very bytes it had before the run is not an update. */
  private endedAsItBegan(relPath: string): boolean {
    const after = this.contentAfter.get(relPath);
    return after !== undefined && this.contentBefore.has(relPath) && this.contentBefore.get(relPath) === after;
  }
}
