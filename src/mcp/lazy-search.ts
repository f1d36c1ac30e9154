import type { WikiConfig } from '../config/schema.js';
import type { SearchIndex } from '../search/index.js';
import { openSearchIndex } from '../store/open-index.js';
import { sharedRowsOf, type SharedRows } from '../store/shared-rows.js';
import { hardLinkedPagesNotice } from '../search/live/read-page.js';
import type { Schema } from '../wiki/contract.js';

const READ_ONLY_CODES = new Set(['EACCES', 'EPERM', 'EROFS']);

/**
 * The workspace's search index, opened on the first search rather than at start-up (a
 * large wiki takes a while to index, and clients time out servers that are slow to
 * answer `initialize`), then kept for the life of the server; it rescans the pages
 * itself before a search. Its cache in `.wiki/search/` is kept current as `wiki search`
 * does; where that folder cannot be written the index lives in memory instead.
 */
export class LazySearch {
  private opening: Promise<SearchIndex> | undefined;
  /** Hard-linked pages the operator was already told about. */
  private readonly told = new Set<string>();
  /** A watcher saw a page change since the index last refreshed. */
  private changed = false;

  /**
   * `rescanAfterMs`: how old the index's last scan of the files may be before a search
   * rescans them (the index's default unless given; a watched server gives a long one).
   */
  constructor(
    private readonly root: string,
    private readonly schema: Schema,
    private readonly config: WikiConfig,
    private readonly env: NodeJS.ProcessEnv,
    private readonly log: (line: string) => void,
    private readonly options: { rescanAfterMs?: number } = {},
  ) {}

  async index(): Promise<SearchIndex> {
    if (!this.opening) {
      this.opening = this.open();
      // A failed open is retried by the next search instead of being remembered.
      this.opening.catch(() => {
        this.opening = undefined;
      });
    }
    const index = await this.opening;
    if (this.changed) {
      this.changed = false;
      // Queued before this caller's search, which runs after it (the index serialises them).
      void index.refresh().catch((error: unknown) => {
        this.changed = true;
        this.log(`wiki: could not refresh the search index: ${(error as Error).message}`);
      });
    }
    return index;
  }

  /**
   * The database's rows, which the pages are served from beside the checkout (live-pages.ts):
   * opens the index for them. Undefined with the file index, which is never opened for this.
   */
  async sharedRows(): Promise<SharedRows | undefined> {
    if (this.config.store.kind !== 'postgres') return undefined;
    return sharedRowsOf(await this.index());
  }

  /** A page changed on disk: the next search brings the index in line first. */
  markChanged(): void {
    this.changed = true;
  }

  /** Bring an open index in line with the files now (the periodic full check); nothing when it is not open. */
  async refreshIfOpen(): Promise<void> {
    const index = await this.opening?.catch(() => undefined);
    if (!index) return;
    this.changed = false;
    await index.refresh();
  }

  private async open(): Promise<SearchIndex> {
    try {
      return await openSearchIndex(this.root, this.schema, this.config, { env: this.env, rescanAfterMs: this.options.rescanAfterMs });
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === undefined || !READ_ONLY_CODES.has(code)) throw error;
      this.log(`wiki mcp: cannot save the search index in .wiki/search (${code}); keeping it in memory`);
      return openSearchIndex(this.root, this.schema, this.config, { env: this.env, persist: false, rescanAfterMs: this.options.rescanAfterMs });
    }
  }

  /** Tell the operator (stderr), once per page, about pages search leaves out because they are hard links. */
  tellLeftOut(index: SearchIndex): void {
    const fresh = index.info().hardLinked.filter((pagePath) => !this.told.has(pagePath));
    if (fresh.length === 0) return;
    for (const pagePath of fresh) this.told.add(pagePath);
    this.log(`wiki mcp: ${hardLinkedPagesNotice(fresh)}`);
  }

  /** Flush the index if it was opened; a failed save is logged, since the pages are the truth. */
  async close(): Promise<void> {
    const opening = this.opening;
    this.opening = undefined;
    if (!opening) return;
    const index = await opening.catch(() => undefined);
    await index?.close().catch((error: unknown) => {
      this.log(`wiki mcp: could not save the search index: ${(error as Error).message}`);
    });
  }
}
