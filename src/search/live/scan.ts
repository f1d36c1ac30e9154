import { lstatSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { readPage } from './read-page.js';
import { isSpecialPage, type Contract } from '../../wiki/contract.js';
import type { PageStat } from './doc-record.js';
import type { DocTable } from './doc-table.js';

/**
 * Change detection against the disk: which pages were added, changed or removed since the
 * index last saw them. A page whose mtime and size are unchanged is trusted, unless its
 * mtime is so recent that a same-tick rewrite could hide behind it ("racy" mtime); a
 * page whose stat changed is read and re-hashed, and only a different hash counts as a
 * change. Index and log are not content pages and are never indexed.
 */
export interface ScannedPage extends PageStat {
  path: string;
}

export interface ScanResult {
  /**
   * Pages to (re)index, in scan order: changed pages with their text, new pages without
   * (they are read when indexed, so a full build never holds every page's text at once).
   */
  upserts: Array<{ path: string; stat: PageStat; isNew: boolean; content: string | undefined }>;
  /** Pages that are unchanged but whose stat moved (touch only). */
  touched: ScannedPage[];
  removed: string[];
}

/** An mtime this close to when the content was last read does not prove it unchanged. */
const RACY_WINDOW_MS = 2000;

/**
 * Every content page with its stat: the pages `listPagePaths` lists (markdown under
 * wiki/, hidden entries and node_modules skipped, symbolic links not followed), walked
 * and stat-ed synchronously. A scan runs before searches, so it is kept lean: at 10k
 * pages this takes a third of the time of a glob plus promise-based stats. Folders are
 * read as plain names and each entry's type taken from its lstat, which every page needs
 * anyway: entry objects with types cost more than the few extra lstats of folders and
 * non-markdown files. Each path appears once. Pages with more than one hard link are
 * listed apart and never indexed. `onNamesFound` hears, after each folder is
 * listed and before its entries are stat-ed, how many markdown names were listed so far.
 */
export function scanPages(root: string, contract: Contract, onNamesFound?: (markdownNames: number) => void): PagesFound {
  const out: ScannedPage[] = [];
  const hardLinked: string[] = [];
  let markdownNames = 0;
  // Plain concatenation, not path.join: normalising 10k paths is a measurable share of a scan.
  const base = root.endsWith(path.sep) ? root : `${root}${path.sep}`;
  const walk = (folder: string): void => {
    let names: string[];
    try {
      names = readdirSync(base + folder);
    } catch {
      return; // vanished or unreadable: nothing to index there
    }
    if (onNamesFound) {
      for (const name of names) if (name.endsWith('.md')) markdownNames++;
      onNamesFound(markdownNames);
    }
    for (const name of names) {
      if (name.startsWith('.') || name === 'node_modules') continue;
      const relative = `${folder}/${name}`;
      const s = lstatSync(base + relative, NO_THROW);
      if (!s) continue; // vanished since the folder was read
      if (s.isDirectory()) walk(relative);
      else if (s.isFile() && name.endsWith('.md') && !isSpecialPage(contract, relative)) {
        // A hard link may carry a denied or outside file's content: never indexed (see readPage).
        if (s.nlink > 1) hardLinked.push(relative);
        else out.push({ path: relative, mtimeMs: s.mtimeMs, size: s.size });
      }
    }
  };
  walk('wiki');
  return { files: out, hardLinked };
}

export interface PagesFound {
  files: ScannedPage[];
  /** Markdown pages left out because they have more than one hard link. */
  hardLinked: string[];
}

export { readPage } from './read-page.js';

const NO_THROW = { throwIfNoEntry: false } as const;

/** `files` lists each path once, as `scanPages` does. */
export async function diffAgainstDisk(
  root: string,
  files: readonly ScannedPage[],
  table: DocTable,
  hashOf: (content: string) => string,
): Promise<ScanResult> {
  const result: ScanResult = { upserts: [], touched: [], removed: [] };
  let known = 0;
  for (const file of files) {
    const stamp = table.stampOf(file.path);
    if (!stamp) {
      result.upserts.push({ path: file.path, stat: { mtimeMs: file.mtimeMs, size: file.size }, isNew: true, content: undefined });
      continue;
    }
    known++;
    const statChanged = stamp.mtimeMs !== file.mtimeMs || stamp.size !== file.size;
    const racy = file.mtimeMs >= stamp.seenAt - RACY_WINDOW_MS;
    if (!statChanged && !racy) continue;
    const content = readPage(root, file.path);
    if (content === undefined) result.removed.push(file.path);
    else if (hashOf(content) === table.get(file.path)?.hash) result.touched.push(file);
    else result.upserts.push({ path: file.path, stat: { mtimeMs: file.mtimeMs, size: file.size }, isNew: false, content });
  }
  // Every indexed page was found on disk (paths are distinct): none was removed, and the
  // table need not be walked — the common case, so it costs no set of 10k paths.
  if (known === table.liveCount) return result;
  const seen = new Set(files.map((file) => file.path));
  for (const path of table.paths()) if (!seen.has(path)) result.removed.push(path);
  return result;
}
