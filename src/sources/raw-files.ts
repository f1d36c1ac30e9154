import fg from 'fast-glob';

/** Every file under raw/ (hidden entries skipped, symbolic links not followed), workspace-relative, sorted. */
export async function listRawSources(root: string): Promise<string[]> {
  const files = await fg('raw/**/*', { cwd: root, onlyFiles: true, dot: false, followSymbolicLinks: false });
  return files.sort();
}
