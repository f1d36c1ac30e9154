import { readPage } from '../../wiki/page-read.js';
import { isSpecialPage, type Contract } from '../../wiki/contract.js';
import { listPageFiles } from '../../wiki/page-files.js';
import { unchangedSince } from '../../util/file-stamp.js';
import type { PageStamp, PageStat } from './doc-record.js';
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

/**
 * Every content page with its stat: the one page lister's walk of wiki/ (wiki/page-files.ts:
 * hidden entries and node_modules skipped, symbolic links not followed), index and log left
 * out. Pages with more than one hard link are listed apart and never indexed.
 * `onNamesFound` hears, after each folder is listed and before its entries are stat-ed, how
 * many markdown names were listed so far.
 */
export function scanPages(root: string, contract: Contract, onNamesFound?: (markdownNames: number) => void): PagesFound {
  const files: ScannedPage[] = [];
  const hardLinked: string[] = [];
  for (const file of listPageFiles(root, 'wiki', onNamesFound)) {
    if (isSpecialPage(contract, file.path)) continue;
    // A hard link may carry a denied or outside file's content: never indexed (see readPage).
    if (file.nlink > 1) hardLinked.push(file.path);
    else files.push(file); // as listed: 10k copies would only feed the garbage collector
  }
  return { files, hardLinked };
}

export interface PagesFound {
  files: ScannedPage[];
  /** Markdown pages left out because they have more than one hard link. */
  hardLinked: string[];
}

/** `files` lists each path once, as `scanPages` does. */
export async function diffAgainstDisk(
  root: string,
  files: readonly ScannedPage[],
  table: DocTable,
  hashOf: (content: string) => string,
): Promise<ScanResult> {
  const result: ScanResult = { upserts: [], touched: [], removed: [] };
  let known = 0;
  const stamp: PageStamp = { mtimeMs: 0, size: 0, seenAt: 0 };
  for (const file of files) {
    if (!table.stampInto(file.path, stamp)) {
      result.upserts.push({ path: file.path, stat: { mtimeMs: file.mtimeMs, size: file.size }, isNew: true, content: undefined });
      continue;
    }
    known++;
    if (unchangedSince(stamp, file)) continue;
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
