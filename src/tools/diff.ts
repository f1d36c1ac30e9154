import { createTwoFilesPatch } from 'diff';

export interface FileChange {
  /** Workspace-relative, `/`-separated. */
  path: string;
  /** Content before the run; `undefined` when the file did not exist. */
  before: string | undefined;
  after: string;
}

/**
 * One unified diff for a set of file changes, in path order, in the form `git apply` and
 * `patch -p1` accept (`a/…` / `b/…` names, `/dev/null` for a created file).
 */
export function unifiedDiffOf(changes: readonly FileChange[]): string {
  return [...changes]
    .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))
    .filter((change) => change.before !== change.after)
    .map((change) => {
      const patch = createTwoFilesPatch(
        change.before === undefined ? '/dev/null' : `a/${change.path}`,
        `b/${change.path}`,
        change.before ?? '',
        change.after,
        undefined,
        undefined,
        { context: 3 },
      );
      // jsdiff opens every patch with a line of '=' that no patch tool needs.
      return patch.replace(/^=+\n/, '');
    })
    .join('');
}
