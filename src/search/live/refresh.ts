import type { Contract } from '../../wiki/contract.js';
import type { PageStat } from './doc-record.js';
import { contentHash, pageDocument, type PageDocument } from '../text/document.js';
import type { SearchEngine } from '../engine.js';
import type { BuildWorker } from '../build/build-threads.js';
import { readPage } from '../../wiki/page-read.js';
import { diffAgainstDisk, scanPages, type ScannedPage, type ScanResult } from './scan.js';
import { updateSemantic } from '../lanes/semantic/semantic-upkeep.js';
import type { RefreshSummary } from '../types.js';

/** A full build of at least this many pages is shared with a worker thread. */
export const PARALLEL_BUILD_MIN_PAGES = 1000;

/** The content pages as found on disk, and when the scan began (ms since epoch). */
export interface PageScan {
  startedAt: number;
  files: ScannedPage[];
  /** Pages left out because they are hard links. */
  hardLinked: string[];
  /** A build worker started during the scan, which foresaw a full build (closed if unused). */
  buildWorker?: BuildWorker | undefined;
}

type Upsert = ScanResult['upserts'][number];

/**
 * Bring `engine` in line with the pages on disk (`scan`: a scan of them made just before;
 * otherwise one is made now): removed pages out, changed and new ones (re)indexed and
 * embedded, unchanged ones whose stat moved touched.
 */
export async function applyDiskChanges(
  root: string,
  contract: Contract,
  engine: SearchEngine,
  scan: PageScan | undefined,
): Promise<{ summary: RefreshSummary; hardLinked: string[]; touched: number }> {
  const found = scan ?? scanPages(root, contract);
  const diff = await diffAgainstDisk(root, found.files, engine.docs, contentHash);
  const summary: RefreshSummary = { added: 0, changed: 0, removed: 0 };
  for (const removed of diff.removed) if (engine.removePage(removed)) summary.removed++;
  const seenAt = Date.now();
  for (const touched of diff.touched) engine.docs.touch(touched.path, touched, seenAt);
  const count = (upsert: Upsert): void => {
    if (upsert.isNew) summary.added++;
    else summary.changed++;
  };
  // A page vanished since the scan reads as undefined: the next scan settles it.
  const read = (upsert: Upsert): PageDocument | undefined => {
    const content = upsert.content ?? readPage(root, upsert.path);
    return content === undefined ? undefined : pageDocument(upsert.path, content, engine.language);
  };
  // Pages are read (when new), parsed and indexed one at a time, so a build never holds
  // every page's text at once.
  const pages = function* (upserts: readonly Upsert[]): Generator<{ doc: PageDocument; stat: PageStat }> {
    for (const upsert of upserts) {
      const doc = read(upsert);
      if (!doc) continue;
      count(upsert);
      yield { doc, stat: upsert.stat };
    }
  };
  const bulk = diff.upserts.length >= PARALLEL_BUILD_MIN_PAGES ? engine.bulkBuild(seenAt) : undefined;
  if (bulk) {
    // Loaded only for a full build: a search over a saved index never needs it.
    const { buildShared } = await import('../build/shared-build.js');
    const built = await buildShared(bulk, engine, root, diff.upserts, read, scan?.buildWorker);
    for (const page of built.indexed) count(page);
    if (!built.trained) await updateSemantic(engine, root, built.work);
  } else {
    void scan?.buildWorker?.close();
    await updateSemantic(engine, root, engine.indexPages(pages(diff.upserts), seenAt));
  }
  return { summary, hardLinked: found.hardLinked, touched: diff.touched.length };
}
