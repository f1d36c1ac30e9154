import { closeSync, constants, fstatSync, openSync, readFileSync } from 'node:fs';
import path from 'node:path';

// O_NOFOLLOW: a page swapped for a link is not read through it; O_NONBLOCK: nor does a FIFO block.
const PAGE_FLAGS = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);

/**
 * A page's text, or undefined when it vanished, cannot be read, is not a regular file, or
 * has more than one hard link: a hard link may carry a denied or outside file's content, so
 * no search text, snippet or embedding is ever made from one. Synchronous: at 10k small
 * pages a promise per file costs several times the reading. A module of its own so the build
 * worker reads pages without loading the scan's contract (and its schema library).
 */
export function readPage(root: string, pagePath: string): string | undefined {
  let fd: number;
  try {
    fd = openSync(root.endsWith(path.sep) ? root + pagePath : `${root}${path.sep}${pagePath}`, PAGE_FLAGS);
  } catch {
    return undefined;
  }
  try {
    const info = fstatSync(fd);
    if (!info.isFile() || info.nlink > 1) return undefined;
    return readFileSync(fd, 'utf8');
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}

/**
 * `read`, each page read at most once: a search reads a result page for several things
 * (a phrase or exclusion check, its snippet, who may see it) and one read serves them all.
 */
export function readingEachOnce(read: (pagePath: string) => string | undefined): (pagePath: string) => string | undefined {
  const texts = new Map<string, string | undefined>();
  return (pagePath) => {
    if (!texts.has(pagePath)) texts.set(pagePath, read(pagePath));
    return texts.get(pagePath);
  };
}

/** What the user is told, once, about pages search leaves out because they are hard links. */
export function hardLinkedPagesNotice(paths: readonly string[]): string {
  const shown = paths.slice(0, 5).join(', ') + (paths.length > 5 ? ` and ${paths.length - 5} more` : '');
  return `${paths.length} page(s) not searched because each is a hard link (its content may belong to a file outside the wiki): ${shown}; copy the file into wiki/ instead of linking it`;
}
