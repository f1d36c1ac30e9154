import { SandboxError } from '../errors.js';
import { ConfinedIo } from '../confine/confined-io.js';
import { resolveInSandbox } from '../tools/sandbox.js';
import type { Contract, Schema } from '../wiki/contract.js';
import { parsePage, type Page } from '../wiki/page.js';
import { PageIndex } from '../wiki/page-index.js';
import { listPageFiles, type PageFile } from '../wiki/page-files.js';
import { readPage } from '../wiki/page-read.js';
import { contentHash } from '../search/text/document.js';
import type { SharedRows } from '../store/shared-rows.js';
import { unchangedSince, type FileStamp } from '../util/file-stamp.js';
import type { LiveSchema } from './live-schema.js';
import { isServableRowPath, rowPage } from './row-pages.js';

const READ_BATCH = 256;

/**
 * The wiki's pages as they are on disk now. A long-lived server cannot build its page index
 * once: people and `wiki ingest` edit pages while it runs. Each `current()` lists wiki/ with
 * every page's stat and re-reads only those the stat does not prove unchanged
 * (`util/file-stamp.ts`), so answering stays cheap on a large wiki and is never stale.
 *
 * Only regular files under wiki/ are served: the listing skips hidden folders and symbolic
 * links, and every read goes through the sandbox and must land inside wiki/.
 *
 * With the database store (`shared`), the database's newest version of a page is served
 * where it differs from the file: a page written on another machine and not yet pulled, a
 * newer version, a deletion not yet pulled. The checkout's own changes are offered to the
 * database before (a newer one becomes the row), so what is served is the newest version
 * any replica holds. A row is judged for access as a file with its text would be.
 */
export class LivePages {
  private index: PageIndex;
  private readonly seen = new Map<string, FileStamp>();
  /** The checkout's pages as read: the page and its content hash. */
  private readonly disk = new Map<string, { page: Page; hash: string }>();
  /** The hash of the version the index holds at each path, and whether it is the database's. */
  private readonly shown = new Map<string, { hash: string; row: boolean }>();
  /** Paths where the database's version was served in place of the file's (or of its absence). */
  private readonly fromRows = new Set<string>();
  private rowsSeen: number | undefined;
  private rows: SharedRows | undefined;
  private queue: Promise<unknown> = Promise.resolve();
  /** Whether the files may have changed since the last rescan (always, unless watched). */
  private changed = true;
  private schemaNow: Schema;

  /**
   * `schema`: schema.md as it is now (live-schema.ts); a changed contract re-reads every
   * page under it (a page's type and visibility rank depend on it).
   * `watched`: a watcher calls `markChanged()` when a page changes (mcp/freshness.ts), so
   * a call rescans only after a change; otherwise every call rescans.
   * `shared`: the database's rows, with the database store (mcp/lazy-search.ts).
   */
  constructor(
    private readonly root: string,
    private readonly schema: LiveSchema | Schema,
    private readonly options: { watched?: boolean; shared?: () => Promise<SharedRows | undefined> } = {},
  ) {
    this.schemaNow = this.readSchema();
    this.index = new PageIndex(this.schemaNow.contract);
  }

  /** The page index brought in line with the files and schema.md. Calls are serialised. */
  current(): Promise<PageIndex> {
    const next = this.queue.then(async () => {
      const schema = this.readSchema();
      if (schema.contract !== this.schemaNow.contract) this.reset(schema);
      const rows = await this.options.shared?.();
      this.rows = rows;
      if (this.changed || !this.options.watched) await this.rescan();
      this.followRows(rows);
      return this.index;
    });
    this.queue = next.catch(() => undefined);
    return next;
  }

  /** The schema the index returned last was read under. */
  currentSchema(): Schema {
    return this.schemaNow;
  }

  get contract(): Contract {
    return this.schemaNow.contract;
  }

  /** The content hash of the version of a page served now; undefined for a page not served. */
  servedVersion(pagePath: string): string | undefined {
    return this.shown.get(pagePath)?.hash;
  }

  /** The text of the version of a page served now: the database's row, or the file. */
  textAt(pagePath: string): string | undefined {
    const shown = this.shown.get(pagePath);
    if (!shown) return undefined;
    if (!shown.row) return readPage(this.root, pagePath);
    const row = this.rows?.rowAt(pagePath);
    return row?.hash === shown.hash ? (row.content ?? undefined) : undefined;
  }

  /** Something under wiki/ changed: the next call rescans. */
  markChanged(): void {
    this.changed = true;
  }

  private readSchema(): Schema {
    return 'current' in this.schema ? this.schema.current() : this.schema;
  }

  private reset(schema: Schema): void {
    this.schemaNow = schema;
    this.index = new PageIndex(schema.contract);
    this.seen.clear();
    this.disk.clear();
    this.shown.clear();
    this.fromRows.clear();
    this.rowsSeen = undefined;
    this.changed = true;
  }

  private async rescan(): Promise<PageIndex> {
    // Cleared before the listing: a change reported while it runs is rescanned next time.
    this.changed = false;
    const listed = listPageFiles(this.root);
    const present = new Set<string>();
    for (let i = 0; i < listed.length; i += READ_BATCH) {
      const batch = listed.slice(i, i + READ_BATCH);
      await Promise.all(batch.map(async (file) => {
        if (await this.sync(file)) present.add(file.path);
      }));
    }
    for (const pagePath of [...this.seen.keys()]) {
      if (!present.has(pagePath)) this.forget(pagePath);
    }
    return this.index;
  }

  /** Bring one listed page up to date; false when it is gone or may not be served. */
  private async sync(file: PageFile): Promise<boolean> {
    if (unchangedSince(this.seen.get(file.path), file)) return true;
    const seenAt = Date.now();
    const text = await readServedPage(this.root, file.path);
    if (text === undefined) return false;
    this.disk.set(file.path, { page: parsePage(file.path, text, this.schemaNow.contract), hash: contentHash(text) });
    this.shown.delete(file.path);
    this.place(file.path);
    this.seen.set(file.path, { mtimeMs: file.mtimeMs, size: file.size, seenAt });
    return true;
  }

  private forget(pagePath: string): void {
    this.disk.delete(pagePath);
    this.seen.delete(pagePath);
    this.place(pagePath);
  }

  /** Once the database's rows moved, place every page they touch (and every page they touched). */
  private followRows(rows: SharedRows | undefined): void {
    if (!rows || rows.rowsVersion === this.rowsSeen) return;
    this.rowsSeen = rows.rowsVersion;
    const touched = new Set(this.fromRows);
    for (const pagePath of rows.rowPaths()) touched.add(pagePath);
    for (const pagePath of touched) this.place(pagePath);
  }

  /** Put in the index the version of a page to serve: the database's row where it differs from the file, else the file. */
  private place(pagePath: string): void {
    const contract = this.schemaNow.contract;
    const own = this.disk.get(pagePath);
    const row = this.rows?.rowAt(pagePath);
    if (row && row.hash !== (own?.hash ?? null) && isServableRowPath(pagePath, contract)) {
      this.fromRows.add(pagePath);
      if (row.content === null || row.hash === null) return this.show(pagePath, undefined);
      if (this.shown.get(pagePath)?.hash !== row.hash) this.show(pagePath, { page: rowPage(pagePath, row.content, row.visibility, contract), hash: row.hash, row: true });
      return;
    }
    this.fromRows.delete(pagePath);
    if (!own) return this.show(pagePath, undefined);
    if (this.shown.get(pagePath)?.hash !== own.hash || this.shown.get(pagePath)?.row) this.show(pagePath, { ...own, row: false });
  }

  private show(pagePath: string, version: { page: Page; hash: string; row: boolean } | undefined): void {
    if (!version) {
      this.shown.delete(pagePath);
      this.index.remove(pagePath);
      return;
    }
    this.shown.set(pagePath, { hash: version.hash, row: version.row });
    this.index.upsert(version.page);
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
    return Buffer.from(await confinedIoFor(root).readBytes(resolved.absolute)).toString('utf8');
  } catch (error) {
    if (error instanceof SandboxError) return undefined;
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR' || code === 'EISDIR') return undefined;
    throw error;
  }
}

/** One confined reader per workspace root: each resolves its root once, not once per page read. */
const confinedIos = new Map<string, ConfinedIo>();
function confinedIoFor(root: string): ConfinedIo {
  let io = confinedIos.get(root);
  if (!io) confinedIos.set(root, (io = new ConfinedIo(root)));
  return io;
}
