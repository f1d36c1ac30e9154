import { watch, type FSWatcher } from 'node:fs';
import path from 'node:path';
import type { LazySearch } from '../mcp/lazy-search.js';
import type { LivePages } from '../mcp/live-pages.js';

/** Events this close together are one change (an editor's save is several). */
const SETTLE_MS = 50;

/**
 * Keeps a long-running server's pages and search index in line with wiki/ without a rescan
 * per call: a recursive watch on wiki/ marks both changed (the next call brings them in
 * line) and refreshes them shortly after, ahead of the next call; a full check every
 * `fullCheckMs` is the safety net for what a watch can miss (network file systems, a
 * watch limit reached). Without a watch, the full check runs every second.
 */
export class Freshness {
  private watcher: FSWatcher | undefined;
  private settle: NodeJS.Timeout | undefined;
  private periodic: NodeJS.Timeout | undefined;
  private refreshing: Promise<void> | undefined;

  constructor(
    private readonly root: string,
    private readonly pages: LivePages,
    private readonly search: LazySearch,
    private readonly log: (line: string) => void,
    private readonly fullCheckMs: number,
  ) {}

  start(): void {
    let interval = this.fullCheckMs;
    try {
      this.watcher = watch(path.join(this.root, 'wiki'), { recursive: true }, () => this.changed());
      this.watcher.on('error', (error) => {
        this.log(`wiki serve: stopped watching wiki/ (${error.message}); checking it every second instead`);
        this.watcher?.close();
        this.watcher = undefined;
        this.every(1000);
      });
    } catch (error) {
      this.log(`wiki serve: cannot watch wiki/ (${(error as Error).message}); checking it every second instead`);
      interval = 1000;
    }
    this.every(interval);
  }

  close(): void {
    this.watcher?.close();
    if (this.settle) clearTimeout(this.settle);
    if (this.periodic) clearInterval(this.periodic);
  }

  private every(ms: number): void {
    if (this.periodic) clearInterval(this.periodic);
    this.periodic = setInterval(() => this.changed(), ms);
    this.periodic.unref();
  }

  private changed(): void {
    this.pages.markChanged();
    this.search.markChanged();
    if (this.settle) clearTimeout(this.settle);
    this.settle = setTimeout(() => void this.refresh(), SETTLE_MS);
    this.settle.unref();
  }

  /** Bring both in line now; one refresh at a time. */
  private refresh(): Promise<void> {
    this.refreshing ??= (async () => {
      try {
        await this.pages.current();
        await this.search.refreshIfOpen();
      } catch (error) {
        this.log(`wiki serve: could not refresh after a change: ${(error as Error).message}`);
      } finally {
        this.refreshing = undefined;
      }
    })();
    return this.refreshing;
  }
}
