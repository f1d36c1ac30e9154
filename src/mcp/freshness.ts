import { readdirSync, statSync, watch, type FSWatcher } from 'node:fs';
import path from 'node:path';
import { SCHEMA_FILE } from '../wiki/workspace.js';

/** Events this close together are one change (an editor's save is several). */
const SETTLE_MS = 50;
/** Without a working watch, wiki/ is checked this often. */
const FALLBACK_CHECK_MS = 1000;

/** What a watch keeps in line: the pages and the search index (mcp/live-pages.ts, mcp/lazy-search.ts). */
export interface Refreshable {
  markChanged(): void;
}
export interface WatchedPages extends Refreshable {
  current(): Promise<unknown>;
}
export interface WatchedSearch extends Refreshable {
  refreshIfOpen(): Promise<void>;
}

/**
 * Keeps a long-running server's pages and search index in line with wiki/ and schema.md
 * without a rescan per call, however a file changed: edited in place, replaced by a rename
 * (`git checkout REV -- page.md`, `git pull`, an editor's save-by-rename), or wiki/ itself
 * swapped for a renamed copy.
 *
 * Node's recursive watch on Linux follows each file's inode, so it misses a file replaced
 * by a rename and everything under a replaced wiki/. Here each folder is watched by name
 * instead (a folder watch reports any entry created, renamed, written or removed in it),
 * and the workspace root is watched for `wiki` and schema.md being replaced: any change
 * marks both stale (the next call brings them in line) and refreshes them shortly after;
 * a folder created, removed or replaced re-reads the set of folders watched. A full check
 * every `fullCheckMs` is the safety net for what a watch can miss (network file systems,
 * the watch limit reached); without a watch it runs every second.
 */
export class Freshness {
  private readonly folders = new Map<string, FSWatcher>();
  private rootWatcher: FSWatcher | undefined;
  private settle: NodeJS.Timeout | undefined;
  private periodic: NodeJS.Timeout | undefined;
  private refreshing: Promise<void> | undefined;
  private rewatchDue = false;
  private again = false;
  private watching = true;
  private closed = false;

  constructor(
    private readonly root: string,
    private readonly pages: WatchedPages,
    private readonly search: WatchedSearch,
    private readonly log: (line: string) => void,
    private readonly fullCheckMs: number,
    /** Told after each refresh that follows a change (tests wait on it, never on a clock). */
    private readonly onRefreshed: () => void = () => undefined,
  ) {}

  start(): void {
    try {
      this.rootWatcher = watch(this.root, { persistent: false }, (_event, name) => {
        const entry = name?.toString();
        if (entry === 'wiki' || entry === SCHEMA_FILE || entry === undefined) this.changed(entry !== SCHEMA_FILE);
      });
      this.rootWatcher.on('error', (error) => this.lost(error));
      this.rewatch();
    } catch (error) {
      this.lost(error as Error);
    }
    if (!this.periodic) this.every(this.fullCheckMs);
  }

  close(): void {
    this.closed = true;
    this.rootWatcher?.close();
    for (const watcher of this.folders.values()) watcher.close();
    this.folders.clear();
    if (this.settle) clearTimeout(this.settle);
    if (this.periodic) clearInterval(this.periodic);
  }

  /** How many folders are watched (for the operator and the tests). */
  watchedFolders(): number {
    return this.folders.size;
  }

  private lost(error: Error): void {
    if (!this.watching) return;
    this.watching = false;
    this.log(`wiki: cannot watch wiki/ (${error.message}); checking it every second instead`);
    this.rootWatcher?.close();
    for (const watcher of this.folders.values()) watcher.close();
    this.folders.clear();
    this.every(FALLBACK_CHECK_MS);
  }

  private every(ms: number): void {
    if (this.periodic) clearInterval(this.periodic);
    this.periodic = setInterval(() => this.changed(true), ms);
    this.periodic.unref();
  }

  /** Something changed; `folders`: the set of folders may have changed too. */
  private changed(folders = false): void {
    if (this.closed) return;
    if (folders) this.rewatchDue = true;
    this.pages.markChanged();
    this.search.markChanged();
    if (this.settle) clearTimeout(this.settle);
    this.settle = setTimeout(() => void this.refresh(), SETTLE_MS);
    this.settle.unref();
  }

  /**
   * Watch every folder under wiki/ that is there now, by identity: a folder replaced under
   * the same name (wiki/ swapped for a copy) is a new folder and gets a new watch.
   */
  private rewatch(): void {
    if (!this.watching || this.closed) return;
    this.rewatchDue = false;
    const present = new Set<string>();
    for (const folder of this.listFolders()) {
      present.add(folder.key);
      if (this.folders.has(folder.key)) continue;
      try {
        const watcher = watch(folder.absolute, { persistent: false }, (event) => this.changed(event === 'rename'));
        watcher.on('error', () => this.changed(true));
        this.folders.set(folder.key, watcher);
      } catch (error) {
        // A folder gone since it was listed is no loss; anything else (the watch limit) is.
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue;
        this.lost(error as Error);
        return;
      }
    }
    for (const [key, watcher] of this.folders) {
      if (present.has(key)) continue;
      watcher.close();
      this.folders.delete(key);
    }
  }

  /** wiki/ and its folders (hidden ones, node_modules and links left out, as the page lister does). */
  private listFolders(): Array<{ key: string; absolute: string }> {
    const out: Array<{ key: string; absolute: string }> = [];
    const visit = (absolute: string): void => {
      const info = statSync(absolute, { throwIfNoEntry: false });
      if (!info?.isDirectory()) return;
      out.push({ key: `${info.dev}:${info.ino}:${absolute}`, absolute });
      let entries;
      try {
        entries = readdirSync(absolute, { withFileTypes: true });
      } catch {
        return;
      }
      for (const entry of entries) {
        if (entry.isDirectory() && !entry.name.startsWith('.') && entry.name !== 'node_modules') visit(path.join(absolute, entry.name));
      }
    };
    visit(path.join(this.root, 'wiki'));
    return out;
  }

  /** Bring both in line now; one refresh at a time, and one more after it when a change came in meanwhile. */
  private refresh(): Promise<void> {
    if (this.refreshing) {
      this.again = true;
      return this.refreshing;
    }
    this.refreshing = (async () => {
      try {
        if (this.rewatchDue) {
          this.rewatch();
          // What changed in a folder before its new watch began was heard by no one: rescan all.
          this.pages.markChanged();
          this.search.markChanged();
        }
        await this.pages.current();
        await this.search.refreshIfOpen();
      } catch (error) {
        this.log(`wiki: could not refresh after a change: ${(error as Error).message}`);
      } finally {
        this.refreshing = undefined;
        if (!this.closed) this.onRefreshed();
        if (this.again && !this.closed) {
          this.again = false;
          void this.refresh();
        }
      }
    })();
    return this.refreshing;
  }
}
