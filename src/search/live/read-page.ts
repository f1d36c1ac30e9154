import { readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * A page's text, or undefined when it vanished or cannot be read. Synchronous: at 10k
 * small pages a promise per file costs several times the reading. A module of its own
 * so the build worker reads pages without loading the scan's contract (and its schema library).
 */
export function readPage(root: string, pagePath: string): string | undefined {
  try {
    return readFileSync(root.endsWith(path.sep) ? root + pagePath : `${root}${path.sep}${pagePath}`, 'utf8');
  } catch {
    return undefined;
  }
}
