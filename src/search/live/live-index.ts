import { lstatSync } from 'node:fs';
import { engineInfo } from './engine-info.js';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { isSpecialPage, type Contract } from '../../wiki/contract.js';
import { keyFromPath } from '../../wiki/keys.js';
import type { PageStat } from './doc-record.js';
import { pageDocument } from '../text/document.js';
import type { SearchEngine, SearchParams } from '../engine.js';
import { readingEachOnce } from './read-page.js';
import { readPage } from '../../wiki/page-read.js';
import { applyDiskChanges, type PageScan } from './refresh.js';
import { measureSemanticStrength, retryPending } from '../lanes/semantic/semantic-upkeep.js';
import { saveSnapshot } from './snapshot-file.js';
import { answerQuery, checkedQuery } from './answer.js';
import { unchangedSince } from '../../util/file-stamp.js';
import type { RefreshSummary, SearchIndex, SearchIndexInfo, SearchOptions, SearchResponse } from '../types.js';

/** Save right after a refresh that changed at least this many pages (or rebuilt). */
const SAVE_AFTER_CHANGES = 25;
/** Writes through the tools are persisted after this quiet period (and on close). */
const SAVE_DELAY_MS = 1000;
export { MAX_LIMIT } from './answer.js';

export interface IndexState {
  root: string;
  contract: Contract;
  params: SearchParams;
  engine: SearchEngine;
  file: string;
  persist: boolean;
  rescanAfterMs: number;
  builtAt: string;
  updatedAt: string;
  rebuilt: boolean;
}

/**
 * An open search index: the in-memory engine kept in line with the pages on disk and
 * persisted after changes (see `openSearchIndex`).
 */
export class LiveSearchIndex implements SearchIndex {
  private lastScan = 0;
  private dirty: boolean;
  private savedAt: string | undefined;
  private saveTimer: NodeJS.Timeout | undefined;
  private saving: Promise<void> = Promise.resolve();
  /** Changes to the index run one at a time (tools may search and write concurrently). */
  private changes: Promise<unknown> = Promise.resolve();
  /** A rescan started by a search, shared by searches that arrive meanwhile. */
  private rescan: Promise<unknown> | undefined;
  /** Pages the last scan left out because they are hard links. */
  private hardLinked: string[] = [];

  constructor(private readonly state: IndexState) {
    this.dirty = state.rebuilt;
  }

  private get engine(): SearchEngine {
    return this.state.engine;
  }

  /** The embedder's configuration changed since the index was saved: redo the semantic lane. */
  semanticConfigChanged(): void {
    const semantic = this.engine.semantic;
    if ('lane' in semantic) semantic.lane.markPending([...this.engine.docs.records()].map((r) => r.slot));
    this.dirty = true;
  }

  private exclusive<T>(work: () => Promise<T>): Promise<T> {
    const run = this.changes.then(work, work);
    this.changes = run.catch(() => undefined);
    return run;
  }

  /** Bring the index in line with the files; `scan` is a scan of them made just before. */
  refresh(scan?: PageScan): Promise<RefreshSummary> {
    return this.exclusive(() => this.refreshNow(scan));
  }

  private async refreshNow(scan: PageScan | undefined): Promise<RefreshSummary> {
    const scanStarted = scan?.startedAt ?? Date.now();
    const { summary, hardLinked, touched } = await applyDiskChanges(this.state.root, this.state.contract, this.engine, scan);
    await measureSemanticStrength(this.engine, this.state.params.lexical);
    this.hardLinked = hardLinked;
    this.lastScan = scanStarted;
    const changes = summary.added + summary.changed + summary.removed;
    if (changes > 0) this.state.updatedAt = new Date().toISOString();
    if (changes > 0 || touched > 0) this.dirty = true;
    if (this.state.rebuilt || changes >= SAVE_AFTER_CHANGES) {
      this.state.rebuilt = false;
      await this.save();
    }
    return summary;
  }

  pathsOf(keys: readonly string[]): Map<string, string[]> {
    const found = new Map<string, string[]>(keys.map((key) => [key, []]));
    // A page holds key k when its file name is `k.md` (or k): looked up by the name's length,
    // first letter and the letter before `.md`, so most of 10k paths are passed over without
    // cutting their names out (length and first letter alone let 62% of the bench's through).
    const shapes = new Set(keys.flatMap((key) => [key, `${key}.md`].map((name) => nameShape(name, 0, name.length))));
    for (const pagePath of this.engine.docs.paths()) {
      const from = pagePath.lastIndexOf('/') + 1;
      if (shapes.has(nameShape(pagePath, from, pagePath.length - from))) found.get(keyFromPath(pagePath))?.push(pagePath);
    }
    return found;
  }

  surfacedAsIndexed(pagePath: string): boolean | undefined {
    const record = this.engine.docs.get(pagePath);
    if (!record) return undefined;
    // A long-running process rescans only now and then: the flag is trusted while the
    // file's stat proves it unchanged since it was indexed (one stat, not a read).
    const now = lstatSync(path.join(this.state.root, pagePath), { throwIfNoEntry: false });
    return now && unchangedSince(record, now) ? record.surfaced : undefined;
  }

  async search(query: string, options: SearchOptions = {}): Promise<SearchResponse> {
    const text = checkedQuery(query, options);
    if (Date.now() - this.lastScan > this.state.rescanAfterMs) {
      this.rescan ??= this.refresh().finally(() => {
        this.rescan = undefined;
      });
      await this.rescan;
    } else {
      await this.exclusive(() => retryPending(this.engine, this.state.root));
    }
    // Each page is read once per search: a filtered search's results are read for the filter, then for their snippets.
    const textOf = options.readPage ?? readingEachOnce((pagePath) => readPage(this.state.root, pagePath));
    return answerQuery(this.engine, this.state.params, text, options, textOf);
  }

  upsertPage(pagePath: string, content: string): Promise<void> {
    return this.exclusive(() => this.upsertNow(pagePath, content));
  }

  private async upsertNow(pagePath: string, content: string): Promise<void> {
    const normalised = normalisePath(pagePath);
    if (!this.isContentPage(normalised)) return;
    const doc = pageDocument(normalised, content, this.engine.language);
    const stat = await statOf(path.join(this.state.root, normalised));
    const existing = this.engine.docs.get(normalised);
    if (existing && existing.hash === doc.hash) {
      this.engine.docs.touch(normalised, stat, Date.now());
    } else {
      const work = this.engine.indexPage(doc, stat, Date.now());
      await this.engine.embed([work]);
      this.state.updatedAt = new Date().toISOString();
    }
    this.changed();
  }

  removePage(pagePath: string): Promise<void> {
    return this.exclusive(() => this.removeNow(pagePath));
  }

  private async removeNow(pagePath: string): Promise<void> {
    if (!this.engine.removePage(normalisePath(pagePath))) return;
    this.state.updatedAt = new Date().toISOString();
    this.changed();
  }

  private isContentPage(pagePath: string): boolean {
    return pagePath.startsWith('wiki/') && pagePath.endsWith('.md') && !isSpecialPage(this.state.contract, pagePath);
  }

  private changed(): void {
    this.dirty = true;
    if (!this.state.persist) return;
    if (this.saveTimer) clearTimeout(this.saveTimer);
    this.saveTimer = setTimeout(() => {
      this.saveTimer = undefined;
      // A failed background save leaves the index dirty; close() tries again and reports.
      this.save().catch(() => {
        this.dirty = true;
      });
    }, SAVE_DELAY_MS);
    this.saveTimer.unref();
  }

  info(): SearchIndexInfo {
    return {
      file: this.state.file,
      ...engineInfo(this.engine, this.state.params),
      builtAt: this.state.builtAt,
      updatedAt: this.state.updatedAt,
      savedAt: this.savedAt,
      hardLinked: [...this.hardLinked],
    };
  }

  async close(): Promise<void> {
    if (this.saveTimer) {
      clearTimeout(this.saveTimer);
      this.saveTimer = undefined;
    }
    await this.saving.catch(() => undefined);
    if (this.dirty) await this.save();
  }

  private async save(): Promise<void> {
    if (!this.state.persist) {
      this.dirty = false;
      return;
    }
    const run = async (): Promise<void> => {
      this.dirty = false;
      try {
        await saveSnapshot(this.state.file, this.engine, { builtAt: this.state.builtAt, updatedAt: this.state.updatedAt });
      } catch (error) {
        this.dirty = true;
        throw error;
      }
      this.savedAt = new Date().toISOString();
    };
    this.saving = this.saving.then(run, run);
    await this.saving;
  }
}

/** A file name's length, first character and fourth-last character (of `text` at `from`) as one number. */
function nameShape(text: string, from: number, length: number): number {
  const beforeExtension = length >= 4 ? text.charCodeAt(from + length - 4) : 0;
  return (length * 0x10000 + text.charCodeAt(from)) * 0x10000 + beforeExtension;
}

function normalisePath(pagePath: string): string {
  return pagePath.replace(/\\/g, '/').replace(/^\.\//, '');
}

/** The file's stat; a page not (yet) on disk gets one that the next scan will question. */
async function statOf(file: string): Promise<PageStat> {
  try {
    const s = await stat(file);
    return { mtimeMs: s.mtimeMs, size: s.size };
  } catch {
    return { mtimeMs: 0, size: -1 };
  }
}
