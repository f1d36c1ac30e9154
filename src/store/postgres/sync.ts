import type { Contract } from '../../wiki/contract.js';
import { readPage } from '../../wiki/page-read.js';
import { scanPages, type ScannedPage } from '../../search/live/scan.js';
import { contentHash } from '../../search/text/document.js';
import type { Database } from './connection.js';
import { checkoutVersions } from './checkout.js';
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
): Promise<{ offered: number; accepted: string[] }> {
  const differing = files.filter((file) => {
    const content = readPage(root, file.path);
    return content !== undefined && contentHash(content) !== heldHash(file.path);
  });
  const versions = await checkoutVersions(root, contract, differing);
  const { accepted } = await offerVersions(db, versions, writer);
  return { offered: versions.length, accepted };
}

export interface SyncReport {
  /** Content pages in this checkout. */
  pages: number;
  /** Pages whose text differs from the database's. */
  offered: number;
  /** Offered versions newer than the database's, now its rows. */
  accepted: number;
}

/** `wiki store sync`: fill or refresh the database from this checkout (also the way from the file index to the database). */
export async function syncCheckout(db: Database, root: string, contract: Contract, writer: string): Promise<SyncReport> {
  const { files } = scanPages(root, contract);
  const stored = await storedVersions(db);
  const { offered, accepted } = await offerChangedPages(db, root, contract, files, (pagePath) => stored.get(pagePath)?.hash, writer);
  return { pages: files.length, offered, accepted: accepted.length };
}
