import { parentPort, workerData } from 'node:worker_threads';
import { listPageFiles } from '../../wiki/page-files.js';
import type { PackedPageList } from './page-listing.js';

/**
 * The page-list worker's thread (see page-listing.ts): lists the pages of the workspace
 * it is given with the one page lister — folder names and an lstat per entry, never a
 * page's content — posts the listing packed, and ends. Loads nothing else, so its start-up
 * stays short. Run as a plain script (no parent port) it does nothing.
 */
if (parentPort) {
  const { root } = workerData as { root: string };
  let reply: PackedPageList | { error: string };
  try {
    const files = listPageFiles(root);
    const stats = new Float64Array(files.length * 3);
    files.forEach((file, i) => {
      stats[i * 3] = file.mtimeMs;
      stats[i * 3 + 1] = file.size;
      stats[i * 3 + 2] = file.nlink;
    });
    // NUL cannot occur in a file name: one string crosses threads far cheaper than 10k.
    reply = { paths: files.map((file) => file.path).join('\0'), stats };
  } catch (error) {
    reply = { error: error instanceof Error ? error.message : String(error) };
  }
  parentPort.postMessage(reply, 'stats' in reply ? [reply.stats.buffer as ArrayBuffer] : []);
}
