import { existsSync } from 'node:fs';
import { loadSqlite, type Database, type Statement } from './sqlite.js';
import { factsLanguage, ftsQuery, ftsText, LANGUAGE_COUNTER } from './fts-text.js';
import { ENGLISH } from '../search/language/languages.js';
import type { Segment } from './segment.js';
import { closestOf, factId, normalizeFact } from './normalize.js';
import { SCHEMA, SCHEMA_TABLES, type Fact, type FactHit, type FactRow, type FactStats, type UpsertResult } from './store-schema.js';

/**
 * `.wiki/facts.db`: every fact extracted from raw/, with its provenance, lineage and
 * tombstone, and an FTS5 index over the live ones (tables in `store-schema.ts`). Derived
 * data: `wiki facts rebuild` recreates it from raw/ at any time.
 */

/** How long a statement waits for another process's transaction on the store to end. */
const BUSY_TIMEOUT_MS = 120_000;

export class FactStore {
  private readonly statements = new Map<string, Statement>();

  private constructor(private readonly db: Database) {}

  /** Open (or, unless read-only, create) the store; SQLite is loaded on first use (`sqlite.ts`). */
  static async open(file: string, options: { readonly?: boolean } = {}): Promise<FactStore> {
    const open = await loadSqlite();
    // A writer beside this one (an ingest's refresh, a `facts search`'s) is waited for, not failed with "database is locked".
    const db = open(file, { readonly: options.readonly ?? false, fileMustExist: options.readonly ?? false, timeout: BUSY_TIMEOUT_MS });
    // All tables or none: a store cut off while being made (a full disk, a kill) is never half a schema.
    if (!options.readonly) db.transaction(() => db.exec(SCHEMA))();
    return new FactStore(db);
  }

  /**
   * The store for reading, or undefined when there is none to read: no file, or one without
   * the whole schema (made by an older run cut off halfway), which counts as absent rather
   * than failing every reader with "no such table"; the next ingest or rebuild completes it.
   */
  static async openExisting(file: string): Promise<FactStore | undefined> {
    if (!existsSync(file)) return undefined;
    const store = await FactStore.open(file, { readonly: true });
    const marks = SCHEMA_TABLES.map(() => '?').join(', ');
    const { n } = store.db.prepare(`SELECT COUNT(*) AS n FROM sqlite_master WHERE name IN (${marks})`).get(...SCHEMA_TABLES) as { n: number };
    if (n === SCHEMA_TABLES.length) return store;
    store.close();
    return undefined;
  }

  /** Prepared once per store: preparing is most of a small statement's cost. */
  private prepare(sql: string): Statement {
    let statement = this.statements.get(sql);
    if (!statement) {
      statement = this.db.prepare(sql);
      this.statements.set(sql, statement);
    }
    return statement;
  }

  /** Run `work` in one transaction: one journal sync for a whole batch of sources instead of one each. */
  batch<T>(work: () => T): T {
    return this.db.transaction(work)();
  }

  close(): void {
    this.db.close();
  }

  sourceHashes(): Map<string, string> {
    const rows = this.prepare('SELECT path, sha256 FROM sources').all() as { path: string; sha256: string }[];
    return new Map(rows.map((r) => [r.path, r.sha256]));
  }

  /**
   * Replace what `source` says with `segments`: an identical normalised text gains this
   * provenance (a merge), a near-identical rewording of one of this source's own facts
   * updates it and keeps the old text as lineage, anything else is a new fact. This
   * source's facts it no longer states lose the provenance, and a fact left with none is
   * tombstoned.
   */
  replaceSource(source: string, sha256: string, segments: Segment[], similarity: number, now: string): UpsertResult {
    const run = this.db.transaction((): UpsertResult => {
      const result: UpsertResult = { inserted: 0, merged: 0, reworded: 0, tombstoned: 0 };
      const previous = this.db
        .prepare('SELECT DISTINCT f.id, f.text, f.norm, f.first_seen, f.tombstoned_at FROM facts f JOIN provenance p ON p.fact_id = f.id WHERE p.source = ?')
        .all(source) as FactRow[];
      this.prepare('DELETE FROM provenance WHERE source = ?').run(source);
      const previousById = new Map(previous.map((row) => [row.id, row]));
      const byNorm = this.prepare('SELECT id, text, norm, first_seen, tombstoned_at FROM facts WHERE norm = ?');
      const addProvenance = this.prepare('INSERT OR IGNORE INTO provenance (fact_id, source, line_start, line_end, sha256, heading) VALUES (?, ?, ?, ?, ?, ?)');
      const seenHere = new Set<string>();
      const language = factsLanguage(segments.map((segment) => segment.text));
      const unmatched: { segment: Segment; norm: string }[] = [];
      for (const segment of segments) {
        const norm = normalizeFact(segment.text);
        const existing = byNorm.get(norm) as FactRow | undefined;
        if (!existing) {
          unmatched.push({ segment, norm });
          continue;
        }
        if (existing.tombstoned_at !== null) this.revive(existing, language);
        if (seenHere.has(existing.id) || !previousById.has(existing.id)) result.merged++;
        previousById.delete(existing.id);
        seenHere.add(existing.id);
        addProvenance.run(existing.id, source, segment.lineStart, segment.lineEnd, sha256, segment.heading);
      }
      for (const { segment, norm } of unmatched) {
        const already = byNorm.get(norm) as FactRow | undefined;
        if (already) {
          result.merged++;
          addProvenance.run(already.id, source, segment.lineStart, segment.lineEnd, sha256, segment.heading);
          continue;
        }
        const reworded = closestOf(norm, previousById.values(), similarity);
        if (reworded) {
          previousById.delete(reworded.id);
          this.reword(reworded, segment.text, norm, now, language);
          result.reworded++;
          addProvenance.run(reworded.id, source, segment.lineStart, segment.lineEnd, sha256, segment.heading);
          continue;
        }
        const id = this.freshId(norm);
        this.prepare('INSERT INTO facts (id, text, norm, first_seen, tombstoned_at) VALUES (?, ?, ?, ?, NULL)').run(id, segment.text, norm, now);
        this.prepare('INSERT INTO facts_fts (id, text) VALUES (?, ?)').run(id, ftsText(segment.text, language));
        result.inserted++;
        addProvenance.run(id, source, segment.lineStart, segment.lineEnd, sha256, segment.heading);
      }
      result.tombstoned = this.tombstoneOrphans([...previousById.keys()], now);
      this.prepare('INSERT INTO sources (path, sha256, extracted_at) VALUES (?, ?, ?) ON CONFLICT(path) DO UPDATE SET sha256 = excluded.sha256, extracted_at = excluded.extracted_at').run(source, sha256, now);
      this.bump('merged', result.merged);
      this.bump('reworded', result.reworded);
      // The languages the store holds facts in: a search analyses its query in each of them.
      if (language !== ENGLISH) this.bump(`${LANGUAGE_COUNTER}${language}`, 1);
      return result;
    });
    return run();
  }

  /** A deleted source: its provenance goes, and facts no other source states are tombstoned. */
  removeSource(source: string, now: string): number {
    const run = this.db.transaction((): number => {
      const ids = (this.prepare('SELECT DISTINCT fact_id FROM provenance WHERE source = ?').all(source) as { fact_id: string }[]).map((r) => r.fact_id);
      this.prepare('DELETE FROM provenance WHERE source = ?').run(source);
      this.prepare('DELETE FROM sources WHERE path = ?').run(source);
      return this.tombstoneOrphans(ids, now);
    });
    return run();
  }

  /** Live facts matching `query` by FTS5 BM25, best first; `sources` narrows to facts stated by one of them. */
  search(query: string, limit: number, sources?: readonly string[]): FactHit[] {
    const match = ftsQuery(query, this.languages());
    if (!match) return [];
    const rows = this.db
      .prepare(
        `SELECT facts_fts.id AS id, f.text AS text, bm25(facts_fts) AS rank FROM facts_fts JOIN facts f ON f.id = facts_fts.id
         WHERE facts_fts MATCH ? AND f.tombstoned_at IS NULL ORDER BY rank LIMIT ?`,
      )
      .all(match, sources ? limit * 20 : limit) as { id: string; text: string; rank: number }[];
    const hits: FactHit[] = [];
    for (const row of rows) {
      const from = this.sourcesOf(row.id);
      if (sources && !from.some((s) => sources.includes(citedFile(s)))) continue;
      hits.push({ id: row.id, text: row.text, score: -row.rank, sources: from });
      if (hits.length >= limit) break;
    }
    return hits;
  }

  /** Every live fact stated by one of `sources`, without the sources of each (what grounding needs). */
  factTextsOfSources(sources: readonly string[]): { id: string; text: string }[] {
    if (sources.length === 0) return [];
    const marks = sources.map(() => '?').join(', ');
    const sql = `SELECT DISTINCT f.id, f.text FROM facts f JOIN provenance p ON p.fact_id = f.id WHERE p.source IN (${marks}) AND f.tombstoned_at IS NULL ORDER BY f.id`;
    return this.prepare(sql).all(...sources) as { id: string; text: string }[];
  }

  /** Every live fact stated by one of `sources`, once per place it is stated there: what a citation's lines are matched with, and what the shared database is offered. */
  factPlacesOfSources(sources: readonly string[]): { id: string; text: string; source: string; lineStart: number; lineEnd: number; heading: string }[] {
    if (sources.length === 0) return [];
    const marks = sources.map(() => '?').join(', ');
    const sql =
      'SELECT f.id, f.text, p.source, p.line_start AS lineStart, p.line_end AS lineEnd, p.heading FROM facts f JOIN provenance p ON p.fact_id = f.id ' +
      `WHERE p.source IN (${marks}) AND f.tombstoned_at IS NULL ORDER BY p.source, p.line_start, f.id`;
    return this.prepare(sql).all(...sources) as { id: string; text: string; source: string; lineStart: number; lineEnd: number; heading: string }[];
  }

  /** The live facts `source` states on lines `first`–`last` (any overlap), in line order. */
  factLinesOfSource(source: string, first: number, last: number): { id: string; lineStart: number; lineEnd: number }[] {
    return this.prepare(
      'SELECT p.fact_id AS id, p.line_start AS lineStart, p.line_end AS lineEnd FROM provenance p JOIN facts f ON f.id = p.fact_id ' +
        'WHERE p.source = ? AND p.line_end >= ? AND p.line_start <= ? AND f.tombstoned_at IS NULL ORDER BY p.line_start, p.fact_id',
    ).all(source, first, last) as { id: string; lineStart: number; lineEnd: number }[];
  }

  /** Every live fact stated by one of `sources`. */
  factsOfSources(sources: readonly string[]): FactHit[] {
    return this.factTextsOfSources(sources).map((r) => ({ id: r.id, text: r.text, score: 0, sources: this.sourcesOf(r.id) }));
  }

  get(id: string): Fact | undefined {
    const row = this.prepare('SELECT id, text, norm, first_seen, tombstoned_at FROM facts WHERE id = ?').get(id) as FactRow | undefined;
    if (!row) return undefined;
    const provenance = (
      this.prepare('SELECT source, line_start, line_end, sha256, heading FROM provenance WHERE fact_id = ? ORDER BY source, line_start').all(id) as {
        source: string;
        line_start: number;
        line_end: number;
        sha256: string;
        heading: string;
      }[]
    ).map((p) => ({ source: p.source, lineStart: p.line_start, lineEnd: p.line_end, sha256: p.sha256, heading: p.heading }));
    const lineage = (
      this.prepare('SELECT previous_text, replaced_at FROM lineage WHERE fact_id = ? ORDER BY rowid').all(id) as { previous_text: string; replaced_at: string }[]
    ).map((l) => ({ previousText: l.previous_text, replacedAt: l.replaced_at }));
    return { id: row.id, text: row.text, firstSeen: row.first_seen, tombstonedAt: row.tombstoned_at, provenance, lineage };
  }

  stats(): FactStats {
    const count = (sql: string): number => (this.prepare(sql).get() as { n: number }).n;
    const counter = (name: string): number => (this.prepare('SELECT value FROM counters WHERE name = ?').get(name) as { value: number } | undefined)?.value ?? 0;
    return {
      facts: count('SELECT COUNT(*) AS n FROM facts'),
      live: count('SELECT COUNT(*) AS n FROM facts WHERE tombstoned_at IS NULL'),
      tombstoned: count('SELECT COUNT(*) AS n FROM facts WHERE tombstoned_at IS NOT NULL'),
      sources: count('SELECT COUNT(*) AS n FROM sources'),
      duplicatesMerged: counter('merged'),
      reworded: counter('reworded'),
    };
  }

  /** Where a fact is stated, each as `raw/x.md#L12` (or `#L12-14`), as `facts show` gives it. */
  private sourcesOf(id: string): string[] {
    const rows = this.prepare('SELECT DISTINCT source, line_start, line_end FROM provenance WHERE fact_id = ? ORDER BY source, line_start, line_end').all(id) as {
      source: string;
      line_start: number;
      line_end: number;
    }[];
    return rows.map((r) => citeLines(r.source, r.line_start, r.line_end));
  }

  private revive(row: FactRow, language: string): void {
    this.prepare('UPDATE facts SET tombstoned_at = NULL WHERE id = ?').run(row.id);
    this.prepare('INSERT INTO facts_fts (id, text) VALUES (?, ?)').run(row.id, ftsText(row.text, language));
  }

  /** The languages other than English the store has held facts in (an older store: none). */
  private languages(): string[] {
    const rows = this.prepare(`SELECT name FROM counters WHERE name LIKE '${LANGUAGE_COUNTER}%' ORDER BY name`).all() as { name: string }[];
    return rows.map((row) => row.name.slice(LANGUAGE_COUNTER.length));
  }

  private reword(row: FactRow, text: string, norm: string, now: string, language: string): void {
    this.prepare('INSERT INTO lineage (fact_id, previous_text, replaced_at) VALUES (?, ?, ?)').run(row.id, row.text, now);
    this.prepare('UPDATE facts SET text = ?, norm = ?, tombstoned_at = NULL WHERE id = ?').run(text, norm, row.id);
    this.prepare('DELETE FROM facts_fts WHERE id = ?').run(row.id);
    this.prepare('INSERT INTO facts_fts (id, text) VALUES (?, ?)').run(row.id, ftsText(text, language));
  }

  private tombstoneOrphans(ids: string[], now: string): number {
    let tombstoned = 0;
    const stillStated = this.prepare('SELECT 1 FROM provenance WHERE fact_id = ? LIMIT 1');
    for (const id of ids) {
      if (stillStated.get(id)) continue;
      const changed = this.prepare('UPDATE facts SET tombstoned_at = ? WHERE id = ? AND tombstoned_at IS NULL').run(now, id).changes;
      if (changed > 0) {
        this.prepare('DELETE FROM facts_fts WHERE id = ?').run(id);
        tombstoned++;
      }
    }
    return tombstoned;
  }

  /** The id of a new fact; a reworded fact keeps its first id, so a later text may hash to a taken one. */
  private freshId(norm: string): string {
    const taken = this.prepare('SELECT 1 FROM facts WHERE id = ?');
    let id = factId(norm);
    for (let salt = 1; taken.get(id); salt++) id = factId(`${norm}\u0000${salt}`);
    return id;
  }

  private bump(name: string, by: number): void {
    if (by === 0) return;
    this.prepare('INSERT INTO counters (name, value) VALUES (?, ?) ON CONFLICT(name) DO UPDATE SET value = value + excluded.value').run(name, by);
  }
}

/** `raw/x.md#L12` for one line, `raw/x.md#L12-14` for several: the form of a citation comment. */
export function citeLines(source: string, lineStart: number, lineEnd: number): string {
  return `${source}#L${lineStart === lineEnd ? lineStart : `${lineStart}-${lineEnd}`}`;
}

/** The file of a `citeLines` citation. */
function citedFile(cited: string): string {
  const hash = cited.lastIndexOf('#L');
  return hash < 0 ? cited : cited.slice(0, hash);
}
