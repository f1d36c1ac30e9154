import { stat } from 'node:fs/promises';
import path from 'node:path';
import { SandboxError } from '../errors.js';
import { ConfinedIo } from '../tools/confined-io.js';
import { resolveInSandbox } from '../tools/sandbox.js';
import type { Contract } from '../wiki/contract.js';
import { parsePage } from '../wiki/page.js';
import { PageIndex } from '../wiki/page-index.js';
import { listPagePaths } from '../wiki/pages.js';

interface SeenFile {
  mtimeMs: number;
  size: number;
  /** When the text was read (ms since epoch). */
  readAt: number;
}

/** An mtime this close to when the file was read does not prove it unchanged (coarse clocks). */
const RACY_WINDOW_MS = 2000;
const STAT_BATCH = 256;

/**
 * The wiki's pages as they are on disk now. A long-lived server cannot build its page index
 * once: people and `wiki ingest` edit pages while it runs. Each `current()` lists wiki/,
 * stats every page and re-reads only those whose size or mtime moved (or whose mtime is
 * too recent to trust), so answering stays cheap on a large wiki and is never stale.
 *
 * Only regular files under wiki/ are served: the listing skips hidden folders and symbolic
 * links, and every read goes through the sandbox and must land inside wiki/.
 */
export class LivePages {
  private readonly index: PageIndex;
  private readonly seen = new Map<string, SeenFile>();
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly root: string,
    private readonly contract: Contract,
  ) {
    this.index = new PageIndex(contract);
  }

  /** The page index brought in line with the files. Calls are serialised; each rescans. */
  current(): Promise<PageIndex> {
    const next = this.queue.then(() => this.rescan());
    this.queue = next.catch(() => undefined);
    return next;
  }

  private async rescan(): Promise<PageIndex> {
    const listed = await listPagePaths(this.root);
    const present = new Set<string>();
    for (let i = 0; i < listed.length; i += STAT_BATCH) {
      const batch = listed.slice(i, i + STAT_BATCH);
      await Promise.all(batch.map(async (pagePath) => {
        if (await this.sync(pagePath)) present.add(pagePath);
      }));
    }
    for (const pagePath of [...this.seen.keys()]) {
      if (!present.has(pagePath)) this.forget(pagePath);
    }
    return this.index;
  }

  /** Bring one listed page up to date; false when it is gone or may not be served. */
  private async sync(pagePath: string): Promise<boolean> {
    const info = await stat(path.join(this.root, pagePath)).catch(() => undefined);
    if (!info?.isFile()) return false;
    const known = this.seen.get(pagePath);
    const unchanged =
      known !== undefined &&
      known.mtimeMs === info.mtimeMs &&
      known.size === info.size &&
      info.mtimeMs < known.readAt - RACY_WINDOW_MS;
    if (unchanged) return true;
    const readAt = Date.now();
    const text = await readServedPage(this.root, pagePath);
    if (text === undefined) return false;
    this.index.upsert(parsePage(pagePath, text, this.contract));
    this.seen.set(pagePath, { mtimeMs: info.mtimeMs, size: info.size, readAt });
    return true;
  }

  private forget(pagePath: string): void {
    this.index.remove(pagePath);
    this.seen.delete(pagePath);
  }
}

/**
 * The text of a page, read only if the sandbox allows it and its real location is a
 * markdown file under wiki/; undefined when refused or vanished.
 */
export async function readServedPage(root: string, pagePath: string): Promise<string | undefined> {
  try {
    const resolved = await resolveInSandbox(root, pagePath, 'read');
    if (!resolved.real.startsWith('wiki/') || !resolved.real.endsWith('.md')) return undefined;
    // Read where the sandbox checked, never through a link swapped in since, and never a
    // hard link (it may carry a denied or outside file's content): see confined-io.ts.
    return Buffer.from(await new ConfinedIo(root).readBytes(resolved.absolute)).toString('utf8');
  } catch (error) {
    if (error instanceof SandboxError) return undefined;
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR' || code === 'EISDIR') return undefined;
    throw error;
  }
}
