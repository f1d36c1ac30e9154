import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import fg from 'fast-glob';

/** Every file under raw/ (hidden entries skipped, symbolic links not followed), workspace-relative, sorted. */
export async function listRawSources(root: string): Promise<string[]> {
  const files = await fg('raw/**/*', { cwd: root, onlyFiles: true, dot: false, followSymbolicLinks: false });
  return files.sort();
}

export interface SourceTree {
  /** Absolute paths of the files (and links to files) under the folder, hidden entries skipped, sorted. */
  files: string[];
  /** Absolute paths of links to folders met on the way: not followed (a link back up, `raw/loop -> .`, would never end). */
  linkedFolders: string[];
}

/**
 * Walk `dir` without following links to folders: a link to a file is listed like a file (its
 * reader decides about it), a link to a folder is reported and not entered, so the walk
 * visits each real folder once and ends whatever links the tree holds.
 */
export async function walkSourceTree(dir: string): Promise<SourceTree> {
  const files: string[] = [];
  const linkedFolders: string[] = [];
  const pending = [dir];
  for (let folder = pending.pop(); folder !== undefined; folder = pending.pop()) {
    for (const entry of await readdir(folder, { withFileTypes: true })) {
      if (entry.name.startsWith('.')) continue;
      const full = path.join(folder, entry.name);
      if (entry.isDirectory()) pending.push(full);
      else if (entry.isFile()) files.push(full);
      else if (entry.isSymbolicLink()) {
        const target = await stat(full).catch(() => undefined);
        if (target?.isDirectory()) linkedFolders.push(full);
        else files.push(full);
      }
    }
  }
  return { files: files.sort(), linkedFolders: linkedFolders.sort() };
}
