import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import type { WikiConfig } from '../config/schema.js';
import { UsageError } from '../errors.js';
import { writeFileAtomic } from '../util/fs.js';
import { isSpecialPage, type Contract, type Schema } from '../wiki/contract.js';
import { splitFrontmatter } from '../wiki/page.js';
import { stateDir } from '../wiki/workspace.js';
import { ANALYZER_VERSION } from './analyze.js';
import type { PageStat } from './doc-table.js';
import { contentHash, pageDocument, plainBody } from './document.js';
import { createEmbedder, type EmbedderContext } from './embedder-factory.js';
import { SearchEngine, type SearchParams, type SemanticSetup } from './engine.js';
import { analysePage } from './page-analysis.js';
import { diffAgainstDisk, scanPages } from './scan.js';
import { SemanticLane, type PageToEmbed } from './semantic.js';
import { makeSnippet } from './snippet.js';
import { StaleIndexError, decodeSnapshot, encodeSnapshot } from './store.js';
import { withTuning, type SearchTuning } from './tuning.js';
import type { LaneStatus, RefreshSummary, SearchIndexInfo, SearchOptions, SearchResponse, SearchResult } from './types.js';

export type { LaneName, LaneStatus, RefreshSummary, SearchIndexInfo, SearchOptions, SearchResponse, SearchResult } from './types.js';

/**
 * The search index of a workspace (ARCHITECTURE §5): open it, search it, tell it about
 * pages written through the tools, close it to flush. The files under wiki/ are the
 * truth; the index in `.wiki/search/` is a cache of them that is brought up to date on
 * open and before searches, and rebuilt whenever it is missing, stale or unreadable.
 */
export interface SearchIndex {
  search(query: string, options?: SearchOptions): Promise<SearchResponse>;
  /** Index a page just written (content as written); persisted shortly after and on close. */
  upsertPage(path: string, content: string): Promise<void>;
  removePage(path: string): Promise<void>;
  /** Bring the index in line with the files (mtime/size, hash on doubt). */
  refresh(): Promise<RefreshSummary>;
  info(): SearchIndexInfo;
  /** Persist pending changes. */
  close(): Promise<void>;
}

export interface OpenSearchIndexOptions {
  env?: NodeJS.ProcessEnv;
  /** Settings below the configuration, for the evaluation; defaults are the measured best. */
  tuning?: Partial<SearchTuning>;
  /** A search rescans the files when the last scan is older than this (default 2000 ms). */
  rescanAfterMs?: number;
  /** Keep the index in memory only (default: persist under `.wiki/search/`). */
  persist?: boolean;
}

export const INDEX_FILE = 'index.bin';
const DEFAULT_RESCAN_MS = 2000;
/** Save right after a refresh that changed at least this many pages (or rebuilt). */
const SAVE_AFTER_CHANGES = 25;
/** Writes through the tools are persisted after this quiet period (and on close). */
const SAVE_DELAY_MS = 1000;
const MAX_LIMIT = 1000;

export interface SnapshotMeta {
  analyzer: number;
  builtAt: string;
  updatedAt: string;
  /** Pages in the index when saved (read by `wiki status` without loading the index). */
  pages: number;
}

export function searchDirectory(root: string): string {
  return path.join(stateDir(root), 'search');
}

export async function openSearchIndex(
  root: string,
  schema: Schema,
  config: WikiConfig,
  options: OpenSearchIndexOptions = {},
): Promise<SearchIndex> {
  const tuning = withTuning(options.tuning);
  const context: EmbedderContext = {
    env: options.env ?? process.env,
    searchDir: searchDirectory(root),
    tuning,
    timeoutMs: config.requestTimeoutMs,
    maxRetries: config.maxRetries,
  };
  const semanticSetup = async (): Promise<SemanticSetup> => {
    const choice = await createEmbedder(config, context);
    return 'embedder' in choice ? { lane: new SemanticLane(choice.embedder) } : { off: choice.off };
  };
  const persist = options.persist !== false;
  const file = path.join(context.searchDir, INDEX_FILE);
  const loaded = persist ? await loadSnapshot(file, await semanticSetup()) : undefined;
  const now = new Date().toISOString();
  const index = new WikiSearchIndex({
    root,
    contract: schema.contract,
    params: searchParams(config, tuning),
    engine: loaded?.engine ?? SearchEngine.empty(await semanticSetup()),
    file,
    persist,
    rescanAfterMs: options.rescanAfterMs ?? DEFAULT_RESCAN_MS,
    builtAt: loaded?.meta.builtAt ?? now,
    updatedAt: loaded?.meta.updatedAt ?? now,
    rebuilt: !loaded,
  });
  if (loaded && !loaded.semanticRestored) index.semanticConfigChanged();
  await index.refresh();
  return index;
}

function searchParams(config: WikiConfig, tuning: SearchTuning): SearchParams {
  const search = config.search;
  return {
    weights: { ...search.weights },
    k: search.k,
    pool: search.pool,
    lexical: { k1: search.bm25.k1, b: search.bm25.b, ...tuning.lexical },
  };
}

async function loadSnapshot(
  file: string,
  semantic: SemanticSetup,
): Promise<{ engine: SearchEngine; meta: SnapshotMeta; semanticRestored: boolean } | undefined> {
  let bytes: Buffer;
  try {
    bytes = await readFile(file);
  } catch {
    return undefined;
  }
  try {
    const { meta, sections } = decodeSnapshot(bytes);
    const m = meta as SnapshotMeta;
    if (m?.analyzer !== ANALYZER_VERSION) throw new StaleIndexError('analyzer changed');
    const { engine, semanticRestored } = SearchEngine.decode(sections, semantic);
    return { engine, meta: m, semanticRestored };
  } catch {
    // Corrupt, truncated or from another version: the index is only a cache of the pages,
    // so it is rebuilt from them rather than reported.
    return undefined;
  }
}

interface IndexState {
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

class WikiSearchIndex implements SearchIndex {
  private lastScan = 0;
  private dirty: boolean;
  private savedAt: string | undefined;
  private saveTimer: NodeJS.Timeout | undefined;
  private saving: Promise<void> = Promise.resolve();

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

  async refresh(): Promise<RefreshSummary> {
    const { root, contract } = this.state;
    const scanStarted = Date.now();
    const files = await scanPages(root, contract);
    const diff = await diffAgainstDisk(root, files, this.engine.docs, contentHash);
    const summary: RefreshSummary = { added: 0, changed: 0, removed: 0 };
    for (const removed of diff.removed) if (this.engine.removePage(removed)) summary.removed++;
    const seenAt = Date.now();
    for (const touched of diff.touched) this.engine.docs.touch(touched.path, touched, seenAt);
    const work: PageToEmbed[] = [];
    for (const upsert of diff.upserts) {
      work.push(this.engine.indexPage(pageDocument(upsert.path, upsert.content), upsert.stat, seenAt));
      if (upsert.isNew) summary.added++;
      else summary.changed++;
    }
    await this.updateSemantic(work);
    this.lastScan = scanStarted;
    const changes = summary.added + summary.changed + summary.removed;
    if (changes > 0) this.state.updatedAt = new Date().toISOString();
    if (changes > 0 || diff.touched.length > 0) this.dirty = true;
    if (this.state.rebuilt || changes >= SAVE_AFTER_CHANGES) {
      this.state.rebuilt = false;
      await this.save();
    }
    return summary;
  }

  /** Embed new pages, retrain a drifted corpus embedder, retry pages an endpoint refused. */
  private async updateSemantic(work: PageToEmbed[]): Promise<void> {
    const semantic = this.engine.semantic;
    if (!('lane' in semantic)) return;
    const lane = semantic.lane;
    // An untrained embedder skips `embed`; a trained one folds the pages in first, and
    // retrains (re-embedding every page) once the folded-in share says it has drifted.
    await lane.embed(work);
    if (lane.needsTraining(this.engine.docs.liveCount)) {
      await lane.train(await this.everyPageToEmbed(work));
      return;
    }
    await this.retryPending();
  }

  private async retryPending(): Promise<void> {
    const semantic = this.engine.semantic;
    if (!('lane' in semantic) || semantic.lane.pendingCount === 0) return;
    const pages: PageToEmbed[] = [];
    for (const slot of semantic.lane.pendingSlots()) {
      const page = await this.readPageToEmbed(slot);
      if (page) pages.push(page);
    }
    await semantic.lane.embed(pages);
  }

  private async everyPageToEmbed(known: readonly PageToEmbed[]): Promise<PageToEmbed[]> {
    const bySlot = new Map(known.map((page) => [page.slot, page]));
    const pages: PageToEmbed[] = [];
    for (const record of this.engine.docs.records()) {
      const page = bySlot.get(record.slot) ?? (await this.readPageToEmbed(record.slot));
      if (page) pages.push(page);
    }
    return pages.sort((a, b) => a.slot - b.slot);
  }

  private async readPageToEmbed(slot: number): Promise<PageToEmbed | undefined> {
    const record = this.engine.docs.at(slot);
    if (!record) return undefined;
    const content = await readFile(path.join(this.state.root, record.path), 'utf8').catch(() => undefined);
    if (content === undefined) return undefined;
    return { slot, input: analysePage(pageDocument(record.path, content)).embedding };
  }

  async search(query: string, options: SearchOptions = {}): Promise<SearchResponse> {
    const text = query.trim();
    if (!text) throw new UsageError('the search query is empty', 'give one or more words to search for');
    const limit = options.limit ?? 10;
    if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT) {
      throw new UsageError(`limit must be a whole number from 1 to ${MAX_LIMIT} (got ${limit})`);
    }
    if (Date.now() - this.lastScan > this.state.rescanAfterMs) await this.refresh();
    else await this.retryPending();
    const found = await this.engine.search(text, limit, this.state.params);
    const results: SearchResult[] = await Promise.all(
      found.pages.map(async ({ record, score, lanes, contributions }) => ({
        key: record.key,
        path: record.path,
        title: record.title,
        summary: record.summary,
        score,
        lanes,
        contributions,
        snippet: options.snippets === false ? record.summary : await this.snippetFor(record.path, found.terms, record.summary),
        links: record.links,
        backlinks: this.engine.docs.backlinks(record.key),
      })),
    );
    return { query: text, results, lanes: found.lanes };
  }

  private async snippetFor(pagePath: string, terms: readonly string[], fallback: string): Promise<string> {
    const content = await readFile(path.join(this.state.root, pagePath), 'utf8').catch(() => undefined);
    if (content === undefined) return fallback;
    return makeSnippet(plainBody(splitFrontmatter(content).body), terms) || fallback;
  }

  async upsertPage(pagePath: string, content: string): Promise<void> {
    const normalised = normalisePath(pagePath);
    if (!this.isContentPage(normalised)) return;
    const doc = pageDocument(normalised, content);
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

  async removePage(pagePath: string): Promise<void> {
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
    const { weights } = this.state.params;
    const semantic = this.engine.semantic;
    const weighted = (lane: keyof typeof weights, status: LaneStatus): LaneStatus => (weights[lane] > 0 ? status : 'skipped: weight is 0');
    return {
      file: this.state.file,
      pages: this.engine.docs.liveCount,
      lanes: {
        lexical: weighted('lexical', 'ok'),
        semantic: weighted('semantic', 'lane' in semantic ? semantic.lane.status() : `skipped: ${semantic.off}`),
        token: weighted('token', 'ok'),
      },
      embedder: 'lane' in semantic ? semantic.lane.embedder.description : undefined,
      builtAt: this.state.builtAt,
      updatedAt: this.state.updatedAt,
      savedAt: this.savedAt,
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
      const meta: SnapshotMeta = {
        analyzer: ANALYZER_VERSION,
        builtAt: this.state.builtAt,
        updatedAt: this.state.updatedAt,
        pages: this.engine.docs.liveCount,
      };
      const bytes = encodeSnapshot(meta, this.engine.encode());
      try {
        await writeFileAtomic(this.state.file, bytes);
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
