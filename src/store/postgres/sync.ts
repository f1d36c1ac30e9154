import type { Contract } from '../../wiki/contract.js';
import { readPage } from '../../wiki/page-read.js';
import { scanPages, type ScannedPage } from '../../search/live/scan.js';
import { contentHash } from '../../search/text/document.js';
import type { Database } from './connection.js';
import { checkoutDeletions, checkoutVersions } from './checkout.js';
import { offerVersions, storedVersions } from './page-rows.js';

/**
 * Offer the database the checkout's pages whose text it does not hold (`heldHash`: the
 * hash of the version it holds). Only newer versions replace rows (page-rows.ts), and no
 * page missing here is deleted there. Returns the paths offered and those accepted.
 */
export async function offerChangedPages(
  db: Database,
  root: string,
  contract: Contract,
  files: readonly ScannedPage[],
  heldHash: (pagePath: string) => string | null | undefined,
  writer: string,
  language?: string,
): Promise<{ offered: number; accepted: string[] }> {
  const differing = files.filter((file) => {
    const content = readPage(root, file.path);
    return content !== undefined && contentHash(content) !== heldHash(file.path);
  });
  const versions = await checkoutVersions(root, contract, differing);
  const { accepted } = await offerVersions(db, versions, writer, language);
  return { offered: versions.length, accepted };
}

/**
 * Offer the deletions this checkout can prove (checkout.ts): of the pages the database
 * holds (`held`: path and its row's stamp, live rows only), those missing here. Returns the
 * paths the database accepted as deleted.
 */
export async function offerCheckoutDeletions(
  db: Database,
  root: string,
  files: readonly ScannedPage[],
  held: Iterable<{ path: string; stamp: number }>,
  writer: string,
): Promise<string[]> {
  const present = new Set(files.map((file) => file.path));
  const missing = [...held].filter((row) => !present.has(row.path));
  const { accepted } = await offerVersions(db, await checkoutDeletions(root, missing), writer);
  return accepted;
}

export interface SyncReport {
  /** Content pages in this checkout. */
  pages: number;
  /** Pages whose text differs from the database's. */
  offered: number;
  /** Offered versions newer than the database's, now its rows. */
  accepted: number;
  /** Pages this checkout's history deleted after the database's version, now deleted there. */
  deleted: number;
}

/** `wiki store sync`: fill or refresh the database from this checkout (also the way from the file index to the database); `language`: the wiki's, for pages without `lang`. */
export async function syncCheckout(db: Database, root: string, contract: Contract, writer: string, language?: string): Promise<SyncReport> {
  const { files } = scanPages(root, contract);
  const stored = await storedVersions(db);
  const { offered, accepted } = await offerChangedPages(db, root, contract, files, (pagePath) => stored.get(pagePath)?.hash, writer, language);
  const live = [...stored].filter(([, row]) => row.hash !== null).map(([pagePath, row]) => ({ path: pagePath, stamp: row.stamp }));
  const deleted = await offerCheckoutDeletions(db, root, files, live, writer);
  return { pages: files.length, offered, accepted: accepted.length, deleted: deleted.length };
}
