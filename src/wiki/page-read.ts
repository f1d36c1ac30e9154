import { closeSync, constants, existsSync, fstatSync, openSync, readFileSync, readlinkSync, realpathSync, statSync, type Stats } from 'node:fs';
import path from 'node:path';
import { isInsideRoot } from '../util/fs.js';

// O_NOFOLLOW: a page swapped for a link is not read through it; O_NONBLOCK: nor does a FIFO block.
const PAGE_FLAGS = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);
const DESCRIPTOR_PATHS = process.platform === 'linux' && existsSync('/proc/self/fd');

/** Why a page was not read: it vanished or cannot be opened, is not a regular file, has more than one hard link, or leads outside the workspace. */
export type PageRefusal = 'unreadable' | 'not-a-file' | 'hard-link' | 'outside';

/**
 * A page's bytes, or why they were not read: a hard link may carry a denied or outside
 * file's content, and O_NOFOLLOW guards only the last name, so a folder on the way swapped
 * for a link is caught after the open (`openedInside`). No search text, snippet, embedding,
 * run context or lint report is ever made from such a file. Synchronous: at 10k small pages
 * a promise per file costs several times the reading. No heavy imports, so the search's
 * build worker reads pages without loading the contract's schema library.
 */
export function readPageBytes(root: string, pagePath: string): { bytes: Buffer; links: number } | { refused: PageRefusal; links: number } {
  const file = root.endsWith(path.sep) ? root + pagePath : `${root}${path.sep}${pagePath}`;
  let fd: number;
  try {
    fd = openSync(file, PAGE_FLAGS);
  } catch {
    return { refused: 'unreadable', links: 0 };
  }
  try {
    const info = fstatSync(fd);
    if (!info.isFile()) return { refused: 'not-a-file', links: info.nlink };
    if (info.nlink > 1) return { refused: 'hard-link', links: info.nlink };
    if (!openedInside(fd, file, root, info)) return { refused: 'outside', links: info.nlink };
    return { bytes: readFileSync(fd), links: info.nlink };
  } catch {
    return { refused: 'unreadable', links: 0 };
  } finally {
    closeSync(fd);
  }
}

/** A page's text, or undefined when `readPageBytes` refuses it. */
export function readPage(root: string, pagePath: string): string | undefined {
  const read = readPageBytes(root, pagePath);
  return 'bytes' in read ? read.bytes.toString('utf8') : undefined;
}

const realRoots = new Map<string, string>();

/**
 * Whether the file open as `fd` lies inside `root`. On Linux the kernel says where the
 * descriptor leads (`/proc/self/fd/N`); elsewhere the path's real location must be inside
 * and hold the very file opened (a folder swapped back after the open leaves another there).
 */
function openedInside(fd: number, file: string, root: string, opened: Stats): boolean {
  let realRoot = realRoots.get(root);
  if (realRoot === undefined) realRoots.set(root, (realRoot = realpathSync.native(root)));
  const real = DESCRIPTOR_PATHS ? readlinkSync(`/proc/self/fd/${fd}`) : realpathSync.native(file);
  if (!isInsideRoot(path.relative(realRoot, real))) return false;
  if (DESCRIPTOR_PATHS) return true;
  const now = statSync(real);
  return now.dev === opened.dev && now.ino === opened.ino;
}
