import { existsSync } from 'node:fs';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { PageFile } from '../../wiki/page-files.js';

/**
 * The pages of a workspace listed on a thread of their own (page-list-worker.ts), so that
 * a fresh `wiki search` loads its modules, decodes the saved index and answers over it
 * while the 10k lstat's run on the other core; the search then checks its answer against
 * the listing (see LiveSearchIndex.answerAhead). Without a second core or a compiled
 * worker script there is no listing and the search scans the pages itself, as it would
 * anyway; a worker that fails gives `undefined`, and the caller does the same.
 */
export interface PageListing {
  /** When the listing was asked for (ms since epoch): a page changed later may not be in it. */
  startedAt: number;
  /** Every markdown page under wiki/ as `listPageFiles(root)` gives them; undefined when the worker failed. */
  pages: Promise<PageFile[] | undefined>;
}

/** The listing as it crosses threads: paths joined by NUL, then mtime, size and links per page. */
export interface PackedPageList {
  paths: string;
  stats: Float64Array;
}

const WORKER_SCRIPT = new URL('./page-list-worker.js', import.meta.url);

/** Start listing `root`'s pages on a worker thread; undefined when no worker can run here. */
export function startPageListing(root: string): PageListing | undefined {
  if (os.availableParallelism() < 2 || !existsSync(fileURLToPath(WORKER_SCRIPT))) return undefined;
  const startedAt = Date.now();
  let worker: Worker;
  try {
    worker = new Worker(WORKER_SCRIPT, { workerData: { root } });
  } catch {
    return undefined;
  }
  const pages = new Promise<PageFile[] | undefined>((resolve) => {
    worker.once('message', (reply: PackedPageList | { error: string }) => resolve('error' in reply ? undefined : unpackPageList(reply)));
    worker.once('messageerror', () => resolve(undefined));
    worker.once('error', () => resolve(undefined));
    worker.once('exit', () => resolve(undefined));
  });
  // Once the listing is in, the worker's end need not hold the process.
  void pages.finally(() => worker.unref());
  return { startedAt, pages };
}

export function unpackPageList({ paths, stats }: PackedPageList): PageFile[] {
  if (stats.length === 0) return [];
  return paths.split('\0').map((pagePath, i) => ({ path: pagePath, mtimeMs: stats[i * 3]!, size: stats[i * 3 + 1]!, nlink: stats[i * 3 + 2]! }));
}
