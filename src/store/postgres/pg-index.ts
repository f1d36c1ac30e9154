import { EventEmitter } from 'node:events';
import { engineInfo } from '../../search/live/engine-info.js';
import { hostname } from 'node:os';
import { isSpecialPage, type Contract } from '../../wiki/contract.js';
import { keyFromPath } from '../../wiki/keys.js';
import { SearchEngine, type SearchParams, type SemanticSetup } from '../../search/engine.js';
import { answerQuery, checkedQuery } from '../../search/live/answer.js';
import { measureSemanticStrength, updateSemantic } from '../../search/lanes/semantic/semantic-upkeep.js';
import { scanPages } from '../../search/live/scan.js';
import { contentHash, pageDocument } from '../../search/text/document.js';
import type { PageToEmbed } from '../../search/lanes/semantic/semantic.js';
import type { RefreshSummary, SearchIndex, SearchIndexInfo, SearchOptions, SearchResponse } from '../../search/types.js';
import type { SharedRow, SharedRows } from '../shared-rows.js';
import type { Database } from './connection.js';
import { visibilityOf } from './checkout.js';
import { offerChangedPages, offerCheckoutDeletions } from './sync.js';
import { offerVersions, rowsSince, storeCounts, type PageVersion, type StoreCounts, type StoredPage } from './page-rows.js';
import { PostgresLexical } from './pg-lexical.js';
import { loadStoredEngine, storeEngine } from './snapshot.js';
import { EngineVectors } from './engine-vectors.js';
import type { VectorKind } from './schema-vectors.js';
import { ENGLISH } from '../../search/language/languages.js';
import { CHANGES_CHANNEL } from './schema.js';
import { admittedByVersion } from './served-versions.js';
import { visibilityLevels } from '../../wiki/access.js';

/** Writes a replica folds in beyond the engine kept in the database before it keeps its own there. */
const KEEP_ENGINE_AFTER = 200;

/** A page the index holds has no file stat: the database, not a disk, is what it follows. */
const NO_STAT = { mtimeMs: 0, size: -1 };

export interface PostgresIndexState {
  root: string;
  contract: Contract;
  params: SearchParams;
  db: Database;
  /** Where the semantic lane's vectors are ranked: by the database (pgvector) or in this process (arrays). */
  vectors: VectorKind;
  /** A fresh semantic lane (or why there is none), for each engine the index makes. */
  semantic: () => Promise<SemanticSetup>;
  /** A search first offers the checkout's changes and reads the database's when the last look is older than this. */
  rescanAfterMs: number;
}

/**
 * The search index kept in a Postgres database that many replicas share (`store.kind:
 * postgres`). The database holds every page's newest version (page-rows.ts) and answers the
 * lexical lane (pg-lexical.ts); each process ranks with the same engine as the file index
 * (fusion, the semantic and token lanes, tuning unchanged), built from the database's rows
 * rather than its own checkout, and follows the database's writes: at
 * once when notified (LISTEN), and before a search whose last look is stale. The process
 * offers its checkout's pages as versions; only newer ones replace a row.
 *
 * Who may see a hit: a caller that judges access on the version it serves or reads is given
 * only hits whose row is that version (served-versions.ts), so a page is never judged by one
 * version and shown from another; the owner's `wiki search` sees every page's newest version.
 */
export class PostgresSearchIndex implements SearchIndex, SharedRows {
  /** `applied` (paths, seq): rows from the database folded into this process's engine. */
  readonly events = new EventEmitter();
  private readonly rows = new Map<string, StoredPage>();
  /** Paths whose newest row is a deletion. */
  private readonly deleted = new Set<string>();
  /** Counts the row changes folded in (SharedRows). */
  rowsVersion = 0;
  /** The stat at which each checkout page was last offered: offered again only once it changes. */
  private readonly offered = new Map<string, { mtimeMs: number; size: number }>();
  private lastSeq = 0;
  private lastLook = 0;
  private changes: Promise<unknown> = Promise.resolve();
  private stopListening: (() => Promise<void>) | undefined;
  private builtAt = new Date().toISOString();
  private updatedAt = this.builtAt;
  private readonly writer = `${hostname()}:${process.pid}`;
  /** The lexical lane's scores, from the database's full-text index. */
  private readonly lexical: PostgresLexical;
  /** The write the engine kept in the database is as of. */
  private storedSeq = 0;
  /** Each page's vector in the database, under the model this process embeds with. */
  private readonly vectors: EngineVectors;

  private constructor(
    private readonly state: PostgresIndexState,
    private readonly engine: SearchEngine,
  ) {
    this.lexical = new PostgresLexical(state.db, () => this.lastSeq);
    this.vectors = new EngineVectors(state.db, state.vectors, engine, this.rows);
  }

  /**
   * Open: start from the engine kept in the database (else an empty one), listen for
   * writes, fold in the rows written since, offer what this checkout holds that the
   * database lacks; keep the engine in the database again once it is far behind.
   */
  static async open(state: PostgresIndexState): Promise<PostgresSearchIndex> {
    let stored;
    let index: PostgresSearchIndex;
    try {
      // Pages that neither state nor show their language are read in the wiki's, as by the file index.
      const language = state.params.language ?? ENGLISH;
      stored = await loadStoredEngine(state.db, await state.semantic(), language);
      index = new PostgresSearchIndex(state, stored?.engine ?? SearchEngine.empty(await state.semantic(), language));
    } catch (error) {
      await state.db.close();
      throw error;
    }
    if (stored) {
      for (const row of stored.rows) index.rows.set(row.path, row);
      for (const pagePath of stored.deleted) index.deleted.add(pagePath);
      index.lastSeq = stored.seq;
      index.storedSeq = stored.seq;
      index.builtAt = stored.builtAt;
    }
    try {
      index.stopListening = await state.db.listen(CHANGES_CHANNEL, () => void index.followDatabase().catch(() => undefined), () => {
        index.stopListening = undefined;
      });
      await index.refresh();
      await index.exclusive(() => index.vectors.keep([]));
      if (index.lastSeq - index.storedSeq >= KEEP_ENGINE_AFTER) await index.keepEngine();
    } catch (error) {
      await index.close();
      throw error;
    }
    return index;
  }

  /** Keep this process's engine in the database, as of the last write it folded in, for replicas to start from. */
  keepEngine(): Promise<void> {
    return this.exclusive(async () => {
      await storeEngine(this.state.db, this.engine, this.lastSeq, { builtAt: this.builtAt, updatedAt: this.updatedAt });
      this.storedSeq = this.lastSeq;
      await this.vectors.dropOtherModels();
    });
  }

  private exclusive<T>(work: () => Promise<T>): Promise<T> {
    const run = this.changes.then(work, work);
    this.changes = run.catch(() => undefined);
    return run;
  }

  /** Fold the rows written since the last one seen into the engine. */
  followDatabase(): Promise<RefreshSummary> {
    return this.exclusive(() => this.applyRows());
  }

  /** Offer the checkout's changed pages, then follow the database. */
  refresh(): Promise<RefreshSummary> {
    return this.exclusive(async () => {
      const started = Date.now();
      const summary = await this.applyRows();
      const offered = await this.offerCheckout();
      if (offered > 0) addSummary(summary, await this.applyRows());
      this.lastLook = started;
      return summary;
    });
  }

  private async applyRows(): Promise<RefreshSummary> {
    const summary: RefreshSummary = { added: 0, changed: 0, removed: 0 };
    const fresh = await rowsSince(this.state.db, this.lastSeq);
    if (fresh.length === 0) return summary;
    const upserts: StoredPage[] = [];
    const removed: string[] = [];
    for (const row of fresh) {
      this.lastSeq = Math.max(this.lastSeq, row.seq);
      const held = this.rows.get(row.path);
      if (row.content === null) {
        this.rows.delete(row.path);
        removed.push(row.path);
        this.deleted.add(row.path);
        if (this.engine.removePage(row.path)) summary.removed++;
      } else if (held?.hash !== row.hash && this.isContentPage(row.path)) {
        this.deleted.delete(row.path);
        this.rows.set(row.path, row);
        if (held) summary.changed++;
        else summary.added++;
        upserts.push(row);
      }
    }
    const seenAt = Date.now();
    const pages = upserts.map((row) => ({ doc: pageDocument(row.path, row.content ?? '', this.engine.language), stat: NO_STAT }));
    const work: PageToEmbed[] = this.engine.indexPages(pages, seenAt);
    await updateSemantic(this.engine, (pagePath) => this.rows.get(pagePath)?.content ?? undefined, work);
    await measureSemanticStrength(this.engine, this.state.params.lexical);
    await this.vectors.keep(removed);
    this.updatedAt = new Date().toISOString();
    this.rowsVersion++;
    this.events.emit('applied', fresh.map((row) => row.path), this.lastSeq);
    return summary;
  }

  /** Offer the checkout pages whose stat moved since last offered and whose text the database does not hold, and the deletions its history proves. */
  private async offerCheckout(): Promise<number> {
    const { files } = scanPages(this.state.root, this.state.contract);
    const moved = files.filter((file) => {
      const seen = this.offered.get(file.path);
      return !seen || seen.mtimeMs !== file.mtimeMs || seen.size !== file.size;
    });
    const { accepted } = await offerChangedPages(this.state.db, this.state.root, this.state.contract, moved, (pagePath) => this.rows.get(pagePath)?.hash, this.writer, this.engine.language);
    for (const file of moved) this.offered.set(file.path, { mtimeMs: file.mtimeMs, size: file.size });
    const deleted = await offerCheckoutDeletions(this.state.db, this.state.root, files, this.rows.values(), this.writer);
    return accepted.length + deleted.length;
  }

  async search(query: string, options: SearchOptions = {}): Promise<SearchResponse> {
    const text = checkedQuery(query, options);
    if (Date.now() - this.lastLook > this.state.rescanAfterMs) await this.refresh();
    else await this.changes;
    const textOf = options.readPage ?? ((pagePath: string) => this.rows.get(pagePath)?.content ?? undefined);
    return answerQuery(this.engine, this.state.params, text, options, textOf, admittedByVersion(options, this.state.root, (pagePath) => this.rows.get(pagePath)?.hash), this.lexical, this.vectors.ranker((again) => this.exclusive(again)));
  }

  /** The newest row of a page: its text, or null once deleted (SharedRows). */
  rowAt(pagePath: string): SharedRow | undefined {
    if (this.deleted.has(pagePath)) return { content: null, hash: null, visibility: null };
    const row = this.rows.get(pagePath);
    return row && { content: row.content, hash: row.hash, visibility: row.visibility };
  }

  *rowPaths(): Iterable<string> {
    yield* this.rows.keys();
    yield* this.deleted;
  }

  /** A page a tool just wrote: the newest version there is, offered as written now. */
  upsertPage(pagePath: string, content: string): Promise<void> {
    const normalised = pagePath.replace(/\\/g, '/').replace(/^\.\//, '');
    if (!this.isContentPage(normalised)) return Promise.resolve();
    const visibility = visibilityOf(content, visibilityLevels(this.state.contract).default);
    return this.write({ path: normalised, content, hash: contentHash(content), visibility, stamp: Date.now() });
  }

  /** A page a tool deleted: a deletion stamped now, which an older checkout's copy never undoes. */
  removePage(pagePath: string): Promise<void> {
    const normalised = pagePath.replace(/\\/g, '/').replace(/^\.\//, '');
    if (!this.rows.has(normalised)) return Promise.resolve();
    return this.write({ path: normalised, content: null, hash: null, visibility: null, stamp: Date.now() });
  }

  private write(version: PageVersion): Promise<void> {
    return this.exclusive(async () => {
      await offerVersions(this.state.db, [version], this.writer, this.engine.language);
      await this.applyRows();
    });
  }

  private isContentPage(pagePath: string): boolean {
    return pagePath.startsWith('wiki/') && pagePath.endsWith('.md') && !isSpecialPage(this.state.contract, pagePath);
  }

  pathsOf(keys: readonly string[]): Map<string, string[]> {
    const found = new Map<string, string[]>(keys.map((key) => [key, []]));
    for (const pagePath of this.engine.docs.paths()) found.get(keyFromPath(pagePath))?.push(pagePath);
    return found;
  }

  /** Never answered from the database: its version may not be the checkout's, so the caller reads the file. */
  surfacedAsIndexed(): boolean | undefined {
    return undefined;
  }

  info(): SearchIndexInfo {
    return {
      file: this.state.db.name,
      ...engineInfo(this.engine, this.state.params),
      builtAt: this.builtAt,
      updatedAt: this.updatedAt,
      savedAt: this.updatedAt,
      hardLinked: [],
    };
  }

  /** The database's pages and last write. */
  counts(): Promise<StoreCounts> {
    return storeCounts(this.state.db);
  }

  /** The last database write this process has folded in. */
  get followedSeq(): number {
    return this.lastSeq;
  }

  async close(): Promise<void> {
    await this.changes;
    await this.stopListening?.();
    this.stopListening = undefined;
    await this.state.db.close();
  }
}

function addSummary(into: RefreshSummary, more: RefreshSummary): void {
  into.added += more.added;
  into.changed += more.changed;
  into.removed += more.removed;
}
